/**
 * The index of committed txs: by position (height order), by hash, and by event attribute for
 * `tx_search`. The event index is built lazily, when a search needs it (a block does not).
 */

import { DevnetError } from "../../devnet-error.js";
import type { BlockRecord, IndexedTx, TxResult } from "../contract.js";
import { toHex } from "../lib/codec.js";
import { parseQuery, type QueryCondition, type QuerySubject, queryMatches } from "../lib/event-query.js";
import { sha256 } from "../lib/sha256.js";

function upperHex(bytes: Uint8Array): string {
  return toHex(bytes).toUpperCase();
}

/** The txs (by sequence number) whose events hold one attribute; live from `head` on. */
interface Posting {
  seqs: number[];
  head: number;
}

/**
 * The committed txs and their indexes (see the module comment). Each tx has a sequence number
 * (its position among every tx ever indexed); the txs of pruned blocks leave every index.
 */
export class TxIndex {
  /** The indexed txs, in order: `indexed[i]` has sequence number `dropped + i`. */
  private readonly indexed: IndexedTx[] = [];
  private readonly indexedHex: string[] = [];
  /** How many txs were pruned (the sequence number of `indexed[0]`). */
  private dropped = 0;
  private readonly byHash = new Map<string, number>();
  private readonly eventIndex = new Map<string, Posting>();
  /** Txs (sequence numbers) below this one are in `eventIndex`. */
  private eventIndexed = 0;
  /** The sequence number of each indexed block's first tx, from `firstHeight` on. */
  private readonly blockFirstTx: number[] = [];
  private firstHeight: bigint | undefined;

  /** @param blockAt the committed block at a height, if in memory (to narrow a search by `tx.height`). */
  constructor(private readonly blockAt: (height: bigint) => BlockRecord | undefined) {}

  /** Number of txs in the index. */
  get size(): number {
    return this.indexed.length;
  }

  /** Indexes the txs of a committed block (the next height). */
  addBlock(record: BlockRecord): void {
    this.firstHeight ??= record.height;
    this.blockFirstTx.push(this.dropped + this.indexed.length);
    record.txs.forEach((bytes, index) => {
      const result = record.txResults[index] as TxResult;
      const hash = sha256(bytes);
      const seq = this.dropped + this.indexed.length;
      const hex = upperHex(hash);
      this.indexed.push({ hash, height: record.height, index, tx: bytes, result });
      this.indexedHex.push(hex);
      this.byHash.set(hex, seq);
    });
  }

  /** Removes the txs of the oldest indexed block (`record`) from every index. */
  pruneBlock(record: BlockRecord): void {
    if (record.height !== this.firstHeight) {
      throw new DevnetError(
        "invalid-argument",
        `pruning height ${record.height}, but the oldest indexed block is ${this.firstHeight}`,
      );
    }
    const count = record.txs.length;
    for (let i = 0; i < count; i++) {
      const seq = this.dropped + i;
      const hex = this.indexedHex[i] as string;
      // A tx included again later keeps its newer entry.
      if (this.byHash.get(hex) === seq) this.byHash.delete(hex);
      if (seq < this.eventIndexed) this.unindexEvents(seq, this.indexed[i] as IndexedTx);
    }
    this.indexed.splice(0, count);
    this.indexedHex.splice(0, count);
    this.dropped += count;
    if (this.eventIndexed < this.dropped) this.eventIndexed = this.dropped;
    this.blockFirstTx.shift();
    this.firstHeight = record.height + 1n;
  }

  /** A committed tx by its hash. */
  byTxHash(hash: Uint8Array): IndexedTx | undefined {
    const seq = this.byHash.get(upperHex(hash));
    return seq === undefined ? undefined : this.indexed[seq - this.dropped];
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
    for (const seq of this.candidates(conditions)) {
      const position = seq - this.dropped;
      if (queryMatches(conditions, this.subject(position))) out.push(this.indexed[position] as IndexedTx);
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

  /** The distinct `type.key=value` keys of a tx's events, in order. */
  private static keysOf(tx: IndexedTx): Set<string> {
    const keys = new Set<string>();
    for (const e of tx.result.events) {
      for (const a of e.attributes) keys.add(`${e.type}.${a.key}=${a.value}`);
    }
    return keys;
  }

  /** Brings the event index up to the latest indexed tx. */
  private indexEvents(): void {
    const end = this.dropped + this.indexed.length;
    for (; this.eventIndexed < end; this.eventIndexed++) {
      const seq = this.eventIndexed;
      for (const key of TxIndex.keysOf(this.indexed[seq - this.dropped] as IndexedTx)) {
        let posting = this.eventIndex.get(key);
        if (posting === undefined) {
          posting = { seqs: [], head: 0 };
          this.eventIndex.set(key, posting);
        }
        posting.seqs.push(seq);
      }
    }
  }

  /** Removes the (oldest) tx `seq` from the event index; a key left without txs goes. */
  private unindexEvents(seq: number, tx: IndexedTx): void {
    for (const key of TxIndex.keysOf(tx)) {
      const posting = this.eventIndex.get(key);
      if (posting === undefined || posting.seqs[posting.head] !== seq) continue;
      posting.head++;
      if (posting.head === posting.seqs.length) this.eventIndex.delete(key);
      else if (posting.head >= 64 && posting.head * 2 >= posting.seqs.length) {
        posting.seqs = posting.seqs.slice(posting.head);
        posting.head = 0;
      }
    }
  }

  /** Sequence numbers that may match, ascending: the narrowest exact-match index, or every tx. */
  private candidates(conditions: readonly QueryCondition[]): number[] {
    this.indexEvents();
    let best: number[] | undefined;
    for (const c of conditions) {
      if (c.op !== "=" || c.operand === undefined) continue;
      let list: number[] | undefined;
      if (c.key === "tx.hash" && c.operand.kind === "string") {
        const seq = this.byHash.get(c.operand.text);
        list = seq === undefined ? [] : [seq];
      } else if (c.key === "tx.height") {
        // The parser only lets integer heights through.
        list = this.blockSeqs(BigInt(c.operand.text));
      } else if (c.operand.kind === "string") {
        list = this.live(`${c.key}=${c.operand.text}`) ?? [];
      }
      // A number matches values by their leading number ("5", "5.0", "5uusdc"): no exact index.
      if (list !== undefined && (best === undefined || list.length < best.length)) best = list;
    }
    return best ?? this.indexed.map((_, i) => this.dropped + i);
  }

  /** The live txs of an event key, or undefined when no tx has it. */
  private live(key: string): number[] | undefined {
    const posting = this.eventIndex.get(key);
    return posting === undefined ? undefined : posting.seqs.slice(posting.head);
  }

  /** The sequence numbers of the txs of the block at `height` (none when it is not indexed). */
  private blockSeqs(height: bigint): number[] {
    const block = this.blockAt(height);
    if (block === undefined || this.firstHeight === undefined || height < this.firstHeight) return [];
    const start = this.blockFirstTx[Number(height - this.firstHeight)];
    if (start === undefined) return [];
    return block.txs.map((_, i) => start + i);
  }
}
