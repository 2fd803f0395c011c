/**
 * What the parts of the chain application share: its configuration and modules, the committed
 * store, the block store, and the few values that move between blocks (the app hash, events queued
 * for the next block, the clock offset, the genesis document). Plus the contexts every part builds
 * over them.
 */

import type { AbciEvent } from "../contract.js";
import type { ChainConfig } from "../genesis/genesis.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";
import { EventManager } from "../lib/events.js";
import type { ModuleSet } from "../modules/index.js";
import type { BlockStore } from "./block-store.js";
import { createGasMeter, type GasConfig } from "./gas.js";
import { type BlockInfo, type Context, createContext, type QueryContext } from "./module.js";
import type { StateVersions } from "./state-versions.js";
import { CacheStore, type KvStore, type RootStore } from "./store.js";
import { PrefixStore } from "./store-views.js";

/** The chain application's shared state (see the module comment). */
export interface ChainCore {
  readonly config: ChainConfig;
  readonly set: ModuleSet;
  readonly gasConfig: GasConfig;
  readonly blocks: BlockStore;
  /** The committed state (replaced once, when a snapshot is restored). */
  root: RootStore;
  /** The committed state's recent versions, for queries at a height (`root` reports to it). */
  readonly versions: StateVersions;
  /** The state hash after the latest block (and any control operation since). */
  lastAppHash: Uint8Array;
  /** Events of control operations, emitted at the start of the next block. */
  pendingEvents: AbciEvent[];
  /** Indexer events of genesis and of control operations, for the next block (not persisted). */
  pendingIndexerEvents: IndexerEvent[];
  /** How far `advanceTime` moved the chain's clock, in ms. */
  timeOffsetMs: bigint;
  /** The genesis document, as JSON text (built on its first read). */
  genesisDoc: () => string;
}

/** The block a context runs in. */
export function blockInfo(config: ChainConfig, height: bigint, time: Date): BlockInfo {
  return { chainId: config.chainId, height, time, timeMs: BigInt(time.getTime()) };
}

/** The latest committed block, as contexts see it (CheckTx, simulation and control run there). */
export function latestInfo(core: ChainCore): BlockInfo {
  const latest = core.blocks.latest();
  return blockInfo(core.config, latest.height, latest.time);
}

/**
 * A read-only context over `base` (the committed state by default), at `at` (the latest block by
 * default).
 */
export function queryContext(
  core: ChainCore,
  base: KvStore = core.root,
  at: { readonly height: bigint; readonly time: Date } | undefined = core.blocks.last(),
): QueryContext {
  const block =
    at === undefined
      ? blockInfo(core.config, core.config.initialHeight - 1n, core.config.genesisTime)
      : blockInfo(core.config, at.height, at.time);
  const slices = new Map<string, KvStore>();
  return {
    block,
    store(name) {
      let slice = slices.get(name);
      if (slice === undefined) {
        slice = new PrefixStore(base, `${name}/`);
        slices.set(name, slice);
      }
      return slice;
    },
  };
}

/** A delivery context without a gas limit (genesis, block hooks, proposals, control). */
export function unmeteredContext(
  core: ChainCore,
  block: BlockInfo,
  events: EventManager,
  kv: KvStore,
): Context {
  return createContext({
    mode: "deliver",
    block,
    gasMeter: createGasMeter(undefined),
    gasConfig: core.gasConfig,
    events,
    kv,
  });
}

/**
 * Runs `fn` in an unmetered delivery context over a branch of the committed state at the latest
 * block, then commits the branch; its events are queued for the next block.
 */
export function applyToCommitted<T>(core: ChainCore, fn: (ctx: Context) => T): T {
  const branch = new CacheStore(core.root);
  const events = new EventManager();
  const answer = fn(unmeteredContext(core, latestInfo(core), events, branch));
  branch.write();
  core.pendingEvents.push(...events.events);
  core.pendingIndexerEvents.push(...events.indexerEvents);
  return answer;
}
