/**
 * The devnet's chain application: implements {@link CreateChainApp} / {@link PersistentChainApp}.
 * Deterministic: the same calls give the same blocks, hashes and exported bytes; time only enters
 * through `produceBlock` (and `control.advanceTime`).
 *
 * State layers: the committed {@link RootStore} (with the modules' volatile keys beside it: in
 * memory only, see `Module.volatileKey`); a pending branch for CheckTx (ante effects of
 * queued txs: sequences, nonces, fees); per block a delivery branch; per tx an ante branch and a
 * message branch (dropped when a message fails, so fees and sequence stick but nothing else does).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytes } from "@perpx/address";
import { cosmosAbci, cosmosTx, tendermintAbci } from "@perpx/proto";
import { runAnte } from "./ante.js";
import { decodeBlock, encodeBlock, readEvents, writeEvents } from "./block-codec.js";
import { BinaryReader, BinaryWriter, concatBytes, encodeU64, toHex, utf8 } from "./codec.js";
import { type Coin, coinsToString, validateCoins } from "./coins.js";
import type {
  AbciEvent,
  BlockListener,
  BlockRecord,
  ChainAppOptions,
  ChainControl,
  ChainInfo,
  ChainState,
  CreateChainApp,
  DevnetProfile,
  IndexedTx,
  OraclePriceSet,
  OrderStreamListener,
  PersistentChainApp,
  QueryResult,
  SimulateResult,
  TxResult,
} from "./contract.js";
import { AbciError, abciError, sdkErrors, toAbciError } from "./errors.js";
import { EventManager, event, moduleNameOfTypeUrl, withAttribute } from "./events.js";
import { createGasMeter, defaultGasConfig, type GasConfig, OutOfGasError } from "./gas.js";
import { type ChainConfig, COMET_VERSION, chainConfig, MONIKER } from "./genesis.js";
import { proposalResult, queueProposal, runProposals } from "./governance.js";
import { merkleRoot } from "./merkle.js";
import {
  type BlockInfo,
  createContext,
  type ExecMode,
  type Module,
  type QueryContext,
  type TxPolicy,
  volatileKeys,
} from "./module.js";
import { drainOrderStream } from "./modules/clob/stream.js";
import { buildModules, type Keepers, type ModuleSet } from "./modules/index.js";
import { parseQuery, type QueryCondition, txMatches } from "./search.js";
import { registerServices } from "./services.js";
import { CacheStore, GasStore, type KvStore, PendingStore, PrefixStore, RootStore } from "./store.js";
import { type DecodedTx, decodeTx } from "./tx.js";

/** Largest tx accepted by CheckTx (CometBFT's default `max_tx_bytes`). */
export const MAX_TX_BYTES = 1_048_576;

const SNAPSHOT_MAGIC = "perpx-devnet-snapshot";
const SNAPSHOT_VERSION = 1;
const EMPTY = new Uint8Array(0);

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

function upperHex(bytes: Uint8Array): string {
  return toHex(bytes).toUpperCase();
}

function resultsHash(results: readonly TxResult[]): Uint8Array {
  return merkleRoot(
    results.map((r) =>
      toBinary(
        tendermintAbci.ExecTxResultSchema,
        create(tendermintAbci.ExecTxResultSchema, {
          code: r.code,
          data: r.data,
          gasWanted: r.gasWanted,
          gasUsed: r.gasUsed,
        }),
      ),
    ),
  );
}

/** The chain application (see the module comment). Build it with {@link createChainApp}. */
export class ChainApplication implements PersistentChainApp {
  readonly info: ChainInfo;
  readonly control: ChainControl;
  /** The chain's configuration (genesis, validator, profile). */
  readonly config: ChainConfig;
  private readonly set: ModuleSet;
  private readonly gasConfig: GasConfig;
  private root: RootStore;
  /** The CheckTx state (memclob keys written through to `root`, see {@link PendingStore}). */
  private pending: CacheStore;
  private mempool: DecodedTx[] = [];
  private readonly mempoolHashes = new Set<string>();
  private readonly blocks: BlockRecord[] = [];
  private readonly indexed: IndexedTx[] = [];
  private readonly indexedHex: string[] = [];
  private readonly txByHash = new Map<string, number>();
  private readonly eventIndex = new Map<string, number[]>();
  /** Txs (positions in `indexed`) below this one are in `eventIndex`. */
  private eventIndexed = 0;
  private readonly blockFirstTx: number[] = [];
  private readonly listeners = new Set<BlockListener>();
  private readonly streamListeners = new Set<OrderStreamListener>();
  private timeOffsetMs = 0n;
  private lastAppHash: Uint8Array = EMPTY;
  private pendingEvents: AbciEvent[] = [];
  private genesisDoc = "";
  /** Signatures verified by CheckTx since the last block (see `AnteDeps.verified`). */
  private readonly verified = new Set<string>();

  private constructor(
    options: ChainAppOptions,
    extra: ChainAppExtraOptions,
    snapshot: BinaryReader | undefined,
  ) {
    let genesisTime = options.genesisTime;
    if (snapshot !== undefined) {
      let header: [string, number] | undefined;
      try {
        header = [snapshot.string(), snapshot.uint()];
      } catch {
        // Not even a header: reported below like any other foreign bytes.
      }
      if (header?.[0] !== SNAPSHOT_MAGIC || header[1] !== SNAPSHOT_VERSION) {
        throw new Error("not a perpx devnet snapshot (or of another version)");
      }
      const profile = snapshot.string() as DevnetProfile;
      if (profile !== options.profile) {
        throw new Error(`the state is of profile "${profile}", not "${options.profile}"`);
      }
      genesisTime = new Date(Number(snapshot.svarint()));
    }
    this.config = chainConfig(options.profile, genesisTime);
    this.gasConfig = extra.gasConfig ?? defaultGasConfig;
    this.set = buildModules(this.config, extra.extraModules);
    this.root = new RootStore(volatileKeys(this.set.modules));
    registerServices(this.set.router, this);
    const validator = this.config.validator;
    this.info = {
      chainId: this.config.chainId,
      evmChainId: this.config.evmChainId,
      appVersion: this.config.appVersion,
      cometVersion: COMET_VERSION,
      nodeId: this.config.nodeId,
      moniker: MONIKER,
      upgrades: this.config.upgrades,
      initialHeight: this.config.initialHeight,
      minimumGasPrices: this.config.minGasPricesText,
      validator: {
        address: validator.address,
        pubKey: validator.publicKey,
        votingPower: this.config.validatorPower,
        operatorAddress: this.config.operatorAddress,
        moniker: MONIKER,
      },
    };
    this.control = {
      fund: (address, coins) => this.fund(address, coins),
      advanceTime: (ms) => this.advanceTime(ms),
      submitProposal: (messages) => this.submitProposal(messages),
      proposal: (id) => proposalResult(this.root, id),
      moduleControl: (module, operation, request) => this.moduleControl(module, operation, request),
      setOraclePrice: (market, price) =>
        this.moduleControl("prices", "set-price", { market, price }) as OraclePriceSet,
      setOracleWalk: (enabled) => {
        this.moduleControl("prices", "set-walk", { enabled });
      },
      fundSubaccount: (owner, number, quantums) => {
        this.moduleControl("subaccounts", "fund", { owner, number, quantums: quantums.toString() });
      },
    };
    this.pending = this.newPending();
    if (snapshot === undefined || options.state === undefined) this.initChain();
    else this.restore(snapshot, options.state);
  }

  private newPending(): CacheStore {
    return new PendingStore(this.root, volatileKeys(this.set.modules));
  }

  /** Builds the application from genesis, or resumes it from `options.state`. */
  static create(options: ChainAppOptions, extra: ChainAppExtraOptions = {}): ChainApplication {
    return new ChainApplication(
      options,
      extra,
      options.state === undefined ? undefined : new BinaryReader(options.state.snapshot),
    );
  }

  // ---------------------------------------------------------------- genesis and restore

  private initChain(): void {
    const branch = new CacheStore(this.root);
    const ctx = createContext({
      mode: "deliver",
      block: this.blockInfo(this.config.initialHeight - 1n, this.config.genesisTime),
      gasMeter: createGasMeter(undefined),
      gasConfig: this.gasConfig,
      events: new EventManager(),
      kv: branch,
    });
    for (const module of this.set.modules) module.initGenesis?.(ctx);
    branch.write();
    this.lastAppHash = this.root.hash();
    this.genesisDoc = JSON.stringify(this.buildGenesisDoc());
    this.pending = this.newPending();
    this.commitBlock(this.config.initialHeight, this.config.genesisTime);
  }

  private buildGenesisDoc(): unknown {
    const ctx = this.queryContext();
    const appState: Record<string, unknown> = {};
    for (const module of this.set.modules) {
      if (module.exportGenesis !== undefined) appState[module.name] = module.exportGenesis(ctx);
    }
    const v = this.config.validator;
    return {
      genesis_time: formatTime(this.config.genesisTime),
      chain_id: this.config.chainId,
      initial_height: this.config.initialHeight.toString(),
      consensus_params: {
        block: { max_bytes: "22020096", max_gas: "-1" },
        evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
        validator: { pub_key_types: ["ed25519"] },
        version: { app: "0" },
        abci: { vote_extensions_enable_height: "0" },
      },
      validators: [
        {
          address: upperHex(v.address),
          pub_key: { type: "tendermint/PubKeyEd25519", value: Buffer.from(v.publicKey).toString("base64") },
          power: this.config.validatorPower.toString(),
          name: MONIKER,
        },
      ],
      app_hash: "",
      app_state: appState,
    };
  }

  /** Resumes from a snapshot (its header already read) and the blocks it follows. */
  private restore(r: BinaryReader, state: ChainState): void {
    const count = r.uint();
    if (state.blocks.length !== count) {
      throw new Error(`the snapshot follows ${count} blocks, but ${state.blocks.length} were given`);
    }
    this.timeOffsetMs = r.svarint();
    this.lastAppHash = r.bytes().slice();
    this.genesisDoc = r.string();
    this.pendingEvents = readEvents(r);
    this.root = RootStore.readFrom(r, volatileKeys(this.set.modules));
    this.pending = this.newPending();
    let height = this.config.initialHeight;
    for (const chunk of state.blocks) {
      const record = decodeBlock(new BinaryReader(chunk));
      if (record.height !== height) {
        throw new Error(
          `block ${this.blocks.length} of the state is at height ${record.height}, not ${height}`,
        );
      }
      this.addBlock(record);
      height++;
    }
    if (this.blocks.length === 0) throw new Error("the state holds no block");
    const ctx = this.queryContext();
    for (const module of this.set.modules) module.afterRestore?.(ctx);
  }

  /**
   * Every bit of state needed to resume after the latest block except the blocks themselves, as
   * deterministic bytes (see {@link PersistentChainApp.exportSnapshot}); volatile keys (a real
   * node's in-memory state, such as short-term orders) are not in it.
   */
  exportSnapshot(): Uint8Array {
    const w = new BinaryWriter();
    w.string(SNAPSHOT_MAGIC).uvarint(SNAPSHOT_VERSION).string(this.config.profile);
    w.svarint(BigInt(this.config.genesisTime.getTime()));
    w.uvarint(this.blocks.length);
    w.svarint(this.timeOffsetMs);
    w.bytes(this.lastAppHash);
    w.string(this.genesisDoc);
    writeEvents(w, this.pendingEvents);
    this.root.writeTo(w);
    return w.finish();
  }

  /** The committed block at `height`, encoded (see {@link PersistentChainApp.exportBlock}). */
  exportBlock(height: bigint): Uint8Array | undefined {
    const record = this.block(height);
    return record === undefined ? undefined : encodeBlock(record);
  }

  // ---------------------------------------------------------------- contexts

  private blockInfo(height: bigint, time: Date): BlockInfo {
    return { chainId: this.config.chainId, height, time, timeMs: BigInt(time.getTime()) };
  }

  private latestInfo(): BlockInfo {
    const latest = this.latestBlock();
    return this.blockInfo(latest.height, latest.time);
  }

  private queryContext(base: KvStore = this.root): QueryContext {
    const latest = this.blocks.at(-1);
    const block =
      latest === undefined
        ? this.blockInfo(this.config.initialHeight - 1n, this.config.genesisTime)
        : this.blockInfo(latest.height, latest.time);
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

  // ---------------------------------------------------------------- txs

  private failure(
    error: unknown,
    gasWanted: bigint,
    gasUsed: bigint,
    events: readonly AbciEvent[],
  ): TxResult {
    const e = toAbciError(error);
    const log =
      error instanceof OutOfGasError
        ? `${error.message}; gasWanted: ${gasWanted}, gasUsed: ${gasUsed}: out of gas`
        : e.log;
    return {
      code: e.code,
      codespace: e.codespace,
      log,
      info: "",
      data: EMPTY,
      gasWanted,
      gasUsed,
      events: [...events],
    };
  }

  private policyOf(tx: DecodedTx): TxPolicy {
    return this.set.router.txPolicy(
      tx.msgs.map((m) => m.typeUrl),
      tx.msgs.map((m) => m.msg),
    );
  }

  private runTx(mode: ExecMode, tx: DecodedTx, base: KvStore, block: BlockInfo): TxResult {
    const policy = this.policyOf(tx);
    const meter = createGasMeter(mode === "simulate" || !policy.meterGas ? undefined : tx.gasLimit);
    const gasWanted = tx.gasLimit;
    const txBranch = new CacheStore(base);
    const anteEvents = new EventManager();
    try {
      for (const m of tx.msgs) m.handler.validate?.(m.msg);
      const anteCtx = createContext({
        mode,
        block,
        gasMeter: meter,
        gasConfig: this.gasConfig,
        events: anteEvents,
        kv: txBranch,
      });
      runAnte(anteCtx, tx, policy, {
        ...this.set.keepers,
        minGasPrices: this.config.minGasPrices,
        verified: this.verified,
        authenticateSigner: (ctx, signer) => this.set.router.authenticateSigner(ctx, signer),
      });
    } catch (error) {
      return this.failure(error, gasWanted, meter.consumed, []);
    }
    if (mode === "check" && !policy.checkRunsMessages) {
      txBranch.write();
      return {
        code: 0,
        codespace: "",
        log: "",
        info: "",
        data: EMPTY,
        gasWanted,
        gasUsed: meter.consumed,
        events: [...anteEvents.events],
      };
    }
    const msgBranch = new CacheStore(txBranch);
    const metered = new GasStore(msgBranch, meter, this.gasConfig);
    const events: AbciEvent[] = [...anteEvents.events];
    const responses: Any[] = [];
    try {
      tx.msgs.forEach((m, i) => {
        const msgEvents = new EventManager();
        const ctx = createContext({
          mode,
          block,
          gasMeter: meter,
          gasConfig: this.gasConfig,
          events: msgEvents,
          kv: metered,
          txBytes: tx.bytes,
        });
        let response: Any;
        try {
          response = m.handler.execute(ctx, m.msg);
        } catch (error) {
          if (error instanceof OutOfGasError) throw error;
          throw toAbciError(error).wrap(`failed to execute message; message index: ${i}`);
        }
        const attributes: [string, string][] = [["action", m.typeUrl]];
        const signer = m.signers[0];
        if (signer !== undefined) attributes.push(["sender", signer]);
        attributes.push(["module", moduleNameOfTypeUrl(m.typeUrl)]);
        events.push(
          ...withAttribute([event("message", attributes), ...msgEvents.events], "msg_index", String(i)),
        );
        responses.push(response);
      });
    } catch (error) {
      if (mode === "deliver") txBranch.write();
      return this.failure(error, gasWanted, meter.consumed, anteEvents.events);
    }
    msgBranch.write();
    if (mode !== "simulate") txBranch.write();
    const data = toBinary(
      cosmosAbci.TxMsgDataSchema,
      create(cosmosAbci.TxMsgDataSchema, { msgResponses: responses }),
    );
    // CheckTx reports the ante step's events only, as the SDK does.
    const reported = mode === "check" ? [...anteEvents.events] : events;
    return {
      code: 0,
      codespace: "",
      log: "",
      info: "",
      data,
      gasWanted,
      gasUsed: meter.consumed,
      events: reported,
    };
  }

  private decode(bytes: Uint8Array): DecodedTx | TxResult {
    if (bytes.length > MAX_TX_BYTES) {
      return this.failure(
        abciError(sdkErrors.txTooLarge, `tx size ${bytes.length} > ${MAX_TX_BYTES}`),
        0n,
        0n,
        [],
      );
    }
    try {
      return decodeTx(bytes, this.set.router);
    } catch (error) {
      return this.failure(error, 0n, 0n, []);
    }
  }

  checkTx(tx: Uint8Array): TxResult {
    const decoded = this.decode(tx);
    if (!("msgs" in decoded)) return decoded;
    const hex = upperHex(decoded.hash);
    if (this.mempoolHashes.has(hex)) return this.failure(abciError(sdkErrors.txInMempoolCache), 0n, 0n, []);
    const result = this.runTx("check", decoded, this.pending, this.latestInfo());
    if (result.code === 0) {
      // A short-term order's tx lives in the memclob only: never queued, never in a block.
      if (this.policyOf(decoded).enterBlock) this.mempool.push(decoded);
      this.mempoolHashes.add(hex);
    }
    this.publishOrderStream();
    return result;
  }

  /** Hands the order stream messages written since the last call to the listeners. */
  private publishOrderStream(): void {
    const messages = drainOrderStream(new PrefixStore(this.root, "clob/"));
    if (messages.length === 0) return;
    for (const listener of this.streamListeners) {
      try {
        listener(messages);
      } catch {
        // A listener's failure must not break the chain; listeners report their own errors.
      }
    }
  }

  onOrderStream(listener: OrderStreamListener): () => void {
    const wrapped: OrderStreamListener = (messages) => listener(messages);
    this.streamListeners.add(wrapped);
    return () => {
      this.streamListeners.delete(wrapped);
    };
  }

  /**
   * The proposer's injected tx at the head of a block (the modules' `proposeMessages`: the clob's
   * operations), delivered in `branch` without an ante step; undefined when no module proposes.
   */
  private injectedTx(
    branch: CacheStore,
    block: BlockInfo,
  ): { bytes: Uint8Array; hash: Uint8Array; result: TxResult } | undefined {
    const context = (kv: KvStore, events: EventManager) =>
      createContext({
        mode: "deliver",
        block,
        gasMeter: createGasMeter(undefined),
        gasConfig: this.gasConfig,
        events,
        kv,
        verifyTx: (bytes) => this.verifyInBlock(bytes, branch, block),
      });
    const messages: Any[] = [];
    for (const module of this.set.modules) {
      if (module.proposeMessages !== undefined) {
        messages.push(...module.proposeMessages(context(branch, new EventManager())));
      }
    }
    if (messages.length === 0) return undefined;
    const bytes = injectedTxBytes(messages);
    const msgBranch = new CacheStore(branch);
    const events: AbciEvent[] = [];
    const responses: Any[] = [];
    let result: TxResult;
    try {
      messages.forEach((any, i) => {
        const handler = this.set.router.msg(any.typeUrl);
        if (handler === undefined) throw abciError(sdkErrors.unknownRequest, `no handler for ${any.typeUrl}`);
        const msgEvents = new EventManager();
        responses.push(handler.execute(context(msgBranch, msgEvents), fromBinary(handler.schema, any.value)));
        const attributes: [string, string][] = [
          ["action", any.typeUrl],
          ["module", moduleNameOfTypeUrl(any.typeUrl)],
        ];
        events.push(
          ...withAttribute([event("message", attributes), ...msgEvents.events], "msg_index", String(i)),
        );
      });
      msgBranch.write();
      const data = toBinary(
        cosmosAbci.TxMsgDataSchema,
        create(cosmosAbci.TxMsgDataSchema, { msgResponses: responses }),
      );
      result = { code: 0, codespace: "", log: "", info: "", data, gasWanted: 0n, gasUsed: 0n, events };
    } catch (error) {
      result = this.failure(error, 0n, 0n, []);
    }
    return { bytes, hash: sha256(bytes), result };
  }

  /** Decodes a signed tx carried by an injected message and verifies its signatures on `base`. */
  private verifyInBlock(bytes: Uint8Array, base: KvStore, block: BlockInfo): DecodedTx {
    const tx = decodeTx(bytes, this.set.router);
    const ctx = createContext({
      mode: "deliver",
      block,
      gasMeter: createGasMeter(undefined),
      gasConfig: this.gasConfig,
      events: new EventManager(),
      kv: new CacheStore(base),
    });
    runAnte(
      ctx,
      tx,
      { ...this.policyOf(tx), chargeFees: false, checkSequence: false, meterGas: false },
      {
        ...this.set.keepers,
        minGasPrices: this.config.minGasPrices,
        verified: this.verified,
        authenticateSigner: (c, signer) => this.set.router.authenticateSigner(c, signer),
      },
    );
    return tx;
  }

  pendingTxCount(): number {
    return this.mempool.length;
  }

  simulate(tx: Uint8Array): SimulateResult {
    const decoded = this.decode(tx);
    if (!("msgs" in decoded)) return { ok: false, result: decoded };
    const result = this.runTx("simulate", decoded, new CacheStore(this.pending), this.latestInfo());
    return result.code === 0
      ? { ok: true, gasWanted: result.gasWanted, gasUsed: result.gasUsed, result }
      : { ok: false, result };
  }

  // ---------------------------------------------------------------- blocks

  /** The time of the next block for a requested time: shifted by `advanceTime`, and after the latest. */
  private nextBlockTime(time: Date): Date {
    const shifted = BigInt(time.getTime()) + this.timeOffsetMs;
    const latest = this.blocks.at(-1);
    const floor = latest === undefined ? shifted : BigInt(latest.time.getTime()) + 1n;
    return new Date(Number(shifted > floor ? shifted : floor));
  }

  produceBlock(time: Date): BlockRecord {
    const latest = this.latestBlock();
    return this.commitBlock(latest.height + 1n, this.nextBlockTime(time));
  }

  private commitBlock(height: bigint, time: Date): BlockRecord {
    const block = this.blockInfo(height, time);
    const branch = new CacheStore(this.root);
    const finalizeBlockEvents: AbciEvent[] = withAttribute(this.pendingEvents, "mode", "BeginBlock");
    this.pendingEvents = [];
    const hook = (mode: "BeginBlock" | "EndBlock") => {
      for (const module of this.set.modules) {
        const fn = mode === "BeginBlock" ? module.beginBlock : module.endBlock;
        if (fn === undefined) continue;
        const events = new EventManager();
        fn.call(
          module,
          createContext({
            mode: "deliver",
            block,
            gasMeter: createGasMeter(undefined),
            gasConfig: this.gasConfig,
            events,
            kv: branch,
          }),
        );
        finalizeBlockEvents.push(...withAttribute(events.events, "mode", mode));
      }
    };
    hook("BeginBlock");
    const proposalEvents = runProposals(
      branch,
      this.set.router,
      (kv, events) =>
        createContext({
          mode: "deliver",
          block,
          gasMeter: createGasMeter(undefined),
          gasConfig: this.gasConfig,
          events,
          kv,
        }),
      height,
    );
    finalizeBlockEvents.push(...withAttribute(proposalEvents, "mode", "BeginBlock"));
    const injected = this.injectedTx(branch, block);
    const txs: ReadonlyArray<{ bytes: Uint8Array; hash: Uint8Array }> = [
      ...(injected === undefined ? [] : [injected]),
      ...this.mempool,
    ];
    const txResults = [
      ...(injected === undefined ? [] : [injected.result]),
      ...this.mempool.map((tx) => this.runTx("deliver", tx, branch, block)),
    ];
    hook("EndBlock");
    branch.write();
    const appHashAfter = this.root.hash();

    const previous = this.blocks.at(-1);
    const v = this.config.validator;
    const validatorsHash = merkleRoot([concatBytes(v.publicKey, encodeU64(this.config.validatorPower))]);
    const dataHash = merkleRoot(txs.map((tx) => tx.hash));
    const lastResultsHash = resultsHash(previous?.txResults ?? []);
    const lastBlockHash = previous?.hash ?? EMPTY;
    const timeNanos = (time.getTime() % 1000) * 1_000_000;
    const hash = merkleRoot([
      utf8(this.config.chainId),
      encodeU64(height),
      encodeU64(BigInt(time.getTime())),
      lastBlockHash,
      dataHash,
      validatorsHash,
      this.lastAppHash,
      lastResultsHash,
      v.address,
    ]);
    const record: BlockRecord = {
      height,
      time,
      timeNanos,
      hash,
      lastBlockHash,
      appHash: this.lastAppHash,
      dataHash,
      lastResultsHash,
      validatorsHash,
      proposerAddress: v.address,
      resultAppHash: appHashAfter,
      txs: txs.map((tx) => tx.bytes),
      txResults,
      finalizeBlockEvents,
    };
    this.lastAppHash = appHashAfter;
    this.addBlock(record);
    this.mempool = [];
    this.mempoolHashes.clear();
    this.verified.clear();
    this.pending = this.newPending();
    this.afterCommit(block);
    this.publishOrderStream();
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch {
        // A listener's failure must not break the chain; listeners report their own errors.
      }
    }
    return record;
  }

  /** The modules' after-commit work, on the fresh CheckTx state (see `Module.afterCommit`). */
  private afterCommit(block: BlockInfo): void {
    for (const module of this.set.modules) {
      if (module.afterCommit === undefined) continue;
      module.afterCommit(
        createContext({
          mode: "check",
          block,
          gasMeter: createGasMeter(undefined),
          gasConfig: this.gasConfig,
          events: new EventManager(),
          kv: this.pending,
        }),
      );
    }
  }

  /** Indexes a committed block. */
  private addBlock(record: BlockRecord): void {
    this.blocks.push(record);
    this.blockFirstTx.push(this.indexed.length);
    record.txs.forEach((bytes, index) => {
      const result = record.txResults[index] as TxResult;
      const hash = sha256(bytes);
      const position = this.indexed.length;
      const hex = upperHex(hash);
      this.indexed.push({ hash, height: record.height, index, tx: bytes, result });
      this.indexedHex.push(hex);
      this.txByHash.set(hex, position);
    });
  }

  /** Brings the event index up to the latest indexed tx (a search needs it, a block does not). */
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

  latestBlock(): BlockRecord {
    const latest = this.blocks.at(-1);
    if (latest === undefined) throw new Error("no block yet");
    return latest;
  }

  block(height: bigint): BlockRecord | undefined {
    const first = this.blocks[0];
    if (first === undefined || height < first.height) return undefined;
    return this.blocks[Number(height - first.height)];
  }

  /** The state hash after the latest block (and any control operation since). */
  appHash(): Uint8Array {
    return this.lastAppHash;
  }

  tx(hash: Uint8Array): IndexedTx | undefined {
    const position = this.txByHash.get(upperHex(hash));
    return position === undefined ? undefined : this.indexed[position];
  }

  /**
   * Txs matching a CometBFT query, by height then index (or the reverse).
   *
   * @throws {QuerySyntaxError} for a query that does not parse.
   */
  searchTxs(query: string, order: "asc" | "desc"): IndexedTx[] {
    const conditions = parseQuery(query);
    const candidates = this.candidates(conditions);
    const out: IndexedTx[] = [];
    for (const position of candidates) {
      const tx = this.indexed[position] as IndexedTx;
      if (
        txMatches(conditions, {
          height: tx.height,
          hashHex: this.indexedHex[position] as string,
          events: tx.result.events,
        })
      ) {
        out.push(tx);
      }
    }
    return order === "desc" ? out.reverse() : out;
  }

  /** Positions that may match, ascending: the narrowest exact-match index, or every tx. */
  private candidates(conditions: readonly QueryCondition[]): number[] {
    this.indexEvents();
    let best: number[] | undefined;
    for (const c of conditions) {
      if (c.op !== "=") continue;
      let list: number[] | undefined;
      if (c.key === "tx.hash" && c.operand.kind === "string") {
        const position = this.txByHash.get(c.operand.value.toUpperCase());
        list = position === undefined ? [] : [position];
      } else if (c.key === "tx.height") {
        const height = BigInt(c.operand.kind === "none" ? 0 : Math.trunc(Number(c.operand.value)));
        const block = this.block(height);
        if (block === undefined) list = [];
        else {
          const start = this.blockFirstTx[Number(height - (this.blocks[0] as BlockRecord).height)] as number;
          list = block.txs.map((_, i) => start + i);
        }
      } else if (c.operand.kind === "string") {
        list = this.eventIndex.get(`${c.key}=${c.operand.value}`) ?? [];
      } else if (c.operand.kind === "number") {
        list = this.eventIndex.get(`${c.key}=${c.operand.value}`);
        if (list === undefined) continue;
      }
      if (list !== undefined && (best === undefined || list.length < best.length)) best = list;
    }
    return best ?? this.indexed.map((_, i) => i);
  }

  onBlock(listener: BlockListener): () => void {
    const wrapped: BlockListener = (block) => listener(block);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  genesisJson(): unknown {
    return JSON.parse(this.genesisDoc);
  }

  // ---------------------------------------------------------------- queries

  query(path: string, data: Uint8Array, height?: bigint): QueryResult {
    const latest = this.latestBlock().height;
    const answer = (fn: () => Uint8Array): QueryResult => {
      try {
        return { code: 0, codespace: "", log: "", value: fn(), height: latest };
      } catch (error) {
        const e = toAbciError(error);
        return { code: e.code, codespace: e.codespace, log: e.log, value: EMPTY, height: latest };
      }
    };
    if (height !== undefined && height !== 0n && height !== latest) {
      return answer(() => {
        if (height > latest) {
          throw abciError(
            sdkErrors.invalidHeight,
            "cannot query with height in the future; please provide a valid height",
          );
        }
        throw abciError(
          sdkErrors.invalidRequest,
          `failed to load state at height ${height}; version does not exist (latest height: ${latest})`,
        );
      });
    }
    if (path === "/app/simulate") {
      return answer(() => {
        const sim = this.simulate(data);
        if (!sim.ok) {
          const { code, codespace, log } = sim.result;
          throw new AbciError({ code, codespace, description: "" }, `failed to simulate tx: ${log}`);
        }
        return utf8(JSON.stringify(simulationJson(sim.gasWanted, sim.gasUsed, sim.result)));
      });
    }
    const handler = this.set.router.query(path);
    if (handler === undefined)
      return answer(() => {
        throw abciError(sdkErrors.unknownRequest, "unknown query path");
      });
    return answer(() => handler(this.queryContext(), data));
  }

  // ---------------------------------------------------------------- control

  private fund(address: string, coins: ReadonlyArray<{ denom: string; amount: bigint }>): void {
    let recipient: Uint8Array;
    try {
      recipient = addressBytes(address);
    } catch (error) {
      throw abciError(sdkErrors.invalidAddress, error instanceof Error ? error.message : String(error));
    }
    const amount: Coin[] = [...coins].sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
    const invalid = validateCoins(amount);
    if (invalid !== undefined || amount.length === 0) {
      throw abciError(sdkErrors.invalidCoins, invalid ?? `no coins to fund: ${coinsToString(amount)}`);
    }
    const branch = new CacheStore(this.root);
    const events = new EventManager();
    const ctx = createContext({
      mode: "deliver",
      block: this.latestInfo(),
      gasMeter: createGasMeter(undefined),
      gasConfig: this.gasConfig,
      events,
      kv: branch,
    });
    const { bank } = this.set.keepers;
    bank.mintCoins(ctx, "devnet_faucet", amount);
    bank.sendCoinsFromModuleToAccount(ctx, "devnet_faucet", recipient, amount);
    branch.write();
    this.pendingEvents.push(...events.events);
    this.afterControl();
  }

  private submitProposal(messages: ReadonlyArray<{ typeUrl: string; value: Uint8Array }>): bigint {
    const anys: Any[] = messages.map((m) => ({
      $typeName: "google.protobuf.Any",
      typeUrl: m.typeUrl,
      value: m.value,
    }));
    const id = queueProposal(this.root, this.set.router, anys);
    this.afterControl();
    return id;
  }

  private moduleControl(
    module: string,
    operation: string,
    request: Readonly<Record<string, unknown>>,
  ): unknown {
    const op = this.set.modules.find((m) => m.name === module)?.control?.[operation];
    if (op === undefined) {
      throw abciError(sdkErrors.unknownRequest, `no devnet control operation ${module}/${operation}`);
    }
    const branch = new CacheStore(this.root);
    const events = new EventManager();
    const ctx = createContext({
      mode: "deliver",
      block: this.latestInfo(),
      gasMeter: createGasMeter(undefined),
      gasConfig: this.gasConfig,
      events,
      kv: branch,
    });
    const answer = op(ctx, request);
    branch.write();
    this.pendingEvents.push(...events.events);
    this.afterControl();
    return answer;
  }

  private advanceTime(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new RangeError(`advanceTime needs a non-negative integer, got ${ms}`);
    this.timeOffsetMs += BigInt(ms);
  }

  /** After a control operation: the state hash moves, and queued txs are re-checked on the new state. */
  private afterControl(): void {
    this.lastAppHash = this.root.hash();
    this.pending = this.newPending();
    const queued = this.mempool;
    this.mempool = [];
    this.mempoolHashes.clear();
    for (const tx of queued) {
      const result = this.runTx("check", tx, this.pending, this.latestInfo());
      if (result.code === 0) {
        this.mempool.push(tx);
        this.mempoolHashes.add(upperHex(tx.hash));
      }
    }
  }
}

/** The bytes of the proposer's injected tx: its messages in a body, no signer, no fee. */
function injectedTxBytes(messages: readonly Any[]): Uint8Array {
  const body = toBinary(cosmosTx.TxBodySchema, create(cosmosTx.TxBodySchema, { messages: [...messages] }));
  const authInfo = toBinary(
    cosmosTx.AuthInfoSchema,
    create(cosmosTx.AuthInfoSchema, { fee: { gasLimit: 0n } }),
  );
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo }),
  );
}

/** RFC 3339 as CometBFT prints times: UTC, fractional seconds without trailing zeros. */
export function formatTime(time: Date, nanos?: number): string {
  const iso = time.toISOString();
  const base = iso.slice(0, 19);
  const fraction = (nanos ?? (time.getTime() % 1000) * 1_000_000)
    .toString()
    .padStart(9, "0")
    .replace(/0+$/, "");
  return fraction === "" ? `${base}Z` : `${base}.${fraction}Z`;
}

/** `SimulationResponse` as the SDK's `/app/simulate` prints it (proto JSON). */
function simulationJson(gasWanted: bigint, gasUsed: bigint, result: TxResult): unknown {
  return {
    gas_info: { gas_wanted: gasWanted.toString(), gas_used: gasUsed.toString() },
    result: {
      data: Buffer.from(result.data).toString("base64"),
      log: result.log,
      events: result.events.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
      })),
      msg_responses: [],
    },
  };
}

/**
 * Builds the devnet's chain application, from genesis or from exported state. With `state`, the
 * profile must be the one the state was written with, and the genesis time comes from the state.
 *
 * @throws {Error} when `state` is not a devnet state, or of another profile.
 *
 * @example
 * ```ts
 * const app = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
 * app.latestBlock().height; // 1n
 * ```
 */
export const createChainApp: CreateChainApp = (options) => ChainApplication.create(options);
