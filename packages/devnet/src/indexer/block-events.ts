/**
 * The indexer's view of a committed block: its indexer events in order, each located (height,
 * time, tx hash and index, event index), read from the block record the chain application
 * publishes (`BlockRecord.indexerEvents` and each `TxResult.indexerEvents`).
 */

import type { BlockRecord } from "../app/contract.js";
import type { IndexerEvent, LocatedIndexerEvent } from "../app/indexer-output/indexer-events.js";
import { sha256 } from "../app/lib/sha256.js";

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}

/**
 * Every indexer event of `block`, in the order the chain applied them: block-level events before
 * the txs, each delivered tx's events, then the end-block events.
 */
export function locateBlockEvents(block: BlockRecord): LocatedIndexerEvent[] {
  const out: LocatedIndexerEvent[] = [];
  const { height, time } = block;
  // Two literal shapes (block-level, in a tx), the keys in this order.
  const pushBlockLevel = (event: IndexerEvent) => {
    out.push({ height, time, eventIndex: out.length, event });
  };
  for (const event of block.indexerEvents?.beginBlock ?? []) pushBlockLevel(event);
  block.txResults.forEach((result, txIndex) => {
    const events = result.indexerEvents;
    if (events === undefined || events.length === 0) return;
    const bytes = block.txs[txIndex];
    const txHash = bytes === undefined ? "" : hex(sha256(bytes));
    for (const event of events) out.push({ height, time, txIndex, txHash, eventIndex: out.length, event });
  });
  for (const event of block.indexerEvents?.endBlock ?? []) pushBlockLevel(event);
  return out;
}

/**
 * The reference's event id of a located event: height, tx index and event index as three
 * big-endian uint32, in hex (block-level events use tx index 0xffffffff).
 */
export function eventIdHex(located: LocatedIndexerEvent): string {
  const part = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return `${part(Number(located.height))}${part(located.txIndex ?? 0xffffffff)}${part(located.eventIndex)}`;
}
