/**
 * Binary encoding of blocks, tx results and events for exported state: the snapshot's pending
 * events, and each block on its own (what the `--state` block log appends).
 */

import type { AbciEvent, BlockRecord, TxResult } from "../contract.js";
import type { BlockIndexerEvents } from "../indexer-output/indexer-events.js";
import { decodeIndexerEvents, encodeIndexerEvents } from "../indexer-output/indexer-events-codec.js";
import { type BinaryReader, BinaryWriter } from "./codec.js";

/** Writes events. */
export function writeEvents(w: BinaryWriter, events: readonly AbciEvent[]): void {
  w.uvarint(events.length);
  for (const e of events) {
    w.string(e.type);
    w.uvarint(e.attributes.length);
    for (const a of e.attributes) {
      w.string(a.key);
      w.string(a.value);
      w.bool(a.index);
    }
  }
}

/** Reads events. */
export function readEvents(r: BinaryReader): AbciEvent[] {
  const count = r.uint();
  const events: AbciEvent[] = [];
  for (let i = 0; i < count; i++) {
    const type = r.string();
    const n = r.uint();
    const attributes = [];
    for (let j = 0; j < n; j++) attributes.push({ key: r.string(), value: r.string(), index: r.bool() });
    events.push({ type, attributes });
  }
  return events;
}

function writeResult(w: BinaryWriter, result: TxResult): void {
  w.uvarint(result.code);
  w.string(result.codespace);
  w.string(result.log);
  w.string(result.info);
  w.bytes(result.data);
  w.svarint(result.gasWanted);
  w.svarint(result.gasUsed);
  writeEvents(w, result.events);
}

function readResult(r: BinaryReader): TxResult {
  return {
    code: r.uint(),
    codespace: r.string(),
    log: r.string(),
    info: r.string(),
    data: r.bytes(),
    gasWanted: r.svarint(),
    gasUsed: r.svarint(),
    events: readEvents(r),
  };
}

/** Encodes one block record. */
export function encodeBlock(block: BlockRecord): Uint8Array {
  const w = new BinaryWriter();
  w.uvarint(block.height);
  w.svarint(BigInt(block.time.getTime()));
  w.uvarint(block.timeNanos);
  for (const hash of [
    block.hash,
    block.lastBlockHash,
    block.appHash,
    block.dataHash,
    block.lastResultsHash,
    block.validatorsHash,
    block.proposerAddress,
    block.resultAppHash ?? new Uint8Array(0),
  ]) {
    w.bytes(hash);
  }
  w.uvarint(block.txs.length);
  for (const tx of block.txs) w.bytes(tx);
  for (const result of block.txResults) writeResult(w, result);
  writeEvents(w, block.finalizeBlockEvents);
  // The indexer events (absent from blocks written before they existed).
  for (const result of block.txResults) w.string(encodeIndexerEvents(result.indexerEvents));
  w.string(encodeIndexerEvents(block.indexerEvents?.beginBlock));
  w.string(encodeIndexerEvents(block.indexerEvents?.endBlock));
  return w.finish();
}

/** Decodes one block record. */
export function decodeBlock(r: BinaryReader): BlockRecord {
  const height = r.uvarint();
  const time = new Date(Number(r.svarint()));
  const timeNanos = r.uint();
  const hash = r.bytes();
  const lastBlockHash = r.bytes();
  const appHash = r.bytes();
  const dataHash = r.bytes();
  const lastResultsHash = r.bytes();
  const validatorsHash = r.bytes();
  const proposerAddress = r.bytes();
  const resultAppHash = r.bytes();
  const count = r.uint();
  const txs: Uint8Array[] = [];
  for (let i = 0; i < count; i++) txs.push(r.bytes());
  const txResults: TxResult[] = [];
  for (let i = 0; i < count; i++) txResults.push(readResult(r));
  const finalizeBlockEvents = readEvents(r);
  let indexerEvents: BlockIndexerEvents = { beginBlock: [], endBlock: [] };
  if (!r.done) {
    for (const result of txResults) {
      const events = decodeIndexerEvents(r.string());
      if (events.length > 0) result.indexerEvents = events;
    }
    indexerEvents = {
      beginBlock: decodeIndexerEvents(r.string()),
      endBlock: decodeIndexerEvents(r.string()),
    };
  }
  return {
    height,
    time,
    timeNanos,
    hash,
    lastBlockHash,
    appHash,
    dataHash,
    lastResultsHash,
    validatorsHash,
    proposerAddress,
    resultAppHash,
    txs,
    txResults,
    finalizeBlockEvents,
    indexerEvents,
  };
}
