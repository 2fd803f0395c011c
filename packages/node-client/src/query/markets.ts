import type { SubaccountRef } from "@perpx/core";
import { clob, feetiers, perpetuals, prices } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError, QueryError } from "../errors.js";
import { ORDER_FLAGS } from "../messages/clob.js";
import { subaccountId, uint32 } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, queryPath, unaryQuery } from "./unary.js";

function missing(path: string, what: string): QueryError {
  return new QueryError({ path, transport: "grpc", log: `the answer has no ${what}` });
}

/**
 * Parameters of the queries of one item by id.
 *
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
 *
 * @throws {QueryError} with `notFound` for an unknown id.
 *
 * @example
 * ```ts
 * const btc = await getClobPair(client, { id: 0 });
 * ```
 */
export async function getClobPair(client: NodeConnection, params: ByIdParams): Promise<clob.ClobPair> {
  const method = clob.Query.method.clobPair;
  const response = await unaryQuery(client, method, { id: params.id }, params);
  if (!response.clobPair) throw missing(queryPath(method), "clob_pair");
  return response.clobPair;
}

/**
 * Every clob pair (all pages).
 *
 * @example
 * ```ts
 * const pairs = await getClobPairs(client);
 * ```
 */
export function getClobPairs(client: NodeConnection, params: QueryOptions = {}): Promise<clob.ClobPair[]> {
  return allPages(client, {
    ...params,
    method: clob.Query.method.clobPairAll,
    request: {},
    pick: (r) => r.clobPair,
  });
}

/**
 * One perpetual: params (ticker, atomic resolution...), funding index, open interest (SerializableInt
 * bytes; {@link perpetualAmounts} reads them as bigints).
 *
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
  const method = perpetuals.Query.method.perpetual;
  const response = await unaryQuery(client, method, { id: params.id }, params);
  if (!response.perpetual) throw missing(queryPath(method), "perpetual");
  return response.perpetual;
}

/**
 * Every perpetual (all pages).
 *
 * @example
 * ```ts
 * const perps = await getPerpetuals(client);
 * ```
 */
export function getPerpetuals(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<perpetuals.Perpetual[]> {
  return allPages(client, {
    ...params,
    method: perpetuals.Query.method.allPerpetuals,
    request: {},
    pick: (r) => r.perpetual,
  });
}

/**
 * One oracle market price (`price × 10^exponent` USD).
 *
 * @example
 * ```ts
 * const { price, exponent } = await getMarketPrice(client, { id: 0 });
 * ```
 */
export async function getMarketPrice(
  client: NodeConnection,
  params: ByIdParams,
): Promise<prices.MarketPrice> {
  const method = prices.Query.method.marketPrice;
  const response = await unaryQuery(client, method, { id: params.id }, params);
  if (!response.marketPrice) throw missing(queryPath(method), "market_price");
  return response.marketPrice;
}

/**
 * Every oracle market price (all pages).
 *
 * @example
 * ```ts
 * const all = await getMarketPrices(client);
 * ```
 */
export function getMarketPrices(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<prices.MarketPrice[]> {
  return allPages(client, {
    ...params,
    method: prices.Query.method.allMarketPrices,
    request: {},
    pick: (r) => r.marketPrices,
  });
}

/**
 * The perpetual fee tiers (maker/taker ppm and their volume requirements).
 *
 * @example
 * ```ts
 * const { tiers } = await getFeeTiers(client);
 * ```
 */
export async function getFeeTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<feetiers.PerpetualFeeParams> {
  const method = feetiers.Query.method.perpetualFeeParams;
  const response = await unaryQuery(client, method, {}, params);
  if (!response.params) throw missing(queryPath(method), "params");
  return response.params;
}

/**
 * Parameters of {@link getUserFeeTier}.
 *
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
 *
 * @example
 * ```ts
 * const { index, tier } = await getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export async function getUserFeeTier(
  client: NodeConnection,
  params: GetUserFeeTierParams,
): Promise<{ index: number; tier: feetiers.PerpetualFeeTier | undefined }> {
  const response = await unaryQuery(client, feetiers.Query.method.userFeeTier, { user: params.user }, params);
  return { index: response.index, tier: response.tier };
}

/**
 * The block rate limits of orders (per account, per N blocks).
 *
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
  const method = clob.Query.method.blockRateLimitConfiguration;
  const response = await unaryQuery(client, method, {}, params);
  if (!response.blockRateLimitConfig) throw missing(queryPath(method), "block_rate_limit_config");
  return response.blockRateLimitConfig;
}

/**
 * The equity tiers: how many open orders a subaccount's net collateral allows.
 *
 * @example
 * ```ts
 * const tiers = await getEquityTiers(client);
 * ```
 */
export async function getEquityTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<clob.EquityTierLimitConfiguration> {
  const method = clob.Query.method.equityTierLimitConfiguration;
  const response = await unaryQuery(client, method, {}, params);
  if (!response.equityTierLimitConfig) throw missing(queryPath(method), "equity_tier_limit_config");
  return response.equityTierLimitConfig;
}

/**
 * Parameters of {@link getStatefulOrder}.
 *
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
 *
 * @returns the order, or `undefined` when it is not in state (never placed, filled, cancelled or expired).
 *
 * @example
 * ```ts
 * const placed = await getStatefulOrder(client, { order: { subaccount, clientId: 7, clobPairId: 0, kind: "long-term" } });
 * placed?.fillAmount; // 0n
 * ```
 */
export async function getStatefulOrder(
  client: NodeConnection,
  params: GetStatefulOrderParams,
): Promise<clob.QueryStatefulOrderResponse | undefined> {
  const { subaccount, clientId, clobPairId, kind } = params.order;
  try {
    return await unaryQuery(
      client,
      clob.Query.method.statefulOrder,
      {
        orderId: {
          subaccountId: subaccountId(subaccount, "order.subaccount"),
          clientId: uint32(clientId, "order.clientId"),
          clobPairId: uint32(clobPairId, "order.clobPairId"),
          orderFlags: ORDER_FLAGS[kind],
        },
      },
      params,
    );
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}
