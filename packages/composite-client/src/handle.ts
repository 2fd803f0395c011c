import { checkDelayMs, setLongTimeout } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import type { LiveSubaccount } from "@perpx/indexer-client";
import type { NodeClient } from "@perpx/node-client";
import type { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
import { followOrder, type OrderResult, type TrackedOrder } from "./tracking.js";

/**
 * An accepted order: its ids, and what became of it.
 *
 * @example
 * ```ts
 * const handle: OrderHandle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * (await handle.result({ timeoutMs: 2_000 })).status; // "RESTING"
 * ```
 */
export interface OrderHandle {
  /** The client id it was placed with. */
  readonly clientId: number;
  /** Its id on the chain. */
  readonly orderId: clob.OrderId;
  /** `short-term`, `long-term` or `conditional`. */
  readonly kind: TrackedOrder["wire"]["kind"];
  /** The market's ticker. */
  readonly market: string;
  /**
   * Its final state, or the current one when `timeoutMs` passes first (`UNKNOWN` when nothing was
   * observed). Never resubmits anything. `timeoutMs` is a non-negative number of milliseconds
   * (any size: 30 days waits 30 days; 0 answers what is known at once), 30,000 by default;
   * anything else is refused with an `InvalidArgumentError` naming `timeoutMs`.
   */
  result(options?: { timeoutMs?: number }): Promise<OrderResult>;
  /** Its states as they change, ending with the final one. */
  updates(): AsyncIterableIterator<OrderResult>;
}

/**
 * Builds the handle of an accepted order, followed on the indexer's live account when `feed` is
 * given, else on the node.
 *
 * @param params - the node client, the live height, the placed order and, optionally, the indexer's
 *   live account.
 * @returns the order's handle: `result()` resolves with its final state, `updates()` yields each
 *   state.
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client/tx";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_001, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 5 } }, plan);
 * const sent = await sendClob(context, [placeOrderMsg(wire)]);
 * const order = { wire, orderId: sent.orderId!, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const handle = orderHandle({ node, height: context.height, order });
 * (await handle.result({ timeoutMs: 10_000 })).status; // "EXPIRED"
 * ```
 */
export function orderHandle(params: {
  node: NodeClient;
  height: HeightTracker;
  order: TrackedOrder;
  feed?: LiveSubaccount | undefined;
}): OrderHandle {
  return handleOver(params.order, (onUpdate, signal) => followOrder({ ...params, onUpdate, signal }));
}

/**
 * How a handle follows its order: calls `onUpdate` with each new state until a final one, or
 * until `signal` aborts (rejecting with its reason).
 *
 * @example
 * ```ts
 * // A follower that reports one final state.
 * const once: FollowOrder = async (onUpdate) =>
 *   onUpdate({ status: "CANCELED", final: true, filledSize: "0", fills: [], averagePrice: undefined, fees: "0", reason: "user_canceled" });
 * const seen: string[] = [];
 * await once((result) => seen.push(result.status), AbortSignal.timeout(1_000));
 * seen; // ["CANCELED"]
 * ```
 */
export type FollowOrder = (onUpdate: (result: OrderResult) => void, signal: AbortSignal) => Promise<void>;

/**
 * The handle of an order followed by `follow`: `result()` waits for a final state (or answers the
 * latest, or `UNKNOWN`, at its timeout), `updates()` yields each state.
 *
 * @param order - the order as placed.
 * @param follow - how to follow it (on the node or on the indexer's feed).
 * @returns the order's handle.
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client/tx";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_011, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 5 } }, plan);
 * const sent = await sendClob(context, [placeOrderMsg(wire)]);
 * const order = { wire, orderId: sent.orderId!, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const handle = handleOver(order, (onUpdate, signal) => followOrder({ node, height: context.height, order, onUpdate, signal }));
 * (await handle.result({ timeoutMs: 10_000 })).status; // "EXPIRED"
 * ```
 */
export function handleOver(order: TrackedOrder, follow: FollowOrder): OrderHandle {
  return {
    clientId: order.wire.clientId,
    orderId: order.orderId,
    kind: order.wire.kind,
    market: order.market.ticker,
    async result(options = {}) {
      const timeoutMs = checkDelayMs(options.timeoutMs ?? 30_000, "timeoutMs", true);
      const controller = new AbortController();
      let latest: OrderResult | undefined;
      const timer = setLongTimeout(() => controller.abort(), timeoutMs);
      try {
        await follow((r) => {
          latest = r;
        }, controller.signal);
      } catch (error) {
        if (!controller.signal.aborted && !isPerpxError(error)) throw error;
      } finally {
        timer.clear();
      }
      return (
        latest ?? {
          status: "UNKNOWN",
          final: false,
          filledSize: "0",
          fills: [],
          averagePrice: undefined,
          fees: "0",
          reason: undefined,
        }
      );
    },
    async *updates() {
      const queue: OrderResult[] = [];
      let wake: (() => void) | undefined;
      let done = false;
      let failure: unknown;
      const controller = new AbortController();
      follow((r) => {
        queue.push(r);
        wake?.();
      }, controller.signal)
        .catch((error: unknown) => {
          failure = error;
        })
        .finally(() => {
          done = true;
          wake?.();
        });
      try {
        for (;;) {
          const next = queue.shift();
          if (next) {
            yield next;
            continue;
          }
          if (done) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        if (failure !== undefined) throw failure;
      } finally {
        controller.abort();
      }
    },
  };
}
