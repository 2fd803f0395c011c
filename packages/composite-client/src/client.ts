import {
  assertKnownKeys,
  checkDelayMs,
  ENDPOINT_NAMES,
  type EndpointName,
  type Env,
  getEndpoint,
  indexerSocketUrl,
  type Network,
  type NetworkConfig,
  type NetworkName,
  optionKeys,
  resolveNetwork,
  type TradingCredential,
  validateEndpointUrl,
} from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { createIndexerClient, type IndexerClient } from "@perpx/indexer-client";
import { createNodeClient, type NodeClient, type TxSigner } from "@perpx/node-client";
import { getAuthenticators } from "@perpx/node-client/queries";
import { encodeAuthenticatorConfig, tradingKeyAuthenticator } from "@perpx/node-client/tx";
import { type TradingKey, tradingKeyFromCredential } from "@perpx/node-client/wallets";
import { ClientIds } from "./clientIds.js";
import { type LiveFeed, startLiveFeed } from "./feed.js";
import { type HeightTracker, startHeightTracker } from "./height.js";
import { type CompositeMarket, createMarketCache, type MarketCache } from "./markets.js";

/**
 * The endpoints `connect` takes: core's endpoint names, plus the devnet's extra `grpcTls` and
 * `nodeRpcWs` so a devnet's `endpoints` object passes as it is. With `grpcCaCert`, gRPC goes to
 * `grpcTls` when it is given (the CA belongs to the TLS port; `grpc` is the devnet's h2c one).
 * `nodeRpcWs` is the same node as `nodeRpc`, whose socket the client derives itself.
 *
 * @example
 * ```ts
 * const endpoints: ConnectEndpoints = devnet.endpoints;
 * endpoints.grpcTls?.startsWith("https://"); // true
 * ```
 */
export type ConnectEndpoints = Partial<Record<EndpointName, string>> & {
  /** gRPC over TLS (a devnet's), used instead of `grpc` when `grpcCaCert` is given. */
  grpcTls?: string;
  /** The node's WebSocket RPC (a devnet's): accepted, and the same node as `nodeRpc`. */
  nodeRpcWs?: string;
};

const DEVNET_ENDPOINT_KEYS = ["grpcTls", "nodeRpcWs"] as const;

/**
 * Options of {@link CompositeClient.connect}.
 *
 * @example
 * ```ts
 * import { LocalWallet } from "@perpx/node-client/wallets";
 *
 * const options: ConnectOptions = { network: "local", wallet: LocalWallet.fromMnemonic(mnemonic) };
 * options.wallet?.address === wallet.address; // true
 * ```
 */
export interface ConnectOptions {
  /**
   * A preset name, a {@link Network}, or a network already resolved by core's `resolveNetwork`.
   * @default the value of PERPX_NETWORK in `env`, else "local"
   */
  network?: NetworkName | Network | NetworkConfig;
  /**
   * Endpoint URLs; each wins over `env` and the preset. A devnet's `endpoints` object is taken as
   * it is (see {@link ConnectEndpoints}). Connecting refuses a network that lacks a required
   * endpoint (`nodeRpc`, `indexer`, `indexerWs`), naming every missing one and its variable.
   * @default {}
   */
  endpoints?: ConnectEndpoints;
  /**
   * Where `PERPX_NETWORK` and the `PERPX_*_URL` variables are read from (e.g. `process.env`).
   * @default {}
   */
  env?: Env;
  /**
   * The wallet that trades (and owns the subaccount). Give at most one of `wallet`, `signer`, `credential`.
   * @default undefined (read-only)
   */
  wallet?: TxSigner;
  /**
   * Any signer (an external or hardware one), used as `wallet`.
   * @default undefined
   */
  signer?: TxSigner;
  /**
   * A trading credential (`{ tradingPrivateKey, masterAddress }`, base64 JSON or decoded): the bot
   * trades the master's subaccount 0 with the key, and only places and cancels orders.
   * @default undefined
   */
  credential?: string | TradingCredential;
  /**
   * The authenticator id the credential's key was registered under (`registerTradingKey`).
   * @default looked up among the master account's authenticators
   */
  authenticatorId?: bigint;
  /**
   * The subaccount traded.
   * @default 0
   */
  subaccountNumber?: number;
  /**
   * PEM of the CA that signed the gRPC endpoint's certificate (a devnet's `caPem`); gRPC then goes
   * to `endpoints.grpcTls` when given, else to `grpc`, which must be `https://`.
   * @default undefined (the system's CAs; a devnet's `grpc` is h2c and needs none)
   */
  grpcCaCert?: string;
  /**
   * Follow the height with a block subscription over the node's WebSocket RPC (`nodeRpc` with
   * `ws://` or `wss://` for `http://` or `https://`, at its `/websocket` path) instead of polling.
   * @default false
   */
  subscribeBlocks?: boolean;
  /**
   * How often markets are refreshed in the background, ms (0: never).
   * @default 10000
   */
  marketRefreshIntervalMs?: number;
  /**
   * How often the height and transactions are polled, ms.
   * @default 500
   */
  pollIntervalMs?: number;
  /**
   * The deadline of each node and indexer call, ms, unless the call gives its own `timeoutMs`: raise
   * it on a slow link or a busy machine, where a read can take longer than the default.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * How long a send waits for its block (a stateful order, a cancel, a transfer), ms: the wait looks
   * again through a flaky node until then, and a place or cancel still unseen ends in
   * `OrderOutcomeUnknownError` (its cause a `TxInclusionTimeoutError`).
   * @default 60000
   */
  commitTimeoutMs?: number;
  /**
   * Keep the height, the markets and the account live from the indexer's WebSocket (when the
   * network has an `indexerWs` endpoint); the node poll and the market schedule only run while the
   * feed is down or stalled.
   * @default true
   */
  liveFeed?: boolean;
}

/**
 * Who signs, resolved from the connect options.
 *
 * @example
 * ```ts
 * const trader: Trader = { kind: "wallet", signer: wallet, owner: wallet.address };
 * ```
 */
export type Trader =
  | { kind: "wallet"; signer: TxSigner; owner: string }
  | { kind: "tradingKey"; tradingKey: TradingKey; authenticatorId: bigint; owner: string };

/**
 * What a connected client holds: the node client, the live height, the markets, the client ids.
 *
 * @example
 * ```ts
 * const { node, height, markets } = client.context;
 * ```
 */
export interface ClientContext {
  /** The resolved network and endpoints. */
  config: NetworkConfig;
  /** The node client. */
  node: NodeClient;
  /** The indexer's REST client, when the network has an indexer endpoint. */
  indexer: IndexerClient | undefined;
  /** The live chain height. */
  height: HeightTracker;
  /** Markets by ticker. */
  markets: MarketCache;
  /** Client ids per subaccount and market. */
  clientIds: ClientIds;
  /** The trader, or undefined when read-only. */
  trader: Trader | undefined;
  /** The subaccount number traded. */
  subaccountNumber: number;
  /** The indexer's live feed, when the network has an `indexerWs` endpoint and it answered. */
  feed: LiveFeed | undefined;
  /**
   * The subaccount's leverage choices (initial margin fraction, ppm, by clob pair) as last read by
   * `account()` or set by `setLeverage`; undefined until then.
   */
  leverage: Map<number, number> | undefined;
  /** True once the client was closed: nothing is signed or sent for it any more. */
  closed?: boolean | undefined;
}

const CONNECT_KEYS = optionKeys<ConnectOptions>({
  network: true,
  endpoints: true,
  env: true,
  wallet: true,
  signer: true,
  credential: true,
  authenticatorId: true,
  subaccountNumber: true,
  grpcCaCert: true,
  subscribeBlocks: true,
  marketRefreshIntervalMs: true,
  pollIntervalMs: true,
  timeoutMs: true,
  commitTimeoutMs: true,
  liveFeed: true,
});

/**
 * Refuses connect options the client does not know (`caPem` for `grpcCaCert`), at the top level
 * and in `endpoints`, so no setting the caller meant is silently left out.
 */
function checkConnectOptions(options: ConnectOptions): void {
  const { marketRefreshIntervalMs } = options;
  assertKnownKeys(options, CONNECT_KEYS, "CompositeClient.connect");
  if (marketRefreshIntervalMs !== undefined) {
    checkDelayMs(marketRefreshIntervalMs, "marketRefreshIntervalMs", true);
  }
  if (options.endpoints !== undefined) {
    assertKnownKeys(
      options.endpoints,
      [...ENDPOINT_NAMES, ...DEVNET_ENDPOINT_KEYS],
      "CompositeClient.connect",
      "endpoints",
    );
  }
}

function isNetworkConfig(network: ConnectOptions["network"]): network is NetworkConfig {
  return typeof network === "object" && network !== null && "endpoints" in network && "network" in network;
}

async function traderOf(options: ConnectOptions, node: NodeClient): Promise<Trader | undefined> {
  const given = (["wallet", "signer", "credential"] as const).filter((k) => options[k] !== undefined);
  if (given.length > 1) {
    throw new InvalidArgumentError(given.join(", "), "give at most one of wallet, signer or credential");
  }
  const signer = options.wallet ?? options.signer;
  if (signer) return { kind: "wallet", signer, owner: signer.address };
  if (options.credential === undefined) return undefined;
  if ((options.subaccountNumber ?? 0) !== 0) {
    throw new InvalidArgumentError(
      "subaccountNumber",
      `a trading key trades only subaccount 0 of its master account, not ${String(options.subaccountNumber)}`,
    );
  }
  const tradingKey = tradingKeyFromCredential(options.credential);
  const authenticatorId = options.authenticatorId ?? (await findAuthenticator(node, tradingKey));
  return { kind: "tradingKey", tradingKey, authenticatorId, owner: tradingKey.masterAddress };
}

async function findAuthenticator(node: NodeClient, tradingKey: TradingKey): Promise<bigint> {
  const config = encodeAuthenticatorConfig(tradingKeyAuthenticator(tradingKey.wallet.publicKey)).join();
  const authenticators = await getAuthenticators(node, { address: tradingKey.masterAddress });
  const match = authenticators
    .filter((a) => a.type === "AllOf" && a.config.join() === config)
    .sort((a, b) => (a.id < b.id ? 1 : -1))[0];
  if (!match) {
    throw new InvalidArgumentError(
      "credential",
      `the master account ${tradingKey.masterAddress} has no authenticator for this trading key; register it first`,
    );
  }
  return match.id;
}

/**
 * Connects: resolves the network, builds the node client, starts the live height and the market
 * cache, and resolves the trader (none: read-only).
 *
 * @param options - see `ConnectOptions`: each option is documented there.
 * @returns resolves with the connection every action takes.
 * @throws {InvalidArgumentError | UnknownNetworkError} for bad options.
 * @throws {MissingEndpointError} naming every endpoint left unset when a required one is (not for a
 *   resolved `NetworkConfig`, which is taken as it is).
 * @throws {TransportError} when the node does not answer.
 *
 * @example
 * ```ts
 * const context = await connectContext(devnetOptions); // no wallet: read-only
 * context.trader; // undefined
 * context.config.network.name; // "local"
 * context.height.stop();
 * context.markets.stop();
 * context.node.close();
 * ```
 */
export async function connectContext(options: ConnectOptions = {}): Promise<ClientContext> {
  checkConnectOptions(options);
  const config = isNetworkConfig(options.network)
    ? options.network
    : resolveNetwork({
        network: options.network,
        endpoints: options.endpoints,
        env: options.env,
        requireEndpoints: true,
      });
  const grpcTls = options.grpcCaCert ? options.endpoints?.grpcTls : undefined;
  const grpcUrl = grpcTls ? validateEndpointUrl("grpc", grpcTls, "endpoints.grpcTls") : config.endpoints.grpc;
  const rpc = getEndpoint(config, "nodeRpc");
  const node = createNodeClient({
    nodeRpc: options.subscribeBlocks ? rpc.replace(/^http/, "ws") : rpc,
    ...(config.endpoints.nodeRest ? { nodeRest: config.endpoints.nodeRest } : {}),
    ...(grpcUrl
      ? { grpc: { url: grpcUrl, ...(options.grpcCaCert ? { caCert: options.grpcCaCert } : {}) } }
      : {}),
    network: config.network,
    pollIntervalMs: options.pollIntervalMs ?? 500,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.commitTimeoutMs === undefined ? {} : { commitTimeoutMs: options.commitTimeoutMs }),
  });
  let height: HeightTracker | undefined;
  let markets: MarketCache | undefined;
  let feed: LiveFeed | undefined;
  const live = () => feed?.live() === true;
  try {
    const trader = await traderOf(options, node);
    height = await startHeightTracker({
      node,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      skipPoll: live,
    });
    const indexerUrl = config.endpoints.indexer;
    const indexer = indexerUrl
      ? createIndexerClient({
          baseUrl: indexerUrl,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        })
      : undefined;
    markets = createMarketCache({
      node,
      indexer,
      refreshIntervalMs: options.marketRefreshIntervalMs ?? 10_000,
      skipRefresh: live,
    });
    const subaccountNumber = options.subaccountNumber ?? 0;
    if (options.liveFeed !== false && config.endpoints.indexerWs) {
      feed = await startLiveFeed({
        url: indexerSocketUrl(config),
        height,
        markets,
        subaccount: trader ? { owner: trader.owner, number: subaccountNumber } : undefined,
      }).catch(() => undefined); // no feed: the node poll and the market schedule keep the caches
    }
    return {
      config,
      node,
      indexer,
      height,
      markets,
      clientIds: new ClientIds(),
      trader,
      subaccountNumber,
      feed,
      leverage: undefined,
    };
  } catch (error) {
    height?.stop();
    markets?.stop();
    node.close();
    throw error;
  }
}

/**
 * The market of a ticker from the cache (loading it once).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param ticker - the market's ticker, such as `BTC-USD`.
 * @returns resolves with the market and its conversion facts; rejects with `InvalidArgumentError`
 *   for a ticker the chain does not list.
 * @example
 * ```ts
 * const btc = await marketOf(context, "BTC-USD");
 * ```
 */
export function marketOf(context: ClientContext, ticker: string): Promise<CompositeMarket> {
  return context.markets.get(ticker);
}
