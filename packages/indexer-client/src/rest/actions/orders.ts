/**
 * Orders (`spec/indexer-api.md` 1.3).
 */
import {
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderResponseObject,
  type OrderSide,
  type OrderStatus,
  type OrdersResponse,
  type OrderType,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import {
  callOf,
  type LimitParams,
  type ParentSubaccountParams,
  parentQuery,
  type SubaccountParams,
  subaccountQuery,
} from "../params.js";
import { pathSegment } from "../query.js";
import {
  checkAllOf,
  checkBoolean,
  checkLimit,
  checkOneOf,
  checkPositive,
  checkTicker,
  checkTime,
  checkUuid,
  type TimeInput,
} from "../validate.js";

/**
 * Filters of the order lists. The server sorts by `goodTilBlock`, then `goodTilBlockTime`
 * (stateful orders after block-based ones), descending; `returnLatestOrders: true` gives ascending
 * order (the server reverses on any value it gets, so `false` is simply not sent).
 *
 * @example
 * ```ts
 * const filters: OrderFilters = { ticker: "BTC-USD", status: ["OPEN", "UNTRIGGERED"], limit: 50 };
 * ```
 */
export interface OrderFilters extends LimitParams {
  /** Only this market. @default undefined */
  readonly ticker?: string;
  /** Only this side. @default undefined */
  readonly side?: OrderSide;
  /** Only this type. @default undefined */
  readonly type?: OrderType;
  /** Only these types. @default undefined */
  readonly includeTypes?: readonly OrderType[];
  /** Not these types. @default undefined */
  readonly excludeTypes?: readonly OrderType[];
  /** Only these statuses. @default undefined */
  readonly status?: readonly OrderStatus[];
  /** Only orders good til at most this block (drops orders without one). @default undefined */
  readonly goodTilBlockBeforeOrAt?: number;
  /** Only orders good til after this block (exclusive). @default undefined */
  readonly goodTilBlockAfter?: number;
  /** Only orders good til at most this time (drops orders without one). @default undefined */
  readonly goodTilBlockTimeBeforeOrAt?: TimeInput;
  /** Only orders good til after this time. @default undefined */
  readonly goodTilBlockTimeAfter?: TimeInput;
  /** Ascending order instead of descending. @default false */
  readonly returnLatestOrders?: boolean;
}

function orderFilters(params: OrderFilters) {
  const byBlock = params.goodTilBlockBeforeOrAt !== undefined || params.goodTilBlockAfter !== undefined;
  const byTime =
    params.goodTilBlockTimeBeforeOrAt !== undefined || params.goodTilBlockTimeAfter !== undefined;
  if (byBlock && byTime) {
    throw new InvalidArgumentError(
      "goodTilBlockTimeBeforeOrAt",
      "cannot be combined with goodTilBlockBeforeOrAt or goodTilBlockAfter (the indexer refuses both)",
    );
  }
  return {
    limit: checkLimit(params.limit),
    ticker: params.ticker === undefined ? undefined : checkTicker("ticker", params.ticker),
    side: checkOneOf("side", params.side, ORDER_SIDES),
    type: checkOneOf("type", params.type, ORDER_TYPES),
    includeTypes: checkAllOf("includeTypes", params.includeTypes, ORDER_TYPES),
    excludeTypes: checkAllOf("excludeTypes", params.excludeTypes, ORDER_TYPES),
    status: checkAllOf("status", params.status, ORDER_STATUSES),
    goodTilBlockBeforeOrAt: checkPositive("goodTilBlockBeforeOrAt", params.goodTilBlockBeforeOrAt),
    goodTilBlockAfter: checkPositive("goodTilBlockAfter", params.goodTilBlockAfter),
    goodTilBlockTimeBeforeOrAt: checkTime("goodTilBlockTimeBeforeOrAt", params.goodTilBlockTimeBeforeOrAt),
    goodTilBlockTimeAfter: checkTime("goodTilBlockTimeAfter", params.goodTilBlockTimeAfter),
    returnLatestOrders:
      checkBoolean("returnLatestOrders", params.returnLatestOrders) === true ? true : undefined,
  };
}

/**
 * Params of {@link getOrders}.
 *
 * @example
 * ```ts
 * const params: GetOrdersParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, status: ["OPEN"] };
 * ```
 */
export interface GetOrdersParams extends SubaccountParams, OrderFilters {}

/**
 * A subaccount's orders (`GET /v4/orders`): stored orders merged with the live book (orders only
 * seen in the book are `BEST_EFFORT_OPENED`). The answer is a bare array.
 *
 * @param client - the indexer client.
 * @param params - the subaccount and filters.
 * @returns the orders.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/orders": [] }) });
 * await getOrders(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, status: ["OPEN"] }); // []
 * ```
 */
export async function getOrders(client: IndexerConnection, params: GetOrdersParams): Promise<OrdersResponse> {
  const query = { ...subaccountQuery(client, params), ...orderFilters(params) };
  return (await client.get("/v4/orders", query, callOf(params), "array")) as OrdersResponse;
}

/**
 * Params of {@link getParentOrders}.
 *
 * @example
 * ```ts
 * const params: GetParentOrdersParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentOrdersParams extends ParentSubaccountParams, OrderFilters {}

/**
 * The orders of every child of a parent subaccount (`GET /v4/orders/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and filters.
 * @returns the orders.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/orders/parentSubaccountNumber": [] }) });
 * await getParentOrders(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 }); // []
 * ```
 */
export async function getParentOrders(
  client: IndexerConnection,
  params: GetParentOrdersParams,
): Promise<OrdersResponse> {
  const query = { ...parentQuery(client, params), ...orderFilters(params) };
  return (await client.get(
    "/v4/orders/parentSubaccountNumber",
    query,
    callOf(params),
    "array",
  )) as OrdersResponse;
}

/**
 * Params of {@link getOrder}.
 *
 * @example
 * ```ts
 * const params: GetOrderParams = { orderId: "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33" };
 * ```
 */
export interface GetOrderParams extends CallOptions {
  /** The order's indexer id (a UUID). */
  readonly orderId: string;
}

/**
 * One order by its indexer id (`GET /v4/orders/:orderId`).
 *
 * @param client - the indexer client.
 * @param params - the order id.
 * @returns the order.
 * @throws IndexerNotFoundError when there is no such order.
 * @example
 * ```ts
 * const orderId = "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33";
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ [`/v4/orders/${orderId}`]: { id: orderId, status: "OPEN" } }),
 * });
 * (await getOrder(client, { orderId })).status; // "OPEN"
 * ```
 */
export async function getOrder(
  client: IndexerConnection,
  params: GetOrderParams,
): Promise<OrderResponseObject> {
  const orderId = checkUuid("orderId", params.orderId);
  return (await client.get(
    `/v4/orders/${pathSegment(orderId)}`,
    {},
    callOf(params),
    "object",
  )) as OrderResponseObject;
}
