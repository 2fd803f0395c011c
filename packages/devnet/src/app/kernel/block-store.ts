/**
 * The committed blocks, by height, and the index of their txs (see {@link TxIndex}). Blocks are
 * added in height order, each once.
 *
 * Pruning, as a real node's block retention: only the latest `keepRecent` blocks (and their txs in
 * the index) stay in memory. An older block is read back from the {@link BlockArchive} when there is
 * one (the devnet's block log with `--state DIR`), and is gone otherwise: {@link BlockStore.base} is
 * then the lowest height still served, as CometBFT's block store base.
 */
import { DevnetError } from "../../devnet-error.js";
import type { AbciEvent, BlockArchive, BlockRecord } from "../contract.js";
import { decodeBlock } from "../lib/block-codec.js";
import { BinaryReader } from "../lib/codec.js";
import { TxIndex } from "./tx-index.js";

/**
 * A copy of `text` that holds no other string: V8 represents a concatenation as a tree of its
 * parts and a substring as a view of its parent, and either keeps those alive as long as it lives.
 * Strings under 13 characters are always flat.
 */
export function flatString(text: string): string {
  if (text.length < 13) return text;
  const copy = Buffer.from(text, "utf8").toString("utf8");
  // A lone surrogate does not survive UTF-8: such a (rare) string is copied by the serializer.
  return copy === text ? copy : structuredClone(text);
}

/**
 * The flat copy of `text` made for an equal string before (in `copies`), else a new one (see
 * {@link flatString}): a block's events repeat their types, keys, addresses and denoms, each
 * copied once. Looking a string up flattens it only as far as hashing it needs, nothing is kept.
 */
function flatCopy(text: string, copies: Map<string, string>): string {
  if (text.length < 13) return text;
  let copy = copies.get(text);
  if (copy === undefined) {
    copy = flatString(text);
    copies.set(copy, copy);
  }
  return copy;
}

/** Replaces every string of `events` by a flat copy (see {@link flatCopy}), in place. */
function flattenEvents(events: readonly AbciEvent[], copies: Map<string, string>): void {
  for (const e of events) {
    e.type = flatCopy(e.type, copies);
    for (const a of e.attributes) {
      a.key = flatCopy(a.key, copies);
      a.value = flatCopy(a.value, copies);
    }
  }
}

/** The committed blocks and their tx index (see the module comment). */
export class BlockStore {
  /** The blocks kept in memory: the latest ones, in height order. */
  private readonly recent: BlockRecord[] = [];
  /** The height of the first block ever added (the chain's first height). */
  private first: bigint | undefined;
  private total = 0;
  /** The txs of the blocks in memory, by hash and by event. */
  readonly txs = new TxIndex((height) => this.inMemory(height));

  /**
   * @param keepRecent - how many of the latest blocks stay in memory; 0 keeps every block.
   * @param archive - where pruned blocks are read back from; without it they are dropped.
   */
  constructor(
    private readonly keepRecent = 0,
    private readonly archive?: BlockArchive,
  ) {
    if (!Number.isSafeInteger(keepRecent) || keepRecent < 0) {
      throw new DevnetError(
        "out-of-range",
        `pruning.keepRecent must be a non-negative integer, got ${keepRecent}`,
      );
    }
  }

  /** Number of blocks of the chain (in memory or not). */
  get count(): number {
    return this.total;
  }

  /**
   * Declares the chain's earlier blocks: a chain resumed from its latest blocks (the ones to keep
   * in memory) says here how many came before them. Only before the first {@link add}.
   */
  skip(firstHeight: bigint, count: number): void {
    if (this.total !== 0)
      throw new DevnetError("invalid-argument", "blocks can only be skipped before the first is added");
    this.first = firstHeight;
    this.total = count;
  }

  /** Stores a committed block (the next height), indexes its txs, and prunes the oldest in memory. */
  add(record: BlockRecord): void {
    const expected = this.first === undefined ? undefined : this.first + BigInt(this.total);
    if (expected !== undefined && record.height !== expected) {
      throw new DevnetError(
        "invalid-argument",
        `block at height ${record.height} added, but the next height is ${expected}`,
      );
    }
    this.first ??= record.height;
    const copies = new Map<string, string>();
    flattenEvents(record.finalizeBlockEvents, copies);
    for (const result of record.txResults) flattenEvents(result.events, copies);
    this.recent.push(record);
    this.total++;
    this.txs.addBlock(record);
    if (this.keepRecent > 0) {
      while (this.recent.length > this.keepRecent) {
        const pruned = this.recent.shift() as BlockRecord;
        this.txs.pruneBlock(pruned);
      }
    }
  }

  /** The latest block, or undefined before genesis. */
  last(): BlockRecord | undefined {
    return this.recent.at(-1);
  }

  /** The latest block; throws before genesis. */
  latest(): BlockRecord {
    const latest = this.recent.at(-1);
    if (latest === undefined) throw new DevnetError("no-block", "no block yet");
    return latest;
  }

  /**
   * The lowest height whose block is served: the chain's first height when nothing was pruned or
   * pruned blocks are archived, else the oldest block in memory.
   */
  base(): bigint | undefined {
    if (this.archive !== undefined) return this.first;
    return this.recent[0]?.height ?? this.first;
  }

  /** The block at `height`, from memory or the archive; undefined out of range or pruned. */
  at(height: bigint): BlockRecord | undefined {
    const inMemory = this.inMemory(height);
    if (inMemory !== undefined || this.archive === undefined || this.first === undefined) return inMemory;
    const oldest = this.recent[0]?.height;
    if (height < this.first || (oldest !== undefined && height >= oldest)) return undefined;
    const bytes = this.archive.readBlock(Number(height - this.first));
    if (bytes === undefined) return undefined;
    const record = decodeBlock(new BinaryReader(bytes));
    if (record.height !== height) {
      throw new DevnetError(
        "malformed",
        `the block archive holds height ${record.height} where ${height} belongs`,
      );
    }
    return record;
  }

  /** The block at `height` if it is in memory. */
  private inMemory(height: bigint): BlockRecord | undefined {
    const oldest = this.recent[0];
    if (oldest === undefined || height < oldest.height) return undefined;
    return this.recent[Number(height - oldest.height)];
  }
}
