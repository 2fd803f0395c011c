import type { Transport } from "@connectrpc/connect";
import { type GasPrice, type Network, SHORT_BLOCK_WINDOW } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { platformTransports } from "#transport-platform";
import type { BroadcastMode, NodeConnection, TxDefaults } from "./connection.js";
import { checkParams } from "./messages/validate.js";
import * as accountplusQ from "./query/accountplus.js";
import * as affiliatesQ from "./query/affiliates.js";
import * as authQ from "./query/auth.js";
import * as bankQ from "./query/bank.js";
import * as bridgeQ from "./query/bridge.js";
import * as chainQ from "./query/chain.js";
import * as marketsQ from "./query/markets.js";
import * as nodeQ from "./query/node.js";
import * as ratelimitQ from "./query/ratelimit.js";
import * as subaccountsQ from "./query/subaccounts.js";
import * as txsQ from "./query/txs.js";
import * as wrapQ from "./query/wrap.js";
import { type CallOptions, checkTimeout } from "./transport/call.js";
import type { GrpcInput } from "./transport/grpc-web.js";
import { openRest, type RestConnection, type RestOptions } from "./transport/rest.js";
import type { RpcConnection, RpcOptions } from "./transport/rpc-json.js";
import * as actions from "./tx/actions.js";
import * as broadcast from "./tx/broadcast.js";
import * as permissioned from "./tx/permissioned.js";
import * as send from "./tx/send.js";
import { SequenceManager } from "./tx/sequence.js";
import * as simulate from "./tx/simulate.js";

/**
 * Options of {@link createNodeClient} and {@link NodeClient.connect}. At least one transport is required.
 *
 * @example
 * ```ts
 * const options: NodeClientOptions = { rpc: "http://127.0.0.1:26657", network: local, timeoutMs: 5_000 };
 * ```
 */
export interface NodeClientOptions {
  /**
   * CometBFT RPC: `http(s)://` or `ws(s)://` URL, `{ url, fetch, headers }`, or `{ rpcClient }`.
   * @default undefined
   */
  rpc?: RpcOptions;
  /**
   * Cosmos REST: URL or `{ url, fetch, headers }`.
   * @default undefined
   */
  rest?: string | RestOptions;
  /**
   * gRPC: URL, `{ url, caCert, headers, interceptors }`, or an injected connect `Transport`.
   * @default undefined
   */
  grpc?: GrpcInput;
  /**
   * A network preset: chain id, gas prices, short-block window, upgrade history.
   * @default undefined (facts read from the node)
   */
  network?: Network;
  /**
   * The chain id.
   * @default network.chainId, else read from the node
   */
  chainId?: string;
  /**
   * Minimum gas prices per fee denom.
   * @default network.minimumGasPrices, else read from the node
   */
  gasPrices?: readonly GasPrice[];
  /**
   * Default per-call timeout, ms.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Simulated gas is multiplied by this.
   * @default 1.6
   */
  gasMultiplier?: number;
  /**
   * Fee denom.
   * @default "uusdc"
   */
  feeDenom?: string;
  /**
   * Broadcast mode.
   * @default "commit"
   */
  broadcastMode?: BroadcastMode;
  /**
   * How long `commit` waits for inclusion, ms.
   * @default 60000
   */
  commitTimeoutMs?: number;
  /**
   * How often `commit` polls, ms.
   * @default 500
   */
  commitPollIntervalMs?: number;
  /**
   * Sequences or timestamp nonces for stateful transactions.
   * @default "sequence"
   */
  nonceMode?: "sequence" | "timestamp";
  /**
   * Short-term order window, blocks.
   * @default network.shortBlockWindow, else SHORT_BLOCK_WINDOW (40)
   */
  shortBlockWindow?: number;
  /**
   * Added to the clock for timestamp nonces, ms.
   * @default 0
   */
  timestampOffsetMs?: number;
  /**
   * The clock for timestamp nonces (unix ms).
   * @default Date.now
   */
  now?: () => number;
}

const BROADCAST_MODES: readonly BroadcastMode[] = ["sync", "async", "commit"];

type Rest<F> = F extends (client: NodeConnection, ...args: infer A) => infer R ? (...args: A) => R : never;

/**
 * A client of one perpx node over CometBFT RPC, REST and gRPC (each optional and injectable). It
 * holds the connections, the account sequences and the caches; every method is a line over an
 * exported free function (`client.getBalances(p)` is `getBalances(client, p)`).
 *
 * @example
 * ```ts
 * const client = createNodeClient({ rpc: "http://127.0.0.1:26657", grpc: { url: "https://127.0.0.1:9091", caCert }, network: local });
 * const balances = await client.getBalances({ address: wallet.address });
 * await client.bankSend({ signer: wallet, from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1n }] });
 * ```
 */
export class NodeClient implements NodeConnection {
  /** CometBFT RPC, when configured. */
  readonly rpc: RpcConnection | undefined;
  /** REST, when configured. */
  readonly rest: RestConnection | undefined;
  /** gRPC, when configured. */
  readonly grpc: Transport | undefined;
  /** Default per-call timeout, ms. */
  readonly timeoutMs: number;
  /** The network preset, when given. */
  readonly network: Network | undefined;
  /** Per-account sequences of transactions sent through this client. */
  readonly sequences: SequenceManager;
  /** Transaction defaults. */
  readonly txDefaults: TxDefaults;
  /** The chain id, once known. */
  chainIdCache: string | undefined;
  /** Minimum gas prices, once known. */
  gasPricesCache: readonly GasPrice[] | undefined;

  /**
   * @param options - transports, network and defaults (see {@link NodeClientOptions}).
   * @throws {InvalidArgumentError} without any transport, or for a bad option.
   */
  constructor(options: NodeClientOptions) {
    checkParams(options, "createNodeClient");
    if (!options.rpc && !options.rest && !options.grpc) {
      throw new InvalidArgumentError("options", "configure at least one of rpc, rest and grpc");
    }
    this.rpc = options.rpc ? platformTransports.openRpc(options.rpc) : undefined;
    this.rest = options.rest ? openRest(options.rest) : undefined;
    this.grpc = options.grpc ? platformTransports.openGrpc(options.grpc) : undefined;
    this.timeoutMs = checkTimeout(options.timeoutMs ?? 10_000);
    this.network = options.network;
    this.chainIdCache = options.chainId ?? options.network?.chainId;
    this.gasPricesCache = options.gasPrices ?? options.network?.minimumGasPrices;
    const broadcastMode = options.broadcastMode ?? "commit";
    if (!BROADCAST_MODES.includes(broadcastMode)) {
      throw new InvalidArgumentError(
        "broadcastMode",
        `must be sync, async or commit, got ${String(broadcastMode)}`,
      );
    }
    const nonceMode = options.nonceMode ?? "sequence";
    if (nonceMode !== "sequence" && nonceMode !== "timestamp") {
      throw new InvalidArgumentError("nonceMode", `must be sequence or timestamp, got ${String(nonceMode)}`);
    }
    const gasMultiplier = options.gasMultiplier ?? 1.6;
    if (!Number.isFinite(gasMultiplier) || gasMultiplier <= 0) {
      throw new InvalidArgumentError(
        "gasMultiplier",
        `must be a positive number, got ${String(gasMultiplier)}`,
      );
    }
    const shortBlockWindow =
      options.shortBlockWindow ?? options.network?.shortBlockWindow ?? SHORT_BLOCK_WINDOW;
    if (!Number.isInteger(shortBlockWindow) || shortBlockWindow <= 0) {
      throw new InvalidArgumentError(
        "shortBlockWindow",
        `must be a positive integer, got ${String(shortBlockWindow)}`,
      );
    }
    this.txDefaults = Object.freeze({
      gasMultiplier,
      feeDenom: options.feeDenom ?? "uusdc",
      broadcastMode,
      commitTimeoutMs: checkTimeout(options.commitTimeoutMs ?? 60_000, "commitTimeoutMs"),
      commitPollIntervalMs: checkTimeout(options.commitPollIntervalMs ?? 500, "commitPollIntervalMs"),
      nonceMode,
      shortBlockWindow,
    });
    this.sequences = new SequenceManager({
      fetchAccount: (address) => authQ.getAccountSequence(this, { address }),
      ...(options.now ? { now: options.now } : {}),
      ...(options.timestampOffsetMs === undefined ? {} : { timestampOffsetMs: options.timestampOffsetMs }),
    });
  }

  /**
   * Creates a client and checks that the node answers (reading the chain id when not given).
   *
   * @throws {TransportError | QueryError | TimeoutError} when the node does not answer.
   *
   * @example
   * ```ts
   * const client = await NodeClient.connect({ rpc: "http://127.0.0.1:26657" });
   * ```
   */
  static async connect(options: NodeClientOptions & CallOptions): Promise<NodeClient> {
    const client = new NodeClient(options);
    const call: CallOptions = {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    try {
      if (client.rpc || client.grpc) {
        const latest = await chainQ.getLatestBlock(client, call);
        if (client.chainIdCache && client.chainIdCache !== latest.chainId) {
          throw new InvalidArgumentError(
            "chainId",
            `the node is on ${latest.chainId}, not ${client.chainIdCache}`,
          );
        }
        client.chainIdCache = latest.chainId;
      } else {
        const info = await nodeQ.getNodeInfo(client, call);
        client.chainIdCache ??= info.network;
      }
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /**
   * Closes the connections (a WebSocket RPC in particular).
   *
   * @example
   * ```ts
   * client.close();
   * ```
   */
  close(): void {
    this.rpc?.close();
  }

  // Queries: accounts and balances
  /** See {@link authQ.getAccount}. */
  readonly getAccount: Rest<typeof authQ.getAccount> = (p) => authQ.getAccount(this, p);
  /** See {@link authQ.getAccountSequence}. */
  readonly getAccountSequence: Rest<typeof authQ.getAccountSequence> = (p) =>
    authQ.getAccountSequence(this, p);
  /** See {@link bankQ.getBalances}. */
  readonly getBalances: Rest<typeof bankQ.getBalances> = (p) => bankQ.getBalances(this, p);
  /** See {@link bankQ.getBalance}. */
  readonly getBalance: Rest<typeof bankQ.getBalance> = (p) => bankQ.getBalance(this, p);
  // Subaccounts and markets
  /** See {@link subaccountsQ.getSubaccount}. */
  readonly getSubaccount: Rest<typeof subaccountsQ.getSubaccount> = (p) =>
    subaccountsQ.getSubaccount(this, p);
  /** See {@link subaccountsQ.getSubaccounts}. */
  readonly getSubaccounts: Rest<typeof subaccountsQ.getSubaccounts> = (p) =>
    subaccountsQ.getSubaccounts(this, p);
  /** See {@link marketsQ.getClobPair}. */
  readonly getClobPair: Rest<typeof marketsQ.getClobPair> = (p) => marketsQ.getClobPair(this, p);
  /** See {@link marketsQ.getClobPairs}. */
  readonly getClobPairs: Rest<typeof marketsQ.getClobPairs> = (p) => marketsQ.getClobPairs(this, p);
  /** See {@link marketsQ.getPerpetual}. */
  readonly getPerpetual: Rest<typeof marketsQ.getPerpetual> = (p) => marketsQ.getPerpetual(this, p);
  /** See {@link marketsQ.getPerpetuals}. */
  readonly getPerpetuals: Rest<typeof marketsQ.getPerpetuals> = (p) => marketsQ.getPerpetuals(this, p);
  /** See {@link marketsQ.getMarketPrice}. */
  readonly getMarketPrice: Rest<typeof marketsQ.getMarketPrice> = (p) => marketsQ.getMarketPrice(this, p);
  /** See {@link marketsQ.getMarketPrices}. */
  readonly getMarketPrices: Rest<typeof marketsQ.getMarketPrices> = (p) => marketsQ.getMarketPrices(this, p);
  /** See {@link marketsQ.getFeeTiers}. */
  readonly getFeeTiers: Rest<typeof marketsQ.getFeeTiers> = (p) => marketsQ.getFeeTiers(this, p);
  /** See {@link marketsQ.getUserFeeTier}. */
  readonly getUserFeeTier: Rest<typeof marketsQ.getUserFeeTier> = (p) => marketsQ.getUserFeeTier(this, p);
  /** See {@link marketsQ.getBlockRateLimits}. */
  readonly getBlockRateLimits: Rest<typeof marketsQ.getBlockRateLimits> = (p) =>
    marketsQ.getBlockRateLimits(this, p);
  /** See {@link marketsQ.getStatefulOrder}. */
  readonly getStatefulOrder: Rest<typeof marketsQ.getStatefulOrder> = (p) =>
    marketsQ.getStatefulOrder(this, p);
  /** See {@link marketsQ.getEquityTiers}. */
  readonly getEquityTiers: Rest<typeof marketsQ.getEquityTiers> = (p) => marketsQ.getEquityTiers(this, p);
  // Authenticators
  /** See {@link accountplusQ.getAuthenticators}. */
  readonly getAuthenticators: Rest<typeof accountplusQ.getAuthenticators> = (p) =>
    accountplusQ.getAuthenticators(this, p);
  /** See {@link accountplusQ.getAuthenticator}. */
  readonly getAuthenticator: Rest<typeof accountplusQ.getAuthenticator> = (p) =>
    accountplusQ.getAuthenticator(this, p);
  /** See {@link accountplusQ.getAccountState}. */
  readonly getAccountState: Rest<typeof accountplusQ.getAccountState> = (p) =>
    accountplusQ.getAccountState(this, p);
  // Wrap
  /** See {@link wrapQ.getWrapRules}. */
  readonly getWrapRules: Rest<typeof wrapQ.getWrapRules> = (p) => wrapQ.getWrapRules(this, p);
  /** See {@link wrapQ.getWrapRule}. */
  readonly getWrapRule: Rest<typeof wrapQ.getWrapRule> = (p) => wrapQ.getWrapRule(this, p);
  /** See {@link wrapQ.getBacking}. */
  readonly getBacking: Rest<typeof wrapQ.getBacking> = (p) => wrapQ.getBacking(this, p);
  // Bridge
  /** See {@link bridgeQ.getBridgeEventParams}. */
  readonly getBridgeEventParams: Rest<typeof bridgeQ.getBridgeEventParams> = (p) =>
    bridgeQ.getBridgeEventParams(this, p);
  /** See {@link bridgeQ.getBridgeProposeParams}. */
  readonly getBridgeProposeParams: Rest<typeof bridgeQ.getBridgeProposeParams> = (p) =>
    bridgeQ.getBridgeProposeParams(this, p);
  /** See {@link bridgeQ.getBridgeSafetyParams}. */
  readonly getBridgeSafetyParams: Rest<typeof bridgeQ.getBridgeSafetyParams> = (p) =>
    bridgeQ.getBridgeSafetyParams(this, p);
  /** See {@link bridgeQ.getAcknowledgedBridgeEventInfo}. */
  readonly getAcknowledgedBridgeEventInfo: Rest<typeof bridgeQ.getAcknowledgedBridgeEventInfo> = (p) =>
    bridgeQ.getAcknowledgedBridgeEventInfo(this, p);
  /** See {@link bridgeQ.getRecognizedBridgeEventInfo}. */
  readonly getRecognizedBridgeEventInfo: Rest<typeof bridgeQ.getRecognizedBridgeEventInfo> = (p) =>
    bridgeQ.getRecognizedBridgeEventInfo(this, p);
  /** See {@link bridgeQ.getDelayedCompleteBridgeMessages}. */
  readonly getDelayedCompleteBridgeMessages: Rest<typeof bridgeQ.getDelayedCompleteBridgeMessages> = (p) =>
    bridgeQ.getDelayedCompleteBridgeMessages(this, p);
  /** See {@link bridgeQ.getBridgeEvents}. */
  readonly getBridgeEvents: Rest<typeof bridgeQ.getBridgeEvents> = (p) => bridgeQ.getBridgeEvents(this, p);
  /** See {@link bridgeQ.getAggregatedWithdrawals}. */
  readonly getAggregatedWithdrawals: Rest<typeof bridgeQ.getAggregatedWithdrawals> = (p) =>
    bridgeQ.getAggregatedWithdrawals(this, p);
  /** See {@link bridgeQ.getAggregatedWithdrawal}. */
  readonly getAggregatedWithdrawal: Rest<typeof bridgeQ.getAggregatedWithdrawal> = (p) =>
    bridgeQ.getAggregatedWithdrawal(this, p);
  // Rate limits
  /** See {@link ratelimitQ.getLimitParams}. */
  readonly getLimitParams: Rest<typeof ratelimitQ.getLimitParams> = (p) => ratelimitQ.getLimitParams(this, p);
  /** See {@link ratelimitQ.getCapacityByDenom}. */
  readonly getCapacityByDenom: Rest<typeof ratelimitQ.getCapacityByDenom> = (p) =>
    ratelimitQ.getCapacityByDenom(this, p);
  /** See {@link ratelimitQ.getWithdrawalConfigs}. */
  readonly getWithdrawalConfigs: Rest<typeof ratelimitQ.getWithdrawalConfigs> = (p) =>
    ratelimitQ.getWithdrawalConfigs(this, p);
  /** See {@link ratelimitQ.getDailyLimits}. */
  readonly getDailyLimits: Rest<typeof ratelimitQ.getDailyLimits> = (p) => ratelimitQ.getDailyLimits(this, p);
  /** See {@link ratelimitQ.getDailyUsage}. */
  readonly getDailyUsage: Rest<typeof ratelimitQ.getDailyUsage> = (p) => ratelimitQ.getDailyUsage(this, p);
  // Affiliates
  /** See {@link affiliatesQ.getAffiliateInfo}. */
  readonly getAffiliateInfo: Rest<typeof affiliatesQ.getAffiliateInfo> = (p) =>
    affiliatesQ.getAffiliateInfo(this, p);
  /** See {@link affiliatesQ.getReferredBy}. */
  readonly getReferredBy: Rest<typeof affiliatesQ.getReferredBy> = (p) => affiliatesQ.getReferredBy(this, p);
  /** See {@link affiliatesQ.getAffiliateTiers}. */
  readonly getAffiliateTiers: Rest<typeof affiliatesQ.getAffiliateTiers> = (p) =>
    affiliatesQ.getAffiliateTiers(this, p);
  /** See {@link affiliatesQ.getAffiliateWhitelist}. */
  readonly getAffiliateWhitelist: Rest<typeof affiliatesQ.getAffiliateWhitelist> = (p) =>
    affiliatesQ.getAffiliateWhitelist(this, p);
  /** See {@link affiliatesQ.getAffiliateParameters}. */
  readonly getAffiliateParameters: Rest<typeof affiliatesQ.getAffiliateParameters> = (p) =>
    affiliatesQ.getAffiliateParameters(this, p);
  /** See {@link affiliatesQ.getAffiliateOverrides}. */
  readonly getAffiliateOverrides: Rest<typeof affiliatesQ.getAffiliateOverrides> = (p) =>
    affiliatesQ.getAffiliateOverrides(this, p);
  // Node facts
  /** See {@link nodeQ.getMinimumGasPrices}. */
  readonly getMinimumGasPrices: Rest<typeof nodeQ.getMinimumGasPrices> = (p) =>
    nodeQ.getMinimumGasPrices(this, p);
  /** See {@link nodeQ.getNodeInfo}. */
  readonly getNodeInfo: Rest<typeof nodeQ.getNodeInfo> = (p) => nodeQ.getNodeInfo(this, p);
  /** See {@link nodeQ.getAppliedPlan}. */
  readonly getAppliedPlan: Rest<typeof nodeQ.getAppliedPlan> = (p) => nodeQ.getAppliedPlan(this, p);
  /** See {@link nodeQ.checkUpgradeHistory}. */
  readonly checkUpgradeHistory: Rest<typeof nodeQ.checkUpgradeHistory> = (n, p) =>
    nodeQ.checkUpgradeHistory(this, n, p);
  /** See {@link nodeQ.getIbcChannels}. */
  readonly getIbcChannels: Rest<typeof nodeQ.getIbcChannels> = (p) => nodeQ.getIbcChannels(this, p);
  /** See {@link chainQ.getGenesis}. */
  readonly getGenesis: Rest<typeof chainQ.getGenesis> = (p) => chainQ.getGenesis(this, p);
  /** See {@link chainQ.getPeers}. */
  readonly getPeers: Rest<typeof chainQ.getPeers> = (p) => chainQ.getPeers(this, p);
  /** See {@link chainQ.getLatestBlock}. */
  readonly getLatestBlock: Rest<typeof chainQ.getLatestBlock> = (p) => chainQ.getLatestBlock(this, p);
  /** See {@link chainQ.getChainId}. */
  readonly getChainId: Rest<typeof chainQ.getChainId> = (p) => chainQ.getChainId(this, p);
  /** See {@link txsQ.getTx}. */
  readonly getTx: Rest<typeof txsQ.getTx> = (p) => txsQ.getTx(this, p);
  /** See {@link txsQ.searchTxs}. */
  readonly searchTxs: Rest<typeof txsQ.searchTxs> = (p) => txsQ.searchTxs(this, p);
  // Transactions
  /** See {@link send.sendTx}. */
  readonly sendTx: Rest<typeof send.sendTx> = (p) => send.sendTx(this, p);
  /** See {@link simulate.simulateTx}. */
  readonly simulateTx: Rest<typeof simulate.simulateTx> = (p) => simulate.simulateTx(this, p);
  /** See {@link broadcast.broadcastTx}. */
  readonly broadcastTx: Rest<typeof broadcast.broadcastTx> = (p) => broadcast.broadcastTx(this, p);
  /** See {@link broadcast.waitForTx}. */
  readonly waitForTx: Rest<typeof broadcast.waitForTx> = (p) => broadcast.waitForTx(this, p);
  /** See {@link actions.placeOrder}. */
  readonly placeOrder: Rest<typeof actions.placeOrder> = (p) => actions.placeOrder(this, p);
  /** See {@link actions.cancelOrder}. */
  readonly cancelOrder: Rest<typeof actions.cancelOrder> = (p) => actions.cancelOrder(this, p);
  /** See {@link actions.batchCancel}. */
  readonly batchCancel: Rest<typeof actions.batchCancel> = (p) => actions.batchCancel(this, p);
  /** See {@link actions.depositToSubaccount}. */
  readonly depositToSubaccount: Rest<typeof actions.depositToSubaccount> = (p) =>
    actions.depositToSubaccount(this, p);
  /** See {@link actions.withdrawFromSubaccount}. */
  readonly withdrawFromSubaccount: Rest<typeof actions.withdrawFromSubaccount> = (p) =>
    actions.withdrawFromSubaccount(this, p);
  /** See {@link actions.transfer}. */
  readonly transfer: Rest<typeof actions.transfer> = (p) => actions.transfer(this, p);
  /** See {@link actions.bankSend}. */
  readonly bankSend: Rest<typeof actions.bankSend> = (p) => actions.bankSend(this, p);
  /** See {@link actions.addAuthenticator}. */
  readonly addAuthenticator: Rest<typeof actions.addAuthenticator> = (p) => actions.addAuthenticator(this, p);
  /** See {@link actions.removeAuthenticator}. */
  readonly removeAuthenticator: Rest<typeof actions.removeAuthenticator> = (p) =>
    actions.removeAuthenticator(this, p);
  /** See {@link actions.wrapWithdraw}. */
  readonly wrapWithdraw: Rest<typeof actions.wrapWithdraw> = (p) => actions.wrapWithdraw(this, p);
  /** See {@link actions.wrapRedeem}. */
  readonly wrapRedeem: Rest<typeof actions.wrapRedeem> = (p) => actions.wrapRedeem(this, p);
  /** See {@link actions.ibcTransfer}. */
  readonly ibcTransfer: Rest<typeof actions.ibcTransfer> = (p) => actions.ibcTransfer(this, p);
  /** See {@link permissioned.registerTradingKey}. */
  readonly registerTradingKey: Rest<typeof permissioned.registerTradingKey> = (p) =>
    permissioned.registerTradingKey(this, p);
  /** See {@link permissioned.sendWithTradingKey}. */
  readonly sendWithTradingKey: Rest<typeof permissioned.sendWithTradingKey> = (p) =>
    permissioned.sendWithTradingKey(this, p);
}

/**
 * Creates a {@link NodeClient} without contacting the node (it connects lazily).
 *
 * @throws {InvalidArgumentError} without any transport, or for a bad option.
 *
 * @example
 * ```ts
 * const client = createNodeClient({ rpc: "http://127.0.0.1:26657", network: local });
 * ```
 */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  return new NodeClient(options);
}
