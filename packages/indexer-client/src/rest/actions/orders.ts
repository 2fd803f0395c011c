/**
 * Orders (`spec/indexer-api.md` 1.3).
 */
import type { OrderResponseObject, OrdersResponse } from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import { call, type RouteAction } from "../call.js";
import type { GetOrderParams, GetOrdersParams, GetParentOrdersParams } from "../params.js";

function goodTil<P extends GetOrdersParams | GetParentOrdersParams>(action: RouteAction<P, OrdersResponse>) {
  return async (client: Parameters<typeof action>[0], params: P) => {
    const byBlock = params.goodTilBlockBeforeOrAt !== undefined || params.goodTilBlockAfter !== undefined;
    if (byBlock && (params.goodTilBlockTimeBeforeOrAt ?? params.goodTilBlockTimeAfter) !== undefined) {
      throw new InvalidArgumentError(
        "goodTilBlockTimeBeforeOrAt",
        "cannot be combined with goodTilBlockBeforeOrAt or goodTilBlockAfter (the indexer refuses both)",
      );
    }
    return action(client, params);
  };
}

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
 * await getOrders(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, status: ["OPEN"] }); // []
 * ```
 */
export const getOrders: RouteAction<GetOrdersParams, OrdersResponse> = goodTil(call("getOrders"));

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
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ [`/v4/orders/${orderId}`]: { id: orderId, status: "OPEN" } }) });
 * (await getOrder(client, { orderId })).status; // "OPEN"
 * ```
 */
export const getOrder: RouteAction<GetOrderParams, OrderResponseObject> = call("getOrder");

/** The orders of every child of a parent subaccount (`GET /v4/orders/parentSubaccountNumber`); a row of `restActions`. */
export const getParentOrders: RouteAction<GetParentOrdersParams, OrdersResponse> = goodTil(
  call("getParentOrders"),
);
