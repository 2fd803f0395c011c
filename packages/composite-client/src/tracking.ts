import { quantumsToSize } from "@perpx/core";
import type { LiveSubaccount } from "@perpx/indexer-client";
import type { Market, NodeClient } from "@perpx/node-client";
import { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
import { followOnFeed, rejectionOf } from "./orderOutcome.js";
import type { WireOrder } from "./orderPlan.js";

/**
 * The state of an order: final (`FILLED`, `PARTIALLY_FILLED` for an IOC or expired order that
 * filled in part, `CANCELED`, `EXPIRED`, `REJECTED`), current (`RESTING`, `PARTIALLY_FILLED`
 * while it still rests), or `UNKNOWN` (nothing observed before the timeout).
 *
 * @example
 * ```ts
 * const status: OrderStatus = "RESTING";
 * ```
 */
export type OrderStatus =
  | "FILLED"
  | "PARTIALLY_FILLED"
  | "RESTING"
  | "CANCELED"
  | "EXPIRED"
  | "REJECTED"
  | "UNKNOWN";

/**
 * One fill of an order, in human units.
 *
 * @example
 * ```ts
 * const fill: OrderFill = { size: "0.001", height: 1234n, role: "taker" };
 * ```
 */
export interface OrderFill {
  /** The size filled, in the base asset. */
  size: string;
  /** The block that settled it. */
  height: bigint;
  /** Whether the order took (`taker`) or was hit (`maker`). */
  role: "taker" | "maker";
  /** The fill price, USD (from the indexer's feed; undefined when followed on the node alone). */
  price?: string | undefined;
  /** The fee paid, USDC (negative: a rebate; as `price`). */
  fee?: string | undefined;
}

/**
 * What is known of an order.
 *
 * @example
 * ```ts
 * const handle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 5 } });
 * const { status, filledSize, final }: OrderResult = await handle.result({ timeoutMs: 10_000 });
 * [status, filledSize, final]; // ["EXPIRED", "0", true]
 * ```
 */
export interface OrderResult {
  /** Its state. */
  status: OrderStatus;
  /** Whether the state can no longer change. */
  final: boolean;
  /** The size filled so far. */
  filledSize: string;
  /** Its fills, when they are known (from the indexer's feed, or the node's blocks). */
  fills: readonly OrderFill[];
  /** The size-weighted average fill price, USD, when the fills' prices are known. */
  averagePrice: string | undefined;
  /** The fees paid, USDC (the sum of the fills' fees; "0" when unknown or none). */
  fees: string;
  /**
   * Why the order left the book when it did not fill: for `REJECTED`, `post_only_would_cross`,
   * `reduce_only`, `undercollateralized`, `self_trade` or `ioc_unfilled` (or, for a place whose
   * outcome was unknown, `not_included`: its transaction can never be included, the account's
   * sequence having moved past it; or the chain's log when it failed in its block); else
   * `user_canceled`, `expired`, or the chain's own word.
   */
  reason: string | undefined;
}

/**
 * What the tracker needs of the placed order.
 *
 * @example
 * ```ts
 * const handle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: handle.clientId, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" }, plan);
 * const tracked: TrackedOrder = { wire, orderId: handle.orderId, market: btc, placedAtHeight: 100n, canceled: () => false };
 * tracked.orderId.clientId === tracked.wire.clientId; // true
 * await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
 * ```
 */
export interface TrackedOrder {
  /** The order as sent. */
  wire: WireOrder;
  /** Its id on the chain. */
  orderId: clob.OrderId;
  /** Its market. */
  market: Market;
  /** The latest height when it was accepted. */
  placedAtHeight: bigint;
  /** Whether this client cancelled it. */
  canceled: () => boolean;
}

const FINAL: ReadonlySet<OrderStatus> = new Set(["FILLED", "CANCELED", "EXPIRED", "REJECTED"]);

function result(
  status: OrderStatus,
  filled: bigint,
  market: Market,
  fills: OrderFill[],
  final?: boolean,
  reason?: string,
): OrderResult {
  return {
    status,
    final: final ?? FINAL.has(status),
    filledSize: quantumsToSize(filled, market),
    fills: [...fills],
    averagePrice: undefined,
    fees: "0",
    reason,
  };
}

/** The status and reason of an order removed by the block proposer, in our words. */
function removed(
  reason: clob.OrderRemoval_RemovalReason,
  filled: bigint,
): { status: OrderStatus; reason: string } {
  const name = removalReasonName(reason);
  const rejection = rejectionOf(name);
  return {
    status: filled > 0n ? "PARTIALLY_FILLED" : rejection ? "REJECTED" : "CANCELED",
    reason: rejection ?? name,
  };
}

function removalReasonName(reason: clob.OrderRemoval_RemovalReason): string {
  return String(clob.OrderRemoval_RemovalReason[reason] ?? reason).toLowerCase();
}

/**
 * Follows an order, calling `onUpdate` with each new state until a final one (or the signal
 * aborts). With the indexer's live account (`feed`): the order's state, fills, prices and fees and
 * its removal reason from the feed. Without it, from the node alone: a short-term order's fills
 * and removal from each block's proposed operations until its good-til-block; a stateful order in
 * state at each new block, and once it left state, its fills and removal from the blocks since it
 * was placed (FILLED, REJECTED with the proposer's reason, CANCELED when this client cancelled it,
 * EXPIRED past its good-til time, else CANCELED: it was cancelled elsewhere).
 *
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_002, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 5 } }, plan);
 * const sent = await sendClob(context, [placeOrderMsg(wire)]);
 * const order = { wire, orderId: sent.orderId!, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const seen: string[] = [];
 * const signal = AbortSignal.timeout(10_000);
 * await followOrder({ node, height: context.height, order, onUpdate: (r) => seen.push(r.status), signal });
 * seen; // ["EXPIRED"]
 * ```
 */
export async function followOrder(params: {
  node: NodeClient;
  height: HeightTracker;
  order: TrackedOrder;
  onUpdate: (result: OrderResult) => void;
  signal: AbortSignal;
  feed?: LiveSubaccount | undefined;
}): Promise<void> {
  const { node, height, order, onUpdate, signal } = params;
  if (params.feed) return followOnFeed({ live: params.feed, order, onUpdate, signal });
  const { wire, market } = order;
  const size = wire.quantums;
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const nextBlock = (above: bigint) => Promise.race([height.waitAbove(above), aborted]);
  const fills: OrderFill[] = [];
  let filled = 0n;
  const scan = async (from: bigint, to: bigint) => {
    const outcome = await node.watchShortTermOrder({
      orderId: order.orderId,
      goodTilBlock: to,
      fromHeight: from,
      quantums: size - filled,
      signal,
    });
    for (const fill of outcome.fills) {
      fills.push({ size: quantumsToSize(fill.quantums, market), height: fill.height, role: fill.role });
    }
    filled += outcome.totalFilled;
    return outcome;
  };
  if (wire.kind === "short-term") {
    let from = order.placedAtHeight + 1n;
    const last = BigInt(wire.goodTilBlock);
    while (from <= last && filled < size) {
      const seen = await nextBlock(from - 1n);
      const upTo = seen < last ? seen : last;
      const outcome = await scan(from, upTo);
      if (outcome.removal) {
        const end = removed(outcome.removal.reason, filled);
        onUpdate(result(end.status, filled, market, fills, true, end.reason));
        return;
      }
      from = upTo + 1n;
      if (outcome.totalFilled > 0n && filled < size)
        onUpdate(result("PARTIALLY_FILLED", filled, market, fills, false));
      if (order.canceled()) break;
    }
    const ioc = wire.timeInForce === "IOC" || wire.timeInForce === "FILL_OR_KILL";
    const status: OrderStatus =
      filled === size
        ? "FILLED"
        : filled > 0n
          ? "PARTIALLY_FILLED"
          : ioc
            ? "REJECTED"
            : order.canceled()
              ? "CANCELED"
              : "EXPIRED";
    const reason =
      filled === size ? undefined : ioc ? "ioc_unfilled" : order.canceled() ? "user_canceled" : "expired";
    onUpdate(result(status, filled, market, fills, true, reason));
    return;
  }
  let reported: OrderStatus | undefined;
  let seenHeight = order.placedAtHeight;
  for (;;) {
    const state = await node.getStatefulOrder({
      order: {
        subaccount: wire.subaccount,
        clientId: wire.clientId,
        clobPairId: market.clobPairId,
        kind: wire.kind,
      },
      signal,
    });
    if (!state) break;
    const status: OrderStatus = state.fillAmount > 0n ? "PARTIALLY_FILLED" : "RESTING";
    if (status !== reported) onUpdate(result(status, state.fillAmount, market, [], false));
    reported = status;
    seenHeight = await nextBlock(seenHeight);
  }
  // Out of state: what the blocks since its placement say.
  const outcome = await scan(order.placedAtHeight, height.current());
  if (filled >= size) {
    onUpdate(result("FILLED", filled, market, fills, true));
  } else if (outcome.removal) {
    const end = removed(outcome.removal.reason, filled);
    onUpdate(result(end.status, filled, market, fills, true, end.reason));
  } else {
    const expired = Math.floor(Date.now() / 1000) > wire.goodTilBlockTime;
    const status: OrderStatus = filled > 0n ? "PARTIALLY_FILLED" : expired ? "EXPIRED" : "CANCELED";
    const reason = expired ? "expired" : order.canceled() ? "user_canceled" : "canceled";
    onUpdate(result(status, filled, market, fills, true, reason));
  }
}
