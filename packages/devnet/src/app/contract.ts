/**
 * The contract between the devnet's chain application (`src/app/`, deterministic, no transports)
 * and its servers (`src/servers/`, one per wire protocol). Servers only ever call what is declared
 * here; the application never imports a server.
 */

import type { clob } from "@perpx/proto";
import type { ForkState } from "./genesis/fork-state.js";
import type { BlockIndexerEvents, IndexerEvent } from "./indexer-output/indexer-events.js";

/**
 * One ABCI event attribute, plain strings as CometBFT 0.38 reports them.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 * import { calculateFee, SigningStargateClient } from "@cosmjs/stargate";
 * import { cosmosTx } from "@perpx/proto";
 *
 * const [alice, bob] = devnet.accounts;
 * const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice!.mnemonic, { prefix: "perpx" });
 * const client = await SigningStargateClient.connectWithSigner(devnet.endpoints.nodeRpc, wallet);
 * const send = {
 *   typeUrl: "/cosmos.bank.v1beta1.MsgSend",
 *   value: { fromAddress: alice!.address, toAddress: bob!.address, amount: [{ denom: "uusdc", amount: "1" }] },
 * };
 * const signed = await client.sign(alice!.address, [send], calculateFee(200_000, "0.025uusdc"), "");
 * const txBytes = toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, signed));
 * devnet.app.checkTx(txBytes).code; // 0
 * const [block] = devnet.mine(1);
 * // txResults[0] is the block's proposed operations (chain-protocol.md 1.11); the send follows it.
 * const transfer = block!.txResults[1]!.events.find((e) => e.type === "transfer");
 * const sender = transfer?.attributes.find((a: EventAttribute) => a.key === "sender");
 * sender?.value === alice!.address; // true
 * ```
 */
export interface EventAttribute {
  key: string;
  value: string;
  index: boolean;
}

/**
 * One ABCI event.
 *
 * @example
 * ```ts
 * const transfers = devnet.app.latestBlock().txResults.flatMap((r) => r.events).filter((e: AbciEvent) => e.type === "transfer");
 * ```
 */
export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

/**
 * The outcome of CheckTx or of executing a tx in a block (CometBFT's ExecTxResult).
 *
 * @example
 * ```ts
 * const result: TxResult = devnet.app.checkTx(new Uint8Array([1, 2, 3])); // not a TxRaw
 * [result.codespace, result.code]; // ["sdk", 2]
 * ```
 */
export interface TxResult {
  /** 0 on success; otherwise the module's error code. */
  code: number;
  /** The error's codespace ("sdk", "clob", ...); "" on success. */
  codespace: string;
  /** The error text on failure (as Cosmos SDK wraps it); "" or a JSON log on success. */
  log: string;
  info: string;
  /** Protobuf `cosmos.base.abci.v1beta1.TxMsgData` bytes on success; empty on failure. */
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  /** The tx's events for the indexer (delivered txs of a committed block only; not on the wire). */
  indexerEvents?: readonly IndexerEvent[];
  /**
   * Set when CometBFT's mempool refused the tx before any CheckTx ran: its error text, which its RPC
   * answers as a JSON-RPC error ("tx already exists in cache", "Tx too large. Max size is M, but got
   * N"); `code` and `codespace` are then the SDK's for it (sdk 19, 21), with an empty `log`.
   */
  mempoolError?: string;
}

/**
 * A tx as indexed once it is in a block.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { sha256 } from "@noble/hashes/sha2.js";
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 * import { calculateFee, SigningStargateClient } from "@cosmjs/stargate";
 * import { cosmosTx } from "@perpx/proto";
 *
 * const [alice, bob] = devnet.accounts;
 * const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice!.mnemonic, { prefix: "perpx" });
 * const client = await SigningStargateClient.connectWithSigner(devnet.endpoints.nodeRpc, wallet);
 * const send = {
 *   typeUrl: "/cosmos.bank.v1beta1.MsgSend",
 *   value: { fromAddress: alice!.address, toAddress: bob!.address, amount: [{ denom: "uusdc", amount: "1" }] },
 * };
 * const signed = await client.sign(alice!.address, [send], calculateFee(200_000, "0.025uusdc"), "");
 * const txBytes = toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, signed));
 * devnet.app.checkTx(txBytes).code; // 0
 * const [block] = devnet.mine(1);
 * const found: IndexedTx | undefined = devnet.app.tx(sha256(txBytes));
 * found?.height === block!.height; // true: the block it landed in
 * found?.result.code; // 0
 * ```
 */
export interface IndexedTx {
  /** SHA-256 of the TxRaw bytes. */
  hash: Uint8Array;
  height: bigint;
  /** Position in the block. */
  index: number;
  /** The TxRaw bytes. */
  tx: Uint8Array;
  result: TxResult;
}

/**
 * A committed block with everything the RPC servers print about it.
 *
 * @example
 * ```ts
 * const [block]: BlockRecord[] = devnet.mine(1);
 * block.txResults.every((r) => r.code === 0);
 * ```
 */
export interface BlockRecord {
  height: bigint;
  /** Block time; nanosecond precision is carried in `timeNanos` (0..999_999_999 within the second). */
  time: Date;
  timeNanos: number;
  /** 32-byte block hash. */
  hash: Uint8Array;
  /** 32-byte hash of the previous block; empty at height 1. */
  lastBlockHash: Uint8Array;
  /** App hash after the previous block (CometBFT semantics); 32 bytes. */
  appHash: Uint8Array;
  /**
   * App hash right after this block was executed (what `block_results.app_hash` and
   * `status.sync_info.latest_app_hash` report); 32 bytes. Always set by the devnet application
   * (optional only so hand-made records stay valid). The next block's `appHash` equals it unless a
   * control operation (`fund`) changed the state in between.
   */
  resultAppHash?: Uint8Array;
  dataHash: Uint8Array;
  lastResultsHash: Uint8Array;
  validatorsHash: Uint8Array;
  /** 20-byte address of the (single) validator. */
  proposerAddress: Uint8Array;
  /** TxRaw bytes of every tx in the block, in order. */
  txs: Uint8Array[];
  /** One result per tx, same order. */
  txResults: TxResult[];
  /** Begin/end-block events (CometBFT 0.38 `finalize_block_events`). */
  finalizeBlockEvents: AbciEvent[];
  /** The block-level events for the indexer (always set by the devnet application). */
  indexerEvents?: BlockIndexerEvents;
}

/**
 * The answer to an ABCI query (`abci_query`, and what gRPC and REST translate).
 *
 * @example
 * ```ts
 * import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
 * import { cosmosBank } from "@perpx/proto";
 *
 * const request = create(cosmosBank.QueryAllBalancesRequestSchema, { address: devnet.accounts[0]!.address });
 * const path = "/cosmos.bank.v1beta1.Query/AllBalances";
 * const answer: QueryResult = devnet.app.query(path, toBinary(cosmosBank.QueryAllBalancesRequestSchema, request));
 * answer.code; // 0
 * fromBinary(cosmosBank.QueryAllBalancesResponseSchema, answer.value).balances.length > 0; // true
 * devnet.app.query("/cosmos.bank.v1beta1.Query/Nope", new Uint8Array()).code; // 6: unknown path
 * ```
 */
export interface QueryResult {
  /** 0 on success; sdk codes otherwise (22 not found, 18 invalid request, 6 unknown path). */
  code: number;
  codespace: string;
  log: string;
  /** Protobuf response bytes on success. */
  value: Uint8Array;
  /**
   * The height the answer is for (the latest when none was asked); 0 when the query was refused
   * before any handler ran (unknown path, pruned or future height, failed simulation), as baseapp answers.
   */
  height: bigint;
}

/**
 * The answer to a simulation (`/cosmos.tx.v1beta1.Service/Simulate` and `/app/simulate`).
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 * import { calculateFee, SigningStargateClient } from "@cosmjs/stargate";
 * import { cosmosTx } from "@perpx/proto";
 *
 * const [alice, bob] = devnet.accounts;
 * const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice!.mnemonic, { prefix: "perpx" });
 * const client = await SigningStargateClient.connectWithSigner(devnet.endpoints.nodeRpc, wallet);
 * const send = {
 *   typeUrl: "/cosmos.bank.v1beta1.MsgSend",
 *   value: { fromAddress: alice!.address, toAddress: bob!.address, amount: [{ denom: "uusdc", amount: "1" }] },
 * };
 * const signed = await client.sign(alice!.address, [send], calculateFee(200_000, "0.025uusdc"), "");
 * const txBytes = toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, signed));
 * const simulated: SimulateResult = devnet.app.simulate(txBytes);
 * simulated.ok && simulated.gasUsed > 0n; // true
 * devnet.app.simulate(new Uint8Array([1, 2, 3])).ok; // false
 * ```
 */
export type SimulateResult =
  | { ok: true; gasWanted: bigint; gasUsed: bigint; result: TxResult }
  | { ok: false; result: TxResult };

/**
 * The validator the devnet runs as.
 *
 * @example
 * ```ts
 * const { operatorAddress }: ValidatorInfo = devnet.app.info.validator; // perpxvaloper1...
 * ```
 */
export interface ValidatorInfo {
  /** 20-byte consensus address. */
  address: Uint8Array;
  /** 32-byte ed25519 public key. */
  pubKey: Uint8Array;
  votingPower: bigint;
  /** Its operator address, `perpxvaloper1...`. */
  operatorAddress: string;
  moniker: string;
}

/**
 * Static facts about the running chain, fixed at start.
 *
 * @example
 * ```ts
 * const { chainId, evmChainId, appVersion }: ChainInfo = devnet.app.info;
 * ```
 */
export interface ChainInfo {
  chainId: string;
  /** The EVM chain id of the profile (local 31337, testnet 202006, mainnet 111984). */
  evmChainId: number;
  /** Running application version, e.g. "v27.5" for testnet/mainnet profiles. */
  appVersion: string;
  /** CometBFT version string reported by `status` (cosmjs picks its client from it). */
  cometVersion: string;
  /** 20-byte node id (hex in JSON). */
  nodeId: Uint8Array;
  moniker: string;
  /** Upgrade history: version -> height it was applied at. */
  upgrades: ReadonlyMap<string, bigint>;
  /** The first height of this chain (above the last upgrade for testnet/mainnet). */
  initialHeight: bigint;
  /** `minimum-gas-prices` as the node config service prints it, e.g. "0.025uusdc,25000000000aperpx". */
  minimumGasPrices: string;
  validator: ValidatorInfo;
}

/**
 * Listener for committed blocks (subscriptions, `broadcast_tx_commit`, the indexer). `committedAt`
 * is the wall-clock moment the block was committed in this process (`performance.timeOrigin +
 * performance.now()`, fractional milliseconds since the epoch): a local measurement, not chain
 * data, so it is not part of the stored record.
 *
 * @example
 * ```ts
 * const onBlock: BlockListener = (block, committedAt) =>
 *   console.log(block.height, performance.timeOrigin + performance.now() - committedAt, "ms since commit");
 * const unsubscribe = devnet.app.onBlock(onBlock);
 * ```
 */
export type BlockListener = (block: BlockRecord, committedAt: number) => void;

/**
 * Why the memclob removed an order (the off-chain order stream's remove message, chain-protocol.md
 * 1.11): a user cancel, expiry, a failed collateral check at a fill, a post-only order that would
 * cross, a maker of the taker's own subaccount, the unfilled rest of an immediate-or-cancel order,
 * a full fill, a replacement, a reduce-only order that could not reduce, or an order the proposer
 * removed from state.
 *
 * @example
 * ```ts
 * const reason: OrderRemovalReason = "post_only_would_cross";
 * ```
 */
export type OrderRemovalReason =
  | "user_canceled"
  | "expired"
  | "undercollateralized"
  | "post_only_would_cross"
  | "self_trade"
  | "immediate_or_cancel"
  | "fully_filled"
  | "replaced"
  | "reduce_only"
  | "conditional_ioc_would_rest";

/**
 * One message of the off-chain order stream the memclob emits as it changes (chain-protocol.md
 * 1.11, point 5): an order placed in the book, removed from it (with the reason), its total filled
 * amount changed, or replaced by an order of the same id. Orders and ids are the clob's protobuf
 * messages (`@perpx/proto`'s `clob.Order` / `clob.OrderId`); amounts are base quantums.
 *
 * @example
 * ```ts
 * const onMessage = (m: OrderStreamMessage) => {
 *   if (m.kind === "update") console.log(m.orderId.clientId, m.totalFilled);
 * };
 * ```
 */
export type OrderStreamMessage =
  | { readonly kind: "place"; readonly order: clob.Order }
  | { readonly kind: "remove"; readonly orderId: clob.OrderId; readonly reason: OrderRemovalReason }
  | { readonly kind: "update"; readonly orderId: clob.OrderId; readonly totalFilled: bigint }
  | { readonly kind: "replace"; readonly oldOrder: clob.Order; readonly order: clob.Order };

/**
 * Listener of the off-chain order stream (see {@link ChainApp.onOrderStream}); it gets the
 * messages of one CheckTx, one block or one post-commit step at a time, in order. The messages
 * are frozen, orders and ids inside included: they are the memclob's own objects, shared by every
 * listener.
 *
 * @example
 * ```ts
 * const log: OrderStreamMessage[] = [];
 * const unsubscribe = devnet.app.onOrderStream((messages) => log.push(...messages));
 * devnet.mine(1);
 * log.length; // 0: no order was placed
 * unsubscribe();
 * ```
 */
export type OrderStreamListener = (messages: readonly OrderStreamMessage[]) => void;

/**
 * Checks a secp256k1 signature elsewhere than the caller's thread: true when libsecp256k1 accepts
 * `signature` (64 bytes r||s) over SHA-256 of `signBytes` under the 33-byte compressed `key`;
 * false when it refuses or could not tell. Never rejects.
 *
 * @example
 * ```ts
 * // A check that never vouches: CheckTx then verifies every signature itself, as without one.
 * const vouchesForNone: SignatureCheck = async () => false;
 * await vouchesForNone(new Uint8Array(33), new Uint8Array(0), new Uint8Array(64)); // false
 * ```
 */
export type SignatureCheck = (
  key: Uint8Array,
  signBytes: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>;

/**
 * What the servers may ask of the chain application. Every method is synchronous and deterministic
 * given the same sequence of calls; time only enters through `produceBlock`.
 *
 * @example
 * ```ts
 * const app: ChainApp = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
 * app.checkTx(new Uint8Array([1, 2, 3])).code; // 2: not a tx, not queued
 * app.pendingTxCount(); // 0
 * app.produceBlock(new Date("2026-01-01T00:00:01Z")).height; // 2n
 * app.latestBlock().time.toISOString(); // "2026-01-01T00:00:01.000Z"
 * ```
 */
export interface ChainApp {
  readonly info: ChainInfo;
  /** The genesis document as `/genesis` prints it (`result.genesis`). */
  genesisJson(): unknown;
  /** The latest committed block. */
  latestBlock(): BlockRecord;
  /** A committed block by height, or undefined when out of range or pruned. */
  block(height: bigint): BlockRecord | undefined;
  /**
   * The lowest height whose block is served (CometBFT's block store base, `earliest_block_height`):
   * the first height, unless blocks were pruned without an archive (see {@link PruningOptions}).
   */
  baseHeight(): bigint;
  /** A tx by its hash, once committed (and while its block is within the pruning window). */
  tx(hash: Uint8Array): IndexedTx | undefined;
  /**
   * Txs matching a CometBFT query such as `tx.hash='AB..'`, `tx.height=5`,
   * `message.sender='perpx1..' AND transfer.recipient='perpx1..'` (conditions on event attributes,
   * `=`, `<`, `<=`, `>`, `>=`, `CONTAINS`, `EXISTS`, joined by AND), ordered by height then index.
   * Throws an `Error` (name `QuerySyntaxError`) for a query that does not parse.
   */
  searchTxs(query: string, order: "asc" | "desc"): IndexedTx[];
  /**
   * CheckTx: decodes and validates the tx against the pending state (signature, account number,
   * sequence or timestamp nonce, fee, basic message validity). On code 0 the tx is queued for the
   * next block; otherwise nothing changes. A short-term order place, cancel or batch cancel is the
   * exception (chain-protocol.md 1.11): it runs in the memclob at once (placed, matched or
   * cancelled there; the answer is final) and is never queued: its fills reach the next block in
   * its proposed-operations tx.
   */
  checkTx(tx: Uint8Array): TxResult;
  /**
   * Optional, a pure speed-up: readies the CheckTx of `tx` ahead of it, by having `verify` check its
   * signature elsewhere (another thread) against the state as it is now. The CheckTx that follows
   * answers exactly as without it; it only skips the curve math when the bytes it would verify are
   * those `verify` accepted. Returns undefined when there is nothing to ready (not the usual
   * single-signer secp256k1 shape); the promise never rejects. Never throws.
   */
  prepareTx?(tx: Uint8Array, verify: SignatureCheck): Promise<void> | undefined;
  /**
   * Optional: whether the tx whose SHA-256 is `hash` is in the mempool cache (CometBFT's `LRUTxCache`),
   * so its CheckTx would be refused before it runs ("tx already exists in cache"). A map look-up, for
   * the async broadcasts, which answer that refusal on arrival as CometBFT does. Never throws.
   */
  inTxCache?(hash: Uint8Array): boolean;
  /** Number of txs queued for the next block. */
  pendingTxCount(): number;
  /** ABCI query by gRPC method path (`/cosmos.bank.v1beta1.Query/AllBalances`) or `/app/simulate`. */
  query(path: string, data: Uint8Array, height?: bigint): QueryResult;
  /** Simulates a tx (signature checks skipped, as the SDK does in simulate mode) against the pending state. */
  simulate(tx: Uint8Array): SimulateResult;
  /** Executes every queued tx in a new block at `time` and commits it. */
  produceBlock(time: Date): BlockRecord;
  /** Subscribes to committed blocks; returns the unsubscribe function. */
  onBlock(listener: BlockListener): () => void;
  /**
   * Subscribes to the memclob's off-chain order stream (order place, remove, update and replace
   * messages, as they happen: at CheckTx of short-term orders, when a block commits, and when
   * stateful orders enter the book after it); returns the unsubscribe function.
   */
  onOrderStream(listener: OrderStreamListener): () => void;
}

/**
 * The devnet profiles: chain id, EVM chain id and upgrade history come from `@perpx/core`'s presets.
 *
 * @example
 * ```ts
 * const profile: DevnetProfile = "testnet";
 * const devnet = await startDevnet({ profile, ports: "free" });
 * ```
 */
export type DevnetProfile = "local" | "testnet" | "mainnet";

/**
 * Operations the devnet control server exposes (`/devnet/...`); each is applied as state changes at once.
 *
 * @example
 * ```ts
 * import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
 * import { cosmosBank } from "@perpx/proto";
 *
 * const app = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
 * const control: ChainControl = app.control;
 * control.setOraclePrice("BTC-USD", "65000").pair; // "BTC-USD"
 * const address = "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe"; // a new account
 * control.fund(address, [{ denom: "uusdc", amount: 1_000_000n }]);
 * const request = create(cosmosBank.QueryBalanceRequestSchema, { address, denom: "uusdc" });
 * const answer = app.query("/cosmos.bank.v1beta1.Query/Balance", toBinary(cosmosBank.QueryBalanceRequestSchema, request));
 * fromBinary(cosmosBank.QueryBalanceResponseSchema, answer.value).balance?.amount; // "1000000"
 * ```
 */
export interface ChainControl {
  /** Credits `coins` (bank denoms and amounts) to an account, creating it if needed. */
  fund(address: string, coins: ReadonlyArray<{ denom: string; amount: bigint }>): void;
  /**
   * Moves the chain's clock forward by `ms` before the next block. A clock jump: the next block
   * moves the epoch timers over the ticks it skipped (each starts one epoch, not one per block).
   */
  advanceTime(ms: number): void;
  /**
   * Moves the chain's clock forward so that a block requested at wall time `now` gets a time of at
   * least `timeMs` (unix ms); does nothing when it already would. Returns the ms moved. A clock
   * jump as {@link advanceTime}, unless `halt` is set: then the gap is a chain halt, and the epoch
   * timers catch up one epoch per block as the real chain's do.
   */
  advanceTimeTo(timeMs: number, now: Date, options?: { readonly halt?: boolean }): number;
  /**
   * Queues governance messages (each signed by the gov module address) as a proposal that the next
   * block runs, atomically, before its txs. Returns the proposal id.
   */
  submitProposal(messages: ReadonlyArray<{ typeUrl: string; value: Uint8Array }>): bigint;
  /** The outcome of a proposal once its block ran; undefined before (or for an unknown id). */
  proposal(id: bigint): ProposalResult | undefined;
  /**
   * Runs a module's devnet operation at once (e.g. module `ibc`, operation `receive`: a simulated
   * incoming ICS-20 packet), as state changes with events in the next block; returns its JSON answer.
   * Throws an `AbciError` when the module refuses, or when there is no such operation.
   */
  moduleControl(module: string, operation: string, request: Readonly<Record<string, unknown>>): unknown;
  /**
   * Sets a market's oracle price (a decimal USD string, exact in the market's exponent) and centers
   * the oracle walk's band on it. Throws an `AbciError` (prices) for an unknown market or a bad price.
   */
  setOraclePrice(market: number | string, price: string): OraclePriceSet;
  /** Switches the oracle's per-block random walk on or off. */
  setOracleWalk(enabled: boolean): void;
  /**
   * Mints `quantums` uusdc into a subaccount (through the collateral pool), as the faucet does.
   * Throws an `AbciError` (subaccounts) for a bad owner or number.
   */
  fundSubaccount(owner: string, number: number, quantums: bigint): void;
}

/**
 * The outcome of {@link ChainControl.setOraclePrice}.
 *
 * @example
 * ```ts
 * const set: OraclePriceSet = devnet.app.control.setOraclePrice("ETH-USD", "3000.5");
 * set.pair; // "ETH-USD"
 * ```
 */
export interface OraclePriceSet {
  marketId: number;
  pair: string;
  /** The price mantissa, as a decimal string. */
  price: string;
  exponent: number;
}

/**
 * The outcome of a devnet governance proposal.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { wrap } from "@perpx/proto";
 *
 * const app = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
 * const rule = { authority: GOV_AUTHORITY, portId: "transfer", channelId: "channel-9", sourceDenom: "x" };
 * const remove = toBinary(wrap.MsgDeleteWrapRuleSchema, create(wrap.MsgDeleteWrapRuleSchema, rule));
 * const id = app.control.submitProposal([{ typeUrl: "/perpx.wrap.v1.MsgDeleteWrapRule", value: remove }]);
 * app.control.proposal(id); // undefined: the next block runs it
 * app.produceBlock(new Date("2026-01-01T00:00:01Z"));
 * const result: ProposalResult | undefined = app.control.proposal(id);
 * result?.status; // "failed": there is no such rule to delete
 * ```
 */
export interface ProposalResult {
  /** The proposal id (decimal). */
  id: string;
  /** `passed` when every message ran; `failed` otherwise (nothing of it applied). */
  status: "passed" | "failed";
  /** The block height it ran at (decimal). */
  height: string;
  /** 0, or the error code of the failing message. */
  code: number;
  codespace: string;
  log: string;
}

/**
 * What a chain resumes from: a snapshot of everything but the blocks, and the blocks it follows.
 * `--state DIR` keeps the two apart (the snapshot rewritten, the blocks appended), so persisting a
 * block costs the same at height 100 as at height 100,000.
 *
 * @example
 * ```ts
 * const genesisTime = new Date("2026-01-01T00:00:00Z");
 * const app = createChainApp({ profile: "local", genesisTime });
 * app.produceBlock(new Date("2026-01-01T00:00:01Z"));
 * const blocks: Uint8Array[] = [];
 * for (let h = app.info.initialHeight; h <= app.latestBlock().height; h++) blocks.push(app.exportBlock(h)!);
 * const state: ChainState = { snapshot: app.exportSnapshot(), blocks };
 * const resumed = createChainApp({ profile: "local", genesisTime, state });
 * resumed.latestBlock().height; // 2n
 * ```
 */
export interface ChainState {
  /** Bytes of {@link PersistentChainApp.exportSnapshot}. */
  snapshot: Uint8Array;
  /**
   * Bytes of {@link PersistentChainApp.exportBlock} for the blocks the snapshot follows, in order:
   * every block from the chain's first height on, or only the latest ones (at least one; the
   * application keeps at most its pruning window of them in memory) with `skipped` saying how many
   * came before. The application keeps views into them: do not modify them.
   */
  blocks: readonly Uint8Array[];
  /** How many blocks of the chain come before `blocks[0]` (read back through the archive). @default 0 */
  skipped?: number;
}

/**
 * Where the chain application reads back blocks it pruned from memory: the devnet's block log.
 *
 * @example
 * ```ts
 * const exported: Uint8Array[] = []; // the block log: the chain's blocks, from its first height on
 * const archive: BlockArchive = { readBlock: (index) => exported[index] };
 * const genesisTime = new Date("2026-01-01T00:00:00Z");
 * const app = createChainApp({ profile: "local", genesisTime, archive, pruning: { keepRecent: 1 } });
 * exported.push(app.exportBlock(1n)!);
 * for (let second = 1; second <= 3; second++) {
 *   const block = app.produceBlock(new Date(genesisTime.getTime() + second * 1000));
 *   exported.push(app.exportBlock(block.height)!);
 * }
 * app.latestBlock().height; // 4n
 * app.block(1n)?.height; // 1n: pruned from memory, read back through the archive
 * app.baseHeight(); // 1n
 * ```
 */
export interface BlockArchive {
  /**
   * Bytes of {@link PersistentChainApp.exportBlock} of the chain's `index`-th block (0: the first
   * height), or undefined when it has none.
   */
  readBlock(index: number): Uint8Array | undefined;
}

/**
 * How many blocks the chain application keeps in memory, as a node's block retention: the latest
 * `keepRecent` blocks, their tx results and their txs in the tx index (`tx`, `tx_search`). An older
 * block is read back from the {@link BlockArchive} (`--state DIR`: the block log) or, without one,
 * is gone: queries for it answer as a pruned CometBFT node does ("height 5 is not available, lowest
 * height is 1001"). Txs of pruned blocks are no longer found by hash or search, either way. The
 * committed state keeps as many versions, as a node's state pruning does: a query at one of the
 * latest `keepRecent` heights reads that block's state; an older one answers "version does not exist".
 *
 * @example
 * ```ts
 * const pruning: PruningOptions = { keepRecent: 2 };
 * const devnet = await startDevnet({ pruning, ports: "free", blockTimeMs: 0 });
 * devnet.mine(5);
 * devnet.app.block(1n); // undefined: pruned (no --state, so no block log to read it back from)
 * devnet.app.baseHeight(); // 5n
 * await devnet.stop();
 * ```
 */
export interface PruningOptions {
  /** Blocks kept in memory; 0 keeps every block (memory then grows with the chain). @default 1000 */
  keepRecent: number;
}

/**
 * Options of {@link CreateChainApp}.
 *
 * @example
 * ```ts
 * const options: ChainAppOptions = { profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") };
 * const app = createChainApp(options);
 * ```
 */
export interface ChainAppOptions {
  profile: DevnetProfile;
  /** Start time of genesis (the first block's time). */
  genesisTime: Date;
  /** State exported by a {@link PersistentChainApp}; when given, the chain resumes from it. */
  state?: ChainState;
  /** Blocks kept in memory. @default `{ keepRecent: 1000 }` */
  pruning?: PruningOptions;
  /** Where pruned blocks are read back from; without it they are dropped. */
  archive?: BlockArchive;
  /**
   * Markets at genesis, the three defaults (BTC-USD, ETH-USD, SOL-USD) first, then generated ones
   * with the reference listing's parameters (from 3 to 500). Ignored when resuming from `state`.
   * @default 3
   */
  markets?: number;
  /**
   * Accounts created at genesis whose subaccount 0 holds 100,000 USDC, their keys derived from
   * their index (`fundedSubaccountKey(i)`). Ignored when resuming from `state`. @default 0
   */
  fundedSubaccounts?: number;
  /**
   * x/rewards' `fee_multiplier_ppm` at genesis, 0 to 1,000,000 (the share of trading fees paid
   * back in reward tokens). Ignored when resuming from `state`. @default 0 (the reference genesis's)
   */
  rewardsFeeMultiplierPpm?: number;
  /**
   * Start from another network's state instead of the devnet's genesis (a fork): its chain id, EVM
   * chain id, upgrade history and markets, and its accounts (see `ForkState`). On resume from
   * `state`, only its identity (chain ids, upgrades, moniker) is used. @default none
   */
  fork?: ForkState;
}

/**
 * A chain application that can export and reload its state (for `--state DIR`), in two parts: a
 * snapshot whose size does not grow with the chain's length, and each block on its own. Both are
 * deterministic bytes; the caller decides where they go (the application does no I/O).
 *
 * @example
 * ```ts
 * const app: PersistentChainApp = createChainApp({ profile: "local", genesisTime: new Date() });
 * const snapshot = app.exportSnapshot();
 * const first = app.exportBlock(app.info.initialHeight);
 * ```
 */
export interface PersistentChainApp extends ChainApp {
  readonly control: ChainControl;
  /**
   * Every bit of state needed to resume after the latest committed block (and any control
   * operation since), except the blocks: pair it with the blocks from the first height to
   * `latestBlock().height` in a {@link ChainState}. What a real node keeps in memory only
   * (short-term orders) is not in it: a resumed chain starts without it.
   */
  exportSnapshot(): Uint8Array;
  /**
   * The committed block at `height`, encoded for {@link ChainState.blocks}; undefined out of range,
   * or once pruned from memory without a {@link BlockArchive} (see {@link PruningOptions}).
   */
  exportBlock(height: bigint): Uint8Array | undefined;
}

/**
 * Builds the chain application: from genesis, or resumed from exported state.
 *
 * @example
 * ```ts
 * let created = 0;
 * const createApp: CreateChainApp = (options) => {
 *   created++;
 *   return createChainApp(options);
 * };
 * const devnet = await startDevnet({ createApp, ports: "free", blockTimeMs: 0 });
 * created; // 1
 * await devnet.stop();
 * ```
 */
export type CreateChainApp = (options: ChainAppOptions) => PersistentChainApp;
