import { quantumsToSize } from "@perpx/core";
import type { Market, NodeClient } from "@perpx/node-client";
import type { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
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
  /** Its fills, when they are known (short-term orders from the node's blocks). */
  fills: readonly OrderFill[];
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
): OrderResult {
  return {
    status,
    final: final ?? FINAL.has(status),
    filledSize: quantumsToSize(filled, market),
    fills: [...fills],
  };
}

/**
 * Follows an order on the chain, calling `onUpdate` with each new state until a final one (or the
 * signal aborts). Short-term orders: their fills from each block's proposed operations until the
 * good-til-block. Stateful orders: the order in state at each new block; an order that leaves
 * state is reported CANCELED when this client cancelled it, EXPIRED past its good-til time, and
 * FILLED otherwise (the node alone does not say more).
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
}): Promise<void> {
  const { node, height, order, onUpdate, signal } = params;
  const { wire, market } = order;
  const size = wire.quantums;
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const nextBlock = (above: bigint) => Promise.race([height.waitAbove(above), aborted]);
  if (wire.kind === "short-term") {
    const fills: OrderFill[] = [];
    let filled = 0n;
    let from = order.placedAtHeight + 1n;
    const last = BigInt(wire.goodTilBlock);
    while (from <= last && filled < size) {
      const seen = await nextBlock(from - 1n);
      const upTo = seen < last ? seen : last;
      const outcome = await node.watchShortTermOrder({
        orderId: order.orderId,
        goodTilBlock: upTo,
        fromHeight: from,
        quantums: size - filled,
        signal,
      });
      for (const fill of outcome.fills) {
        fills.push({ size: quantumsToSize(fill.quantums, market), height: fill.height, role: fill.role });
      }
      filled += outcome.totalFilled;
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
          : ioc || order.canceled()
            ? "CANCELED"
            : "EXPIRED";
    onUpdate(result(status, filled, market, fills, true));
    return;
  }
  let lastFill = 0n;
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
    if (state) {
      lastFill = state.fillAmount;
      const status: OrderStatus = lastFill > 0n ? "PARTIALLY_FILLED" : "RESTING";
      if (status !== reported) onUpdate(result(status, lastFill, market, [], false));
      reported = status;
    } else {
      const expired = Math.floor(Date.now() / 1000) > wire.goodTilBlockTime;
      const status: OrderStatus = order.canceled() ? "CANCELED" : expired ? "EXPIRED" : "FILLED";
      onUpdate(result(status, status === "FILLED" ? size : lastFill, market, [], true));
      return;
    }
    seenHeight = await nextBlock(seenHeight);
  }
}
