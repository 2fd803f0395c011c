/**
 * The committed blocks, by height, and the index of their txs (see {@link TxIndex}). Blocks are
 * added in height order, each once.
 */
import { DevnetError } from "../devnet-error.js";
import type { BlockRecord } from "./contract.js";
import { TxIndex } from "./tx-index.js";

/** The committed blocks and their tx index. */
export class BlockStore {
  private readonly blocks: BlockRecord[] = [];
  /** The txs of the stored blocks, by hash and by event. */
  readonly txs = new TxIndex((height) => this.at(height));

  /** Number of stored blocks. */
  get count(): number {
    return this.blocks.length;
  }

  /** Stores a committed block (the next height) and indexes its txs. */
  add(record: BlockRecord): void {
    this.blocks.push(record);
    this.txs.addBlock(record);
  }

  /** The latest block, or undefined before genesis. */
  last(): BlockRecord | undefined {
    return this.blocks.at(-1);
  }

  /** The latest block; throws before genesis. */
  latest(): BlockRecord {
    const latest = this.blocks.at(-1);
    if (latest === undefined) throw new DevnetError("no-block", "no block yet");
    return latest;
  }

  /** The block at `height`, or undefined out of range. */
  at(height: bigint): BlockRecord | undefined {
    const first = this.blocks[0];
    if (first === undefined || height < first.height) return undefined;
    return this.blocks[Number(height - first.height)];
  }
}
