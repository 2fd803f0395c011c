/**
 * Producing a block: the before-block readers of the committed state, the begin-block hooks (after
 * the events control operations queued), the proposals due at its height, the proposer's tx at
 * its head (`proposer.ts`: the clob's proposed operations), the delivery of its txs in order, the
 * end-block hooks, then the commit of the delivery branch and the block's record (see
 * {@link blockHeader}).
 */

import type { AbciEvent, BlockRecord } from "../contract.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";
import { EventManager, withAttribute } from "../lib/events.js";
import { blockHeader } from "./block-header.js";
import { blockInfo, type ChainCore, queryContext, unmeteredContext } from "./chain-core.js";
import { runProposals } from "./governance.js";
import type { BlockInfo } from "./module.js";
import { proposeAndDeliver } from "./proposer.js";
import { CacheStore } from "./store.js";
import type { DecodedTx } from "./tx.js";
import { runTx } from "./tx-exec.js";

/** The time of the next block for a requested time: shifted by `advanceTime`, and after the latest. */
export function nextBlockTime(core: ChainCore, time: Date): Date {
  const shifted = BigInt(time.getTime()) + core.timeOffsetMs;
  const latest = core.blocks.last();
  const floor = latest === undefined ? shifted : BigInt(latest.time.getTime()) + 1n;
  return new Date(Number(shifted > floor ? shifted : floor));
}

/** Runs every module's begin- or end-block hook in `branch`; their events, tagged with the mode. */
function blockHooks(
  core: ChainCore,
  mode: "BeginBlock" | "EndBlock",
  block: BlockInfo,
  branch: CacheStore,
  indexerEvents: IndexerEvent[],
): AbciEvent[] {
  const out: AbciEvent[] = [];
  for (const module of core.set.modules) {
    const fn = mode === "BeginBlock" ? module.beginBlock : module.endBlock;
    if (fn === undefined) continue;
    const events = new EventManager();
    fn.call(module, unmeteredContext(core, block, events, branch));
    out.push(...withAttribute(events.events, "mode", mode));
    indexerEvents.push(...events.indexerEvents);
  }
  return out;
}

/**
 * Executes and commits the block at `height` and `time` holding `txs`, stores it, and returns its
 * record. `verified` are the signatures CheckTx already verified (delivery skips them); `decode`
 * decodes the signed txs the proposed operations carry (CheckTx's decodings, see
 * `TxPipeline.decodeCarried`).
 */
export function commitBlock(
  core: ChainCore,
  height: bigint,
  time: Date,
  txs: readonly DecodedTx[],
  verified: Set<string>,
  decode: (bytes: Uint8Array) => DecodedTx,
): BlockRecord {
  for (const module of core.set.modules) module.beforeBlock?.(queryContext(core));
  const block = blockInfo(core.config, height, time);
  const branch = new CacheStore(core.root);
  const finalizeBlockEvents: AbciEvent[] = withAttribute(core.pendingEvents, "mode", "BeginBlock");
  core.pendingEvents = [];
  const beginBlock: IndexerEvent[] = core.pendingIndexerEvents;
  core.pendingIndexerEvents = [];
  finalizeBlockEvents.push(...blockHooks(core, "BeginBlock", block, branch, beginBlock));
  const proposalEvents = runProposals(
    branch,
    core.set.router,
    (kv, events) => unmeteredContext(core, block, events, kv),
    height,
    beginBlock,
  );
  finalizeBlockEvents.push(...withAttribute(proposalEvents, "mode", "BeginBlock"));
  const proposed = proposeAndDeliver(core, branch, block, verified, decode);
  const all: ReadonlyArray<{ bytes: Uint8Array; hash: Uint8Array }> = [
    ...(proposed === undefined ? [] : [proposed]),
    ...txs,
  ];
  const txResults = [
    ...(proposed === undefined ? [] : [proposed.result]),
    ...txs.map((tx) => runTx(core, "deliver", tx, branch, block, verified)),
  ];
  const endBlock: IndexerEvent[] = [];
  finalizeBlockEvents.push(...blockHooks(core, "EndBlock", block, branch, endBlock));
  core.versions.amendLatest();
  branch.write();
  core.versions.commit(height);
  const appHashAfter = core.root.hash();
  const header = blockHeader(core.config, {
    height,
    time,
    previous: core.blocks.last(),
    txHashes: all.map((tx) => tx.hash),
    appHash: core.lastAppHash,
  });
  const record: BlockRecord = {
    ...header,
    resultAppHash: appHashAfter,
    txs: all.map((tx) => tx.bytes),
    txResults,
    finalizeBlockEvents,
    indexerEvents: { beginBlock, endBlock },
  };
  core.lastAppHash = appHashAfter;
  core.blocks.add(record);
  return record;
}
