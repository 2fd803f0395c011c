/**
 * The devnet's chain application: implements {@link CreateChainApp} / {@link PersistentChainApp}.
 * Deterministic: the same calls give the same blocks, hashes and exported bytes; time only enters
 * through `produceBlock` (and `control.advanceTime`).
 *
 * A thin composition of parts with one job each:
 * - {@link ChainCore} (`chain-core.ts`): the shared state: the committed {@link RootStore} (with the
 *   modules' volatile keys beside it: in memory only, see `Module.volatileKey`), the blocks, the
 *   app hash, events queued for the next block;
 * - {@link TxPipeline} (`tx-pipeline.ts`): CheckTx against a pending branch (ante effects of queued
 *   txs: sequences, nonces, fees), the mempool, simulation; `tx-exec.ts` runs one tx (an ante
 *   branch and a message branch, dropped when a message fails, so fees and sequence stick);
 * - `block-production.ts`: a block's hooks, proposals and txs in a delivery branch, then its commit
 *   (`block-header.ts`: its hashes);
 * - {@link BlockStore} (`block-store.ts`) and its `TxIndex` (`tx-index.ts`): committed blocks, txs
 *   by hash, tx search;
 * - `snapshot.ts` (export/restore), `chain-genesis.ts`, `app-queries.ts`, `app-control.ts`.
 */

import type {
  BlockListener,
  BlockRecord,
  ChainAppOptions,
  ChainControl,
  ChainInfo,
  CreateChainApp,
  IndexedTx,
  OrderStreamListener,
  PersistentChainApp,
  PruningOptions,
  QueryResult,
  SignatureCheck,
  SimulateResult,
  TxResult,
} from "./contract.js";
import { createForkModule, FORK_MONIKER, forkChainConfig } from "./genesis/fork-state.js";
import { type ChainConfig, COMET_VERSION, chainConfig, MONIKER } from "./genesis/genesis.js";
import { createChainControl } from "./kernel/app-control.js";
import { answerQuery } from "./kernel/app-queries.js";
import { commitBlock, nextBlockTime } from "./kernel/block-production.js";
import { BlockStore } from "./kernel/block-store.js";
import type { ChainCore } from "./kernel/chain-core.js";
import { initGenesis } from "./kernel/chain-genesis.js";
import { defaultGasConfig, type GasConfig } from "./kernel/gas.js";
import type { Module } from "./kernel/module.js";
import { runAfterCommit } from "./kernel/proposer.js";
import { registerServices } from "./kernel/services.js";
import { readSnapshotHeader, restoreSnapshot, writeSnapshot } from "./kernel/snapshot.js";
import { StateVersions } from "./kernel/state-versions.js";
import { RootStore } from "./kernel/store.js";
import { TxPipeline } from "./kernel/tx-pipeline.js";
import { signatureRequest } from "./kernel/tx-prepare.js";
import { volatileKeys } from "./kernel/volatile-keys.js";
import { encodeBlock } from "./lib/block-codec.js";
import { BinaryReader } from "./lib/codec.js";
import { recordNativeVerdict } from "./lib/crypto.js";
import { drainOrderStream } from "./modules/clob/stream.js";
import { buildModules, type Keepers } from "./modules/index.js";

/** Options beyond the contract's, for tests, benchmarks and module development. */
export interface ChainAppExtraOptions {
  /** The gas schedule. @default defaultGasConfig */
  gasConfig?: GasConfig;
  /**
   * Modules appended to the chain's own (after them in genesis and block-hook order), built from
   * the chain's keepers. For testing a module before it joins `modules/index.ts`. @default none
   */
  extraModules?: (keepers: Keepers) => readonly Module[];
}

/** Blocks kept in memory by default (see {@link PruningOptions}). */
export const DEFAULT_KEEP_RECENT = 1000;

/** What the node reports about itself for a chain configuration. */
function chainInfo(config: ChainConfig, moniker: string): ChainInfo {
  const validator = config.validator;
  return {
    chainId: config.chainId,
    evmChainId: config.evmChainId,
    appVersion: config.appVersion,
    cometVersion: COMET_VERSION,
    nodeId: config.nodeId,
    moniker,
    upgrades: config.upgrades,
    initialHeight: config.initialHeight,
    minimumGasPrices: config.minGasPricesText,
    validator: {
      address: validator.address,
      pubKey: validator.publicKey,
      votingPower: config.validatorPower,
      operatorAddress: config.operatorAddress,
      moniker,
    },
  };
}

/** The chain application (see the module comment). Build it with {@link createChainApp}. */
export class ChainApplication implements PersistentChainApp {
  readonly info: ChainInfo;
  readonly control: ChainControl;
  /** The chain's configuration (genesis, validator, profile). */
  readonly config: ChainConfig;
  private readonly core: ChainCore;
  private readonly pipeline: TxPipeline;
  private readonly listeners = new Set<BlockListener>();
  private readonly streamListeners = new Set<OrderStreamListener>();

  private constructor(
    options: ChainAppOptions,
    extra: ChainAppExtraOptions,
    snapshot: BinaryReader | undefined,
  ) {
    const genesisTime =
      snapshot === undefined ? options.genesisTime : readSnapshotHeader(snapshot, options.profile);
    // A resumed chain's markets and subaccounts are in its state: genesis does not run again.
    const base = chainConfig(
      options.profile,
      genesisTime,
      snapshot === undefined
        ? {
            ...(options.markets === undefined ? {} : { markets: options.markets }),
            ...(options.fundedSubaccounts === undefined
              ? {}
              : { fundedSubaccounts: options.fundedSubaccounts }),
            ...(options.rewardsFeeMultiplierPpm === undefined
              ? {}
              : { rewardsFeeMultiplierPpm: options.rewardsFeeMultiplierPpm }),
          }
        : {},
    );
    // A fork's identity and markets are the live network's (its state comes from `options.fork`).
    const fork = options.fork;
    this.config = fork === undefined ? base : forkChainConfig(base, fork);
    const set = buildModules(
      this.config,
      fork === undefined
        ? extra.extraModules
        : (keepers) => [...(extra.extraModules?.(keepers) ?? []), createForkModule(fork, keepers)],
    );
    const keepRecent = options.pruning?.keepRecent ?? DEFAULT_KEEP_RECENT;
    const blocks = new BlockStore(keepRecent, options.archive);
    const versions = new StateVersions(keepRecent);
    const root = new RootStore(volatileKeys(set.modules));
    root.track(versions);
    this.core = {
      config: this.config,
      set,
      gasConfig: extra.gasConfig ?? defaultGasConfig,
      blocks,
      root,
      versions,
      lastAppHash: new Uint8Array(0),
      pendingEvents: [],
      pendingIndexerEvents: [],
      timeOffsetMs: 0n,
      genesisDoc: () => "",
    };
    registerServices(set.router, this);
    this.info = chainInfo(this.config, fork === undefined ? MONIKER : (fork.moniker ?? FORK_MONIKER));
    this.control = createChainControl(this.core, () => this.afterControl());
    this.pipeline = new TxPipeline(this.core);
    if (snapshot === undefined || options.state === undefined) {
      initGenesis(this.core);
      this.pipeline.reset();
      this.commit(this.config.initialHeight, this.config.genesisTime);
    } else {
      restoreSnapshot(this.core, snapshot, options.state);
      this.pipeline.reset();
    }
  }

  /** Builds the application from genesis, or resumes it from `options.state`. */
  static create(options: ChainAppOptions, extra: ChainAppExtraOptions = {}): ChainApplication {
    return new ChainApplication(
      options,
      extra,
      options.state === undefined ? undefined : new BinaryReader(options.state.snapshot),
    );
  }

  /**
   * Every bit of state needed to resume after the latest block except the blocks themselves, as
   * deterministic bytes (see {@link PersistentChainApp.exportSnapshot}); volatile keys (a real
   * node's in-memory state, such as short-term orders) are not in it.
   */
  exportSnapshot(): Uint8Array {
    return writeSnapshot(this.core);
  }

  /** The committed block at `height`, encoded (see {@link PersistentChainApp.exportBlock}). */
  exportBlock(height: bigint): Uint8Array | undefined {
    const record = this.block(height);
    return record === undefined ? undefined : encodeBlock(record);
  }

  checkTx(tx: Uint8Array): TxResult {
    const result = this.pipeline.checkTx(tx);
    this.publishOrderStream();
    return result;
  }

  /** Verifies the signature of `tx` through `verify` ahead of its CheckTx (see `ChainApp.prepareTx`). */
  prepareTx(tx: Uint8Array, verify: SignatureCheck): Promise<void> | undefined {
    const request = signatureRequest(tx, this.config.chainId, this.core.set.keepers.auth, () =>
      this.pipeline.pendingReads(),
    );
    if (request === undefined) return undefined;
    const { key, signBytes, signature } = request;
    return verify(key, signBytes, signature).then((ok) => {
      if (ok) recordNativeVerdict(key, signBytes, signature);
    });
  }

  /** Whether the tx of SHA-256 `hash` is in the mempool cache (see `ChainApp.inTxCache`). */
  inTxCache(hash: Uint8Array): boolean {
    return this.pipeline.inCache(hash);
  }

  pendingTxCount(): number {
    return this.pipeline.pendingCount();
  }

  simulate(tx: Uint8Array): SimulateResult {
    return this.pipeline.simulate(tx);
  }

  produceBlock(time: Date): BlockRecord {
    const latest = this.latestBlock();
    return this.commit(latest.height + 1n, nextBlockTime(this.core, time));
  }

  /** Executes the queued txs in the block at `height`, commits it, and tells the listeners. */
  private commit(height: bigint, time: Date): BlockRecord {
    const record = commitBlock(
      this.core,
      height,
      time,
      this.pipeline.queued(),
      this.pipeline.verified,
      (bytes) => this.pipeline.decodeCarried(bytes),
    );
    const committedAt = performance.timeOrigin + performance.now();
    this.pipeline.committed(record.txResults);
    runAfterCommit(this.core, () => this.pipeline.checkContext());
    this.publishOrderStream();
    for (const listener of this.listeners) {
      try {
        listener(record, committedAt);
      } catch {
        // A listener's failure must not break the chain; listeners report their own errors.
      }
    }
    return record;
  }

  latestBlock(): BlockRecord {
    return this.core.blocks.latest();
  }

  block(height: bigint): BlockRecord | undefined {
    return this.core.blocks.at(height);
  }

  baseHeight(): bigint {
    return this.core.blocks.base() ?? this.config.initialHeight;
  }

  /** The state hash after the latest block (and any control operation since). */
  appHash(): Uint8Array {
    return this.core.lastAppHash;
  }

  tx(hash: Uint8Array): IndexedTx | undefined {
    return this.core.blocks.txs.byTxHash(hash);
  }

  /**
   * Txs matching a CometBFT query, by height then index (or the reverse).
   *
   * @throws {QuerySyntaxError} for a query that does not parse.
   */
  searchTxs(query: string, order: "asc" | "desc"): IndexedTx[] {
    return this.core.blocks.txs.search(query, order);
  }

  onBlock(listener: BlockListener): () => void {
    const wrapped: BlockListener = (block, committedAt) => listener(block, committedAt);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  onOrderStream(listener: OrderStreamListener): () => void {
    const wrapped: OrderStreamListener = (messages) => listener(messages);
    this.streamListeners.add(wrapped);
    return () => {
      this.streamListeners.delete(wrapped);
    };
  }

  /** Hands the order stream messages written since the last call to the listeners. */
  private publishOrderStream(): void {
    const messages = drainOrderStream(this.core.root, "clob/");
    if (messages.length === 0) return;
    for (const listener of this.streamListeners) {
      try {
        listener(messages);
      } catch {
        // A listener's failure must not break the chain; listeners report their own errors.
      }
    }
  }

  genesisJson(): unknown {
    return JSON.parse(this.core.genesisDoc());
  }

  query(path: string, data: Uint8Array, height?: bigint): QueryResult {
    return answerQuery(this.core, (tx) => this.simulate(tx), path, data, height);
  }

  /** After a control operation: the state hash moves, and queued txs are re-checked on the new state. */
  private afterControl(): void {
    this.core.lastAppHash = this.core.root.hash();
    this.pipeline.recheck();
  }
}

/**
 * Builds the devnet's chain application, from genesis or from exported state. With `state`, the
 * profile must be the one the state was written with, and the genesis time comes from the state.
 *
 * @param options - the profile and genesis time; markets, funded subaccounts and the rewards
 *   multiplier at genesis; or the exported `state` to resume from; block pruning and archive.
 * @returns the application at its genesis block (or at the exported state's last block), ready to
 *   produce blocks, answer queries and export its state.
 * @throws {Error} when `state` is not a devnet state, or of another profile.
 *
 * @example
 * ```ts
 * const app = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
 * app.latestBlock().height; // 1n
 * ```
 */
export const createChainApp: CreateChainApp = (options) => ChainApplication.create(options);
