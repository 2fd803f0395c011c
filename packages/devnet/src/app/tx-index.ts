/**
 * The index of committed txs: by position (height order), by hash, and by event attribute for
 * `tx_search`. The event index is built lazily, when a search needs it (a block does not).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { toHex } from "./codec.js";
import type { BlockRecord, IndexedTx, TxResult } from "./contract.js";
import { parseQuery, type QueryCondition, type QuerySubject, queryMatches } from "./event-query.js";

function upperHex(bytes: Uint8Array): string {
  return toHex(bytes).toUpperCase();
}

/** The committed txs and their indexes (see the module comment). */
export class TxIndex {
  private readonly indexed: IndexedTx[] = [];
  private readonly indexedHex: string[] = [];
  private readonly byHash = new Map<string, number>();
  private readonly eventIndex = new Map<string, number[]>();
  /** Txs (positions in `indexed`) below this one are in `eventIndex`. */
  private eventIndexed = 0;
  /** The position of each indexed block's first tx, from the first indexed block on. */
  private readonly blockFirstTx: number[] = [];
  private firstHeight: bigint | undefined;

  /** @param blockAt the committed block at a height (to narrow a search by `tx.height`). */
  constructor(private readonly blockAt: (height: bigint) => BlockRecord | undefined) {}

  /** Indexes the txs of a committed block (the next height). */
  addBlock(record: BlockRecord): void {
    this.firstHeight ??= record.height;
    this.blockFirstTx.push(this.indexed.length);
    record.txs.forEach((bytes, index) => {
      const result = record.txResults[index] as TxResult;
      const hash = sha256(bytes);
      const position = this.indexed.length;
      const hex = upperHex(hash);
      this.indexed.push({ hash, height: record.height, index, tx: bytes, result });
      this.indexedHex.push(hex);
      this.byHash.set(hex, position);
    });
  }

  /** A committed tx by its hash. */
  byTxHash(hash: Uint8Array): IndexedTx | undefined {
    const position = this.byHash.get(upperHex(hash));
    return position === undefined ? undefined : this.indexed[position];
  }

  /**
   * Txs matching a CometBFT query, by height then index (or the reverse).
   *
   * @throws {QuerySyntaxError} for a query that does not parse.
   */
  search(query: string, order: "asc" | "desc"): IndexedTx[] {
    const conditions = parseQuery(query).map((c) =>
      // Hashes are hex: any case finds the tx.
      c.key === "tx.hash" && c.operand?.kind === "string"
        ? { ...c, operand: { kind: "string" as const, text: c.operand.text.toUpperCase() } }
        : c,
    );
    const out: IndexedTx[] = [];
    for (const position of this.candidates(conditions)) {
      const tx = this.indexed[position] as IndexedTx;
      if (queryMatches(conditions, this.subject(position))) out.push(tx);
    }
    return order === "desc" ? out.reverse() : out;
  }

  /** What a query sees of the tx at `position`: its height, hash and events. */
  private subject(position: number): QuerySubject {
    const tx = this.indexed[position] as IndexedTx;
    return {
      values: (key) => {
        if (key === "tx.height") return [tx.height.toString()];
        if (key === "tx.hash") return [this.indexedHex[position] as string];
        const dot = key.lastIndexOf(".");
        if (dot < 0) return [];
        const type = key.slice(0, dot);
        const attribute = key.slice(dot + 1);
        const values: string[] = [];
        for (const e of tx.result.events) {
          if (e.type !== type) continue;
          for (const a of e.attributes) if (a.key === attribute) values.push(a.value);
        }
        return values;
      },
      hasType: (key) => tx.result.events.some((e) => e.type === key),
    };
  }

  /** Brings the event index up to the latest indexed tx. */
  private indexEvents(): void {
    for (; this.eventIndexed < this.indexed.length; this.eventIndexed++) {
      const position = this.eventIndexed;
      const seen = new Set<string>();
      for (const e of (this.indexed[position] as IndexedTx).result.events) {
        for (const a of e.attributes) {
          const key = `${e.type}.${a.key}=${a.value}`;
          if (seen.has(key)) continue;
          seen.add(key);
          let list = this.eventIndex.get(key);
          if (list === undefined) {
            list = [];
            this.eventIndex.set(key, list);
          }
          list.push(position);
        }
      }
    }
  }

  /** Positions that may match, ascending: the narrowest exact-match index, or every tx. */
  private candidates(conditions: readonly QueryCondition[]): number[] {
    this.indexEvents();
    let best: number[] | undefined;
    for (const c of conditions) {
      if (c.op !== "=" || c.operand === undefined) continue;
      let list: number[] | undefined;
      if (c.key === "tx.hash" && c.operand.kind === "string") {
        const position = this.byHash.get(c.operand.text);
        list = position === undefined ? [] : [position];
      } else if (c.key === "tx.height") {
        // The parser only lets integer heights through.
        list = this.blockPositions(BigInt(c.operand.text));
      } else if (c.operand.kind === "string") {
        list = this.eventIndex.get(`${c.key}=${c.operand.text}`) ?? [];
      }
      // A number matches values by their leading number ("5", "5.0", "5uusdc"): no exact index.
      if (list !== undefined && (best === undefined || list.length < best.length)) best = list;
    }
    return best ?? this.indexed.map((_, i) => i);
  }

  /** The positions of the txs of the block at `height` (none when it is not indexed). */
  private blockPositions(height: bigint): number[] {
    const block = this.blockAt(height);
    if (block === undefined || this.firstHeight === undefined) return [];
    const start = this.blockFirstTx[Number(height - this.firstHeight)] as number;
    return block.txs.map((_, i) => start + i);
  }
}
