import { InvalidArgumentError, type SubaccountRef } from "@perpx/core";
import { clob, feetiers, perpetuals, prices } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError, QueryError } from "../errors.js";
import { ORDER_FLAGS } from "../messages/orderTypes.js";
import { bech32Address, checkParams, subaccountId, uint32 } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, queryPath, unaryQuery } from "./unary.js";

function missing(path: string, what: string): QueryError {
  return new QueryError({ path, transport: "grpc", log: `the answer has no ${what}` });
}

/**
 * Parameters of the queries of one item by id.
 * @example
 * ```ts
 * await getClobPair(client, { id: 0 });
 * ```
 */
export interface ByIdParams extends QueryOptions {
  /** The id. */
  id: number;
}

/**
 * One clob pair (market): step, tick, quantum conversion exponent, status.
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`ByIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the pair: its perpetual, `stepBaseQuantums` (the size step, in base
 *   quantums), `subticksPerTick` (the price step, in subticks), `quantumConversionExponent` (which
 *   relates subticks to a human price) and its status.
 * @throws {QueryError} with `notFound` for an unknown id.
 * @example
 * ```ts
 * const btc = await getClobPair(client, { id: 0 });
 * ```
 */
export async function getClobPair(client: NodeConnection, params: ByIdParams): Promise<clob.ClobPair> {
  checkParams(params, "getClobPair");
  const method = clob.Query.method.clobPair;
  const response = await unaryQuery(client, {
    ...params,
    method: method,
    request: { id: uint32(params.id, "id") },
  });
  if (!response.clobPair) throw missing(queryPath(method), "clob_pair");
  return response.clobPair;
}

/**
 * Every clob pair (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every clob pair (all pages); rejects with `QueryError` when the node
 *   refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const pairs = await getClobPairs(client);
 * ```
 */
export async function getClobPairs(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<clob.ClobPair[]> {
  checkParams(params, "getClobPairs", true);
  return allPages(client, {
    ...params,
    method: clob.Query.method.clobPairAll,
    request: {},
    pick: (r) => r.clobPair,
  });
}

/**
 * One perpetual: params (ticker, atomic resolution...), funding index, open interest (SerializableInt
 * bytes; {@link @perpx/node-client/queries!perpetualAmounts} reads them as bigints).
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`ByIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with one perpetual: params (ticker, atomic resolution...), funding index, open
 *   interest (SerializableInt bytes; reads them as bigints); rejects with `QueryError` when the
 *   node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const perp = await getPerpetual(client, { id: 0 });
 * perp.params?.ticker; // "BTC-USD"
 * ```
 */
export async function getPerpetual(
  client: NodeConnection,
  params: ByIdParams,
): Promise<perpetuals.Perpetual> {
  checkParams(params, "getPerpetual");
  const method = perpetuals.Query.method.perpetual;
  const response = await unaryQuery(client, {
    ...params,
    method: method,
    request: { id: uint32(params.id, "id") },
  });
  if (!response.perpetual) throw missing(queryPath(method), "perpetual");
  return response.perpetual;
}

/**
 * Every perpetual (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every perpetual (all pages); rejects with `QueryError` when the node
 *   refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const perps = await getPerpetuals(client);
 * ```
 */
export async function getPerpetuals(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<perpetuals.Perpetual[]> {
  checkParams(params, "getPerpetuals", true);
  return allPages(client, {
    ...params,
    method: perpetuals.Query.method.allPerpetuals,
    request: {},
    pick: (r) => r.perpetual,
  });
}

/**
 * One oracle market price (`price × 10^exponent` USD).
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`ByIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the market's integer `price` and its `exponent`: the oracle price in USD
 *   is `price × 10^exponent`; rejects with `QueryError` (`notFound` set) for an unknown id.
 * @example
 * ```ts
 * const { price, exponent } = await getMarketPrice(client, { id: 0 });
 * ```
 */
export async function getMarketPrice(
  client: NodeConnection,
  params: ByIdParams,
): Promise<prices.MarketPrice> {
  checkParams(params, "getMarketPrice");
  const method = prices.Query.method.marketPrice;
  const response = await unaryQuery(client, {
    ...params,
    method: method,
    request: { id: uint32(params.id, "id") },
  });
  if (!response.marketPrice) throw missing(queryPath(method), "market_price");
  return response.marketPrice;
}

/**
 * Every oracle market price (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every oracle market price (all pages); rejects with `QueryError` when the
 *   node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const all = await getMarketPrices(client);
 * ```
 */
export async function getMarketPrices(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<prices.MarketPrice[]> {
  checkParams(params, "getMarketPrices", true);
  return allPages(client, {
    ...params,
    method: prices.Query.method.allMarketPrices,
    request: {},
    pick: (r) => r.marketPrices,
  });
}

/**
 * The perpetual fee tiers (maker/taker ppm and their volume requirements).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the perpetual fee tiers (maker/taker ppm and their volume requirements);
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { tiers } = await getFeeTiers(client);
 * ```
 */
export async function getFeeTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<feetiers.PerpetualFeeParams> {
  checkParams(params, "getFeeTiers", true);
  const method = feetiers.Query.method.perpetualFeeParams;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.params) throw missing(queryPath(method), "params");
  return response.params;
}

/**
 * Parameters of {@link getUserFeeTier}.
 * @example
 * ```ts
 * await getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export interface GetUserFeeTierParams extends QueryOptions {
  /** The account (bech32). */
  user: string;
}

/**
 * The fee tier an account is in, and its index.
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetUserFeeTierParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with the fee tier an account is in, and its index; rejects with `QueryError`
 *   when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { index, tier } = await getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export async function getUserFeeTier(
  client: NodeConnection,
  params: GetUserFeeTierParams,
): Promise<{ index: number; tier: feetiers.PerpetualFeeTier | undefined }> {
  checkParams(params, "getUserFeeTier");
  const response = await unaryQuery(client, {
    ...params,
    method: feetiers.Query.method.userFeeTier,
    request: { user: bech32Address(params.user) },
  });
  return { index: response.index, tier: response.tier };
}

/**
 * The block rate limits of orders (per account, per N blocks).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the block rate limits of orders (per account, per N blocks); rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const limits = await getBlockRateLimits(client);
 * limits.maxStatefulOrdersPerNBlocks; // [{ numBlocks: 1, limit: 2 }, ...]
 * ```
 */
export async function getBlockRateLimits(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<clob.BlockRateLimitConfiguration> {
  checkParams(params, "getBlockRateLimits", true);
  const method = clob.Query.method.blockRateLimitConfiguration;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.blockRateLimitConfig) throw missing(queryPath(method), "block_rate_limit_config");
  return response.blockRateLimitConfig;
}

/**
 * The equity tiers: how many open orders a subaccount's net collateral allows.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the equity tiers: how many open orders a subaccount's net collateral
 *   allows; rejects with `QueryError` when the node refuses the query (`notFound` set for a missing
 *   entry).
 * @example
 * ```ts
 * const tiers = await getEquityTiers(client);
 * ```
 */
export async function getEquityTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<clob.EquityTierLimitConfiguration> {
  checkParams(params, "getEquityTiers", true);
  const method = clob.Query.method.equityTierLimitConfiguration;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.equityTierLimitConfig) throw missing(queryPath(method), "equity_tier_limit_config");
  return response.equityTierLimitConfig;
}

/**
 * Parameters of {@link getStatefulOrder}.
 * @example
 * ```ts
 * await getStatefulOrder(client, { order: { subaccount, clientId: 7, clobPairId: 0, kind: "conditional" } });
 * ```
 */
export interface GetStatefulOrderParams extends QueryOptions {
  /** The order: its subaccount, client id, clob pair and kind (long-term or conditional). */
  order: {
    subaccount: SubaccountRef;
    clientId: number;
    clobPairId: number;
    kind: "long-term" | "conditional";
  };
}

/**
 * A resting stateful (long-term or conditional) order: its placement, filled amount and whether a
 * conditional order triggered.
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetStatefulOrderParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns the order, or `undefined` when it is not in state (never placed, filled, cancelled or expired).
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const order = { subaccount, clientId: 118, market: btc, kind: "long-term", goodTilBlockTime } as const;
 * await client.placeOrder({ ...order, signer: wallet, side: "BUY", size: "0.001", price: "30000" });
 * const placed = await getStatefulOrder(client, { order: { subaccount, clientId: 118, clobPairId: btc.clobPairId, kind: "long-term" } });
 * placed?.orderPlacement?.order?.quantums; // 10000000n
 * await client.cancelOrder({ ...order, signer: wallet });
 * ```
 */
export async function getStatefulOrder(
  client: NodeConnection,
  params: GetStatefulOrderParams,
): Promise<clob.QueryStatefulOrderResponse | undefined> {
  checkParams(params, "getStatefulOrder");
  checkParams(params.order, "getStatefulOrder order");
  const { subaccount, clientId, clobPairId, kind } = params.order;
  if (kind !== "long-term" && kind !== "conditional") {
    throw new InvalidArgumentError(
      "order.kind",
      `a stateful order is long-term or conditional, got ${JSON.stringify(String(kind))}`,
    );
  }
  try {
    return await unaryQuery(client, {
      ...params,
      method: clob.Query.method.statefulOrder,
      request: {
        orderId: {
          subaccountId: subaccountId(subaccount, "order.subaccount"),
          clientId: uint32(clientId, "order.clientId"),
          clobPairId: uint32(clobPairId, "order.clobPairId"),
          orderFlags: ORDER_FLAGS[kind],
        },
      },
    });
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}
