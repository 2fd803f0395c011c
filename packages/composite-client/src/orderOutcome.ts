import { Exact, quantumsToSize } from "@perpx/core";
import type { FillUpdate, OrderUpdate } from "@perpx/core/indexer";
import type { LiveSubaccount } from "@perpx/indexer-client";
import { ORDER_FLAGS } from "@perpx/node-client/tx";
import type { OrderFill, OrderResult, OrderStatus, TrackedOrder } from "./tracking.js";

/**
 * Removal reasons that mean the chain refused to keep the order (it is `REJECTED`), in the
 * indexer's words (the devnet's lower-case names, or the public indexer's upper-case enum names).
 */
const REJECTIONS: Readonly<Record<string, string>> = {
  post_only_would_cross: "post_only_would_cross",
  post_only_would_cross_maker_order: "post_only_would_cross",
  reduce_only: "reduce_only",
  reduce_only_resize: "reduce_only",
  invalid_reduce_only: "reduce_only",
  undercollateralized: "undercollateralized",
  self_trade: "self_trade",
  self_trade_error: "self_trade",
  invalid_self_trade: "self_trade",
  conditional_ioc_would_rest: "ioc_unfilled",
  conditional_ioc_would_rest_on_book: "ioc_unfilled",
  immediate_or_cancel: "ioc_unfilled",
  immediate_or_cancel_would_rest_on_book: "ioc_unfilled",
  fok_order_could_not_be_fully_filled: "ioc_unfilled",
};

const EXPIRIES = new Set(["expired", "order_expired"]);

/**
 * The rejection a removal reason means (`post_only_would_cross`, `reduce_only`,
 * `undercollateralized`, `self_trade`, `ioc_unfilled`), or undefined for a cancel, an expiry or a
 * fill. Takes the indexer's names and the chain's enum names, in any case.
 *
 * @param reason - a removal reason of the chain or the indexer.
 * @returns the order result's rejection name, or `undefined` when the removal is not a rejection.
 * @example
 * ```ts
 * rejectionOf("POST_ONLY_WOULD_CROSS_MAKER_ORDER"); // "post_only_would_cross"
 * rejectionOf("user_canceled"); // undefined
 * ```
 */
export function rejectionOf(reason: string): string | undefined {
  return REJECTIONS[reason.toLowerCase().replace(/^order_removal_reason_/, "")];
}

/** The removal reason of an indexer order in our words (lower case, the prefix `order_removal_reason_` dropped). */
function reasonOf(order: OrderUpdate): string | undefined {
  return order.removalReason?.toLowerCase().replace(/^order_removal_reason_/, "");
}

/** The precision of an average fill price: 18 decimals (the finest a denom has), half away from zero. */
const AVERAGE = { scale: 18, rounding: "halfExpand" } as const;

/**
 * Sums fills in human units, exactly: the filled size, the size-weighted average price (to 18
 * decimals) and the fees (USDC; negative for a rebate).
 *
 * @param fills - each fill's size, price and fee, as human decimal strings.
 * @returns the filled size, the average price (`undefined` without fills) and the fees, as exact
 *   decimal strings.
 * @example
 * ```ts
 * fillTotals([{ size: "0.1", price: "100", fee: "0.01" }, { size: "0.3", price: "104", fee: "0.03" }]);
 * // { filledSize: "0.4", averagePrice: "103", fees: "0.04" }
 * ```
 */
export function fillTotals(
  fills: readonly { size: string; price?: string | undefined; fee?: string | undefined }[],
): {
  filledSize: string;
  averagePrice: string | undefined;
  fees: string;
} {
  let size = new Exact(0);
  let notional = new Exact(0);
  let priced = new Exact(0);
  let fees = new Exact(0);
  for (const fill of fills) {
    size = size.plus(fill.size);
    if (fill.price !== undefined) {
      notional = notional.plus(new Exact(fill.size).times(fill.price));
      priced = priced.plus(fill.size);
    }
    if (fill.fee !== undefined) fees = fees.plus(fill.fee);
  }
  return {
    filledSize: size.toFixed(),
    averagePrice: priced.isZero() ? undefined : notional.dividedBy(priced, AVERAGE).toFixed(),
    fees: fees.toFixed(),
  };
}

/**
 * What the indexer's account feed says of one order: its state, fills (price, fee, role), average
 * fill price and fees, and the reason it was removed. `REJECTED` when the chain removed it for a
 * reason the trader did not choose (post-only would cross, reduce-only, undercollateralized, self
 * trade, an IOC that did not fill); `PARTIALLY_FILLED` and final when such an order filled in part.
 * An ended order is `final` only once the feed delivered fills for all of its filled size.
 *
 * @param order - the order as the feed has it.
 * @param fills - the feed's fills of that order.
 * @param options - `size` (the order's human size) and whether this client cancelled it.
 * @returns the result; `final` once the order can no longer change.
 *
 * @example
 * ```ts
 * const order = { id: "o1", subaccountId: "s", clientId: "7", clobPairId: "0", status: "CANCELED", orderFlags: "64", removalReason: "post_only_would_cross" } as const;
 * const result = orderOutcome(order, [], { size: "0.001", canceled: false });
 * [result.status, result.reason]; // ["REJECTED", "post_only_would_cross"]
 * ```
 */
export function orderOutcome(
  order: OrderUpdate,
  fills: readonly FillUpdate[],
  options: { size: string; canceled: boolean },
): OrderResult {
  const mine: OrderFill[] = fills.map((fill) => ({
    size: fill.size,
    height: BigInt(fill.createdAtHeight),
    role: fill.liquidity === "TAKER" ? "taker" : "maker",
    price: fill.price,
    fee: fill.fee,
  }));
  const totals = fillTotals(mine);
  // The order's own total can run ahead of the fills received (or stand alone on a snapshot).
  const filled = Exact.max(
    totals.filledSize,
    order.totalFilled ?? "0",
    order.status === "FILLED" ? options.size : "0",
  );
  const complete = filled.greaterThanOrEqualTo(options.size);
  const reason = reasonOf(order);
  let status: OrderStatus;
  // An order update can run ahead of the fill messages: final only once its fills are all in.
  let final = new Exact(totals.filledSize).greaterThanOrEqualTo(filled);
  if (order.status === "FILLED" || complete) status = "FILLED";
  else if (
    order.status === "CANCELED" ||
    order.status === "BEST_EFFORT_CANCELED" ||
    order.status === "ERROR"
  ) {
    const rejection =
      reason === undefined ? (order.status === "ERROR" ? "error" : undefined) : rejectionOf(reason);
    if (filled.greaterThan(0)) status = "PARTIALLY_FILLED";
    else if (rejection !== undefined) status = "REJECTED";
    else if (reason !== undefined && EXPIRIES.has(reason)) status = "EXPIRED";
    else status = "CANCELED";
    return {
      status,
      final,
      filledSize: filled.toFixed(),
      fills: mine,
      averagePrice: totals.averagePrice,
      fees: totals.fees,
      reason: rejection ?? reason ?? (options.canceled ? "user_canceled" : undefined),
    };
  } else {
    status = filled.greaterThan(0) ? "PARTIALLY_FILLED" : "RESTING";
    final = false;
  }
  return {
    status,
    final,
    filledSize: filled.toFixed(),
    fills: mine,
    averagePrice: totals.averagePrice,
    fees: totals.fees,
    reason: status === "FILLED" ? undefined : reason,
  };
}

/**
 * The order as the indexer's live account shows it, or undefined when it does not, or while the
 * feed is not in sync (after a drop, until the fresh snapshot): what it showed before is no
 * longer known to hold.
 */
export function feedOrderOf(live: LiveSubaccount, order: TrackedOrder): OrderUpdate | undefined {
  if (live.subscription.state !== "live") return undefined;
  const clientId = String(order.wire.clientId);
  const clobPairId = String(order.market.clobPairId);
  const flags = String(ORDER_FLAGS[order.wire.kind]);
  return live.view
    .orders()
    .find((o) => o.clientId === clientId && o.clobPairId === clobPairId && o.orderFlags === flags);
}

/**
 * Follows an order on the indexer's live account: calls `onUpdate` with each new state of it (as
 * {@link orderOutcome} reads it) until a final one, or until the signal aborts (rejecting with its
 * reason). An order the feed has not shown yet produces no update, nor does anything while the
 * feed is out of sync (reconnecting): it is read again from the fresh snapshot.
 *
 * @param params - the indexer's live account, the order, the callback for each state and the signal
 *   that stops it.
 * @example
 * ```ts
 * import { ORDER_FLAGS } from "@perpx/node-client/tx";
 * import { Exact } from "@perpx/core";
 * const price = new Exact(btc.oraclePrice).dividedBy(2, { scale: 0, rounding: "floor" }).toFixed();
 * const handle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" });
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" }, { market: btc, height: client.height(), nowMs: Date.now(), clientId: handle.clientId, subaccount });
 * const order = { wire, orderId: handle.orderId, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const seen: string[] = [];
 * const signal = AbortSignal.timeout(3_000);
 * await followOnFeed({ live: client.context.feed!.subaccount!, order, onUpdate: (r) => seen.push(r.status), signal }).catch(() => {});
 * seen[0]; // "RESTING"
 * ORDER_FLAGS[wire.kind]; // 64
 * await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
 * ```
 */
export function followOnFeed(params: {
  live: LiveSubaccount;
  order: TrackedOrder;
  onUpdate: (result: OrderResult) => void;
  signal: AbortSignal;
}): Promise<void> {
  const { live, order, onUpdate, signal } = params;
  const { wire, market } = order;
  const size = quantumsToSize(wire.quantums, market);
  return new Promise<void>((resolve, reject) => {
    let last = "";
    const check = () => {
      const found = feedOrderOf(live, order);
      if (!found) return;
      const fills = live.view.fills().filter((f) => f.orderId === found.id);
      const next = orderOutcome(found, fills, { size, canceled: order.canceled() });
      const key = `${next.status}/${next.filledSize}/${next.fills.length}`;
      if (key !== last) {
        last = key;
        onUpdate(next);
      }
      if (next.final) {
        finish();
        resolve();
      }
    };
    // What `check` throws (an `onUpdate` that fails) ends this wait with that error; it never
    // reaches the feed, whose subscription would otherwise resync for it.
    const off = live.on("change", () => {
      try {
        check();
      } catch (error) {
        finish();
        reject(error);
      }
    });
    const abort = () => {
      finish();
      reject(signal.reason);
    };
    const finish = () => {
      off();
      signal.removeEventListener("abort", abort);
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    check();
  });
}
