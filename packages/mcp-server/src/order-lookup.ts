/**
 * Finding the principal's orders on the indexer, whatever the account's history. A list of orders
 * holds at most 1,000, sorted by good-til (block, then time) and not by age; and
 * `returnLatestOrders`, whatever its value, sorts the oldest good-til first (the reference indexer
 * compares the query text with `true`). So a look-up never reads "the latest 1,000 orders": it asks
 * for the open orders first, or for the orders of one good-til window.
 */
import type { OrderResponseObject } from "@perpx/core/indexer";
import { type GetOrdersParams, isIndexerNotFoundError } from "@perpx/indexer-client";
import { indexerOf, openOrders } from "./accounts.js";
import type { ToolDeps } from "./tools/deps.js";
import { ToolFailure } from "./tools/result.js";

/** The most orders one list answers. */
const LIST_LIMIT = 1000;

/** A good-til window of a list of orders. */
type Window = Pick<
  GetOrdersParams,
  "goodTilBlockBeforeOrAt" | "goodTilBlockAfter" | "goodTilBlockTimeBeforeOrAt" | "goodTilBlockTimeAfter"
>;

/** The good-til windows (one per kind: block, time) that hold `orders`. */
function windowsOf(orders: readonly OrderResponseObject[]): Window[] {
  const blocks = orders.flatMap((o) => (o.goodTilBlock ? [Number(o.goodTilBlock)] : []));
  const times = orders.flatMap((o) => (o.goodTilBlockTime ? [Date.parse(o.goodTilBlockTime)] : []));
  const windows: Window[] = [];
  if (blocks.length > 0) {
    const after = Math.min(...blocks) - 1;
    windows.push({
      goodTilBlockBeforeOrAt: Math.max(...blocks),
      ...(after > 0 ? { goodTilBlockAfter: after } : {}),
    });
  }
  if (times.length > 0) {
    // Good-til times are whole seconds: the second before the earliest is outside the window.
    windows.push({
      goodTilBlockTimeBeforeOrAt: new Date(Math.max(...times)).toISOString(),
      goodTilBlockTimeAfter: new Date(Math.min(...times) - 1000).toISOString(),
    });
  }
  return windows;
}

/**
 * The principal's orders of `ticker` on subaccount `number` whose good-til lies in the window of
 * `orders` (their current state, of the ones listed there): a list that holds them whatever the
 * account's history, unless it placed over 1,000 orders of that market within the window.
 *
 * @param deps - the tools' dependencies.
 * @param ticker - the market.
 * @param orders - the orders whose window is read (of `ticker`).
 * @param number - the subaccount.
 * @returns the orders listed in the window.
 * @example
 * ```ts
 * const near = await ordersNear(deps, "BTC-USD", []);
 * near.length; // 0: no orders, no window, nothing asked
 * ```
 */
export async function ordersNear(
  deps: ToolDeps,
  ticker: string,
  orders: readonly OrderResponseObject[],
  number = 0,
): Promise<OrderResponseObject[]> {
  const indexer = indexerOf(deps.account);
  const owner = deps.account.principal.account;
  const lists = await Promise.all(
    windowsOf(orders).map((window) =>
      indexer.getOrders({ owner, number, ticker, limit: LIST_LIMIT, ...window }),
    ),
  );
  return lists.flat();
}

/**
 * The principal's orders of subaccount 0 on `ticker` by client id: the open one when there is one,
 * else the one of highest good-til among the orders listed (the indexer's default order).
 *
 * @param deps - the tools' dependencies.
 * @param ticker - the market.
 * @param clientIds - the client ids.
 * @returns the orders found, by client id (an id without an order is missing).
 * @example
 * ```ts
 * const found = await ordersByClientId(deps, "BTC-USD", [7]);
 * found.has(7); // false: this account has no order with client id 7
 * ```
 */
export async function ordersByClientId(
  deps: ToolDeps,
  ticker: string,
  clientIds: readonly number[],
): Promise<Map<number, OrderResponseObject>> {
  const found = new Map<number, OrderResponseObject>();
  const pick = (orders: readonly OrderResponseObject[]) => {
    for (const id of clientIds) {
      const order = found.has(id) ? undefined : orders.find((o) => o.clientId === String(id));
      if (order) found.set(id, order);
    }
  };
  pick(await openOrders(deps, 0, ticker));
  if (found.size < new Set(clientIds).size) {
    pick(
      await indexerOf(deps.account).getOrders({
        owner: deps.account.principal.account,
        number: 0,
        ticker,
        limit: LIST_LIMIT,
      }),
    );
  }
  return found;
}

/**
 * One of the principal's orders, by id or by client id and ticker (the open one first).
 *
 * @param deps - the tools' dependencies.
 * @param by - `orderId`, or `clientId` and `ticker`.
 * @returns the order.
 * @throws {ToolFailure} INVALID_INPUT without an id, NOT_FOUND when the indexer has no such order
 * of the principal; the indexer's own failures (unreachable, 5xx) propagate, as
 * UPSTREAM_UNAVAILABLE for the tools.
 *
 * @example
 * ```ts
 * await findOrder(deps, { clientId: 7, ticker: "BTC-USD" }); // throws ToolFailure (no such order)
 * await findOrder(deps, { clientId: 7 }); // throws ToolFailure (the ticker is missing)
 * ```
 */
export async function findOrder(
  deps: ToolDeps,
  by: { orderId?: string | undefined; clientId?: number | undefined; ticker?: string | undefined },
): Promise<OrderResponseObject> {
  if (by.orderId !== undefined) {
    // Only "no such order" is NOT_FOUND: an indexer that fails is UPSTREAM_UNAVAILABLE, never an
    // answer that the order does not exist (an agent would place it again).
    const found = await indexerOf(deps.account)
      .getOrder({ orderId: by.orderId })
      .catch((error: unknown) => {
        if (isIndexerNotFoundError(error)) return undefined;
        throw error;
      });
    if (!found?.subaccountId || found.ticker === undefined)
      throw new ToolFailure("NOT_FOUND", `no order ${by.orderId}`);
    // Any order's id can be looked up: it is the principal's when its subaccount lists it.
    const mine = await ordersNear(deps, found.ticker, [found], found.subaccountNumber);
    if (!mine.some((o) => o.id === found.id))
      throw new ToolFailure("NOT_FOUND", `no order ${by.orderId} of your account`);
    return found;
  }
  if (by.clientId === undefined || by.ticker === undefined) {
    throw new ToolFailure("INVALID_INPUT", "give orderId, or clientId and ticker");
  }
  const found = (await ordersByClientId(deps, by.ticker, [by.clientId])).get(by.clientId);
  if (!found) throw new ToolFailure("NOT_FOUND", `no order with clientId ${by.clientId} on ${by.ticker}`);
  return found;
}
