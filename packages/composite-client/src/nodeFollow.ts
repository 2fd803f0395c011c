/**
 * Following an order on the node alone: the fills and removals of each block's proposed
 * operations, and a stateful order's presence in state. The node may be unreachable for a while
 * (restarting, a dropped connection): each query is then asked again at the next block, and the
 * order's end is still derived from the height (a short-term order cannot fill past its
 * good-til-block) and from the chain's time (a stateful one past its good-til-block-time).
 */
import { quantumsToSize } from "@perpx/core";
import type { LiveSubaccount } from "@perpx/indexer-client";
import type { NodeClient } from "@perpx/node-client";
import { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
import { rejectionOf } from "./orderOutcome.js";
import type { OrderFill, OrderResult, OrderStatus, TrackedOrder } from "./tracking.js";
import { followTwap } from "./twapFollow.js";

const FINAL: ReadonlySet<OrderStatus> = new Set(["FILLED", "CANCELED", "EXPIRED", "REJECTED"]);

/** What following an order on the node needs. */
interface NodeFollow {
  node: NodeClient;
  height: HeightTracker;
  order: TrackedOrder;
  onUpdate: (result: OrderResult) => void;
  signal: AbortSignal;
  /** The indexer's live account: a TWAP's fill prices, fees and removal reason (other orders ignore it). */
  feed?: LiveSubaccount | undefined;
}

function result(
  status: OrderStatus,
  filled: bigint,
  order: TrackedOrder,
  fills: readonly OrderFill[],
  final?: boolean,
  reason?: string,
): OrderResult {
  return {
    status,
    final: final ?? FINAL.has(status),
    filledSize: quantumsToSize(filled, order.market),
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
  const name = String(clob.OrderRemoval_RemovalReason[reason] ?? reason).toLowerCase();
  const rejection = rejectionOf(name);
  return {
    status: filled > 0n ? "PARTIALLY_FILLED" : rejection ? "REJECTED" : "CANCELED",
    reason: rejection ?? name,
  };
}

/**
 * The steps of a node follow: the next block (or the abort), and node queries that are asked
 * again at the next block while the node cannot answer.
 */
function steps(params: NodeFollow) {
  const { height, signal } = params;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const nextBlock = (above: bigint) => Promise.race([height.waitAbove(above), aborted]);
  const persistently = async <T>(query: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await query();
      } catch {
        if (signal.aborted) throw signal.reason;
        // The node cannot answer now (restarting, unreachable): ask again at the next block.
        await nextBlock(height.current());
      }
    }
  };
  return { nextBlock, persistently };
}

/**
 * Follows an order on the node alone, calling `onUpdate` with each new state until a final one
 * (or the signal aborts, rejecting with its reason). A short-term order: its fills and removal in
 * each block's proposed operations until its good-til-block, then EXPIRED (or PARTIALLY_FILLED,
 * FILLED). A stateful order: in state at each new block (RESTING, PARTIALLY_FILLED), and once it
 * left state, its fills and removal in the blocks since it was placed (FILLED, REJECTED with the
 * proposer's reason, EXPIRED once the chain's time passed its good-til-block-time, CANCELED).
 * A TWAP: through its suborders (see `followTwap`). Queries the node cannot answer are asked
 * again at the next block.
 */
export async function followOnNode(params: NodeFollow): Promise<void> {
  const { node, height, order, onUpdate, signal } = params;
  const { wire, market } = order;
  const size = wire.quantums;
  const { nextBlock, persistently } = steps(params);
  const fills: OrderFill[] = [];
  let filled = 0n;
  const scan = async (from: bigint, to: bigint) => {
    const outcome = await persistently(() =>
      node.watchShortTermOrder({
        orderId: order.orderId,
        goodTilBlock: to,
        fromHeight: from,
        quantums: size - filled,
        signal,
      }),
    );
    for (const fill of outcome.fills) {
      fills.push({ size: quantumsToSize(fill.quantums, market), height: fill.height, role: fill.role });
    }
    filled += outcome.totalFilled;
    return outcome;
  };
  if (wire.kind === "short-term") {
    // No block shows a short-term cancel: the node's acceptance of ours is the only sign of one (a
    // cancel still being sent may never arrive, and the order rest on).
    const cancelled = order.cancelAccepted ?? order.canceled;
    let from = order.placedAtHeight + 1n;
    const last = BigInt(wire.goodTilBlock);
    while (from <= last && filled < size) {
      const seen = await nextBlock(from - 1n);
      const upTo = seen < last ? seen : last;
      const outcome = await scan(from, upTo);
      if (outcome.removal) {
        const end = removed(outcome.removal.reason, filled);
        onUpdate(result(end.status, filled, order, fills, true, end.reason));
        return;
      }
      from = upTo + 1n;
      if (outcome.totalFilled > 0n && filled < size)
        onUpdate(result("PARTIALLY_FILLED", filled, order, fills, false));
      if (cancelled()) break;
    }
    const ioc = wire.timeInForce === "IOC" || wire.timeInForce === "FILL_OR_KILL";
    const status: OrderStatus =
      filled === size
        ? "FILLED"
        : filled > 0n
          ? "PARTIALLY_FILLED"
          : ioc
            ? "REJECTED"
            : cancelled()
              ? "CANCELED"
              : "EXPIRED";
    const reason =
      filled === size ? undefined : ioc ? "ioc_unfilled" : cancelled() ? "user_canceled" : "expired";
    onUpdate(result(status, filled, order, fills, true, reason));
    return;
  }
  if (wire.kind === "twap") return followTwap(params);
  let reported: OrderStatus | undefined;
  let seenHeight = order.placedAtHeight;
  for (;;) {
    const state = await persistently(() =>
      node.getStatefulOrder({
        order: {
          subaccount: wire.subaccount,
          clientId: wire.clientId,
          clobPairId: market.clobPairId,
          kind: wire.kind,
        },
        signal,
      }),
    );
    if (!state) break;
    const status: OrderStatus = state.fillAmount > 0n ? "PARTIALLY_FILLED" : "RESTING";
    if (status !== reported) onUpdate(result(status, state.fillAmount, order, [], false));
    reported = status;
    seenHeight = await nextBlock(seenHeight);
  }
  // Out of state: what the blocks since its placement say, up to the node's latest block (the
  // state read may be a block ahead of the tracked height, with the removal in that block).
  const latest = await persistently(() => node.getLatestBlock({ signal }));
  const outcome = await scan(order.placedAtHeight, latest.height);
  if (filled >= size) {
    onUpdate(result("FILLED", filled, order, fills, true));
  } else if (outcome.removal) {
    const end = removed(outcome.removal.reason, filled);
    onUpdate(result(end.status, filled, order, fills, true, end.reason));
  } else {
    // The chain's own clock: it removes an order once a block's time passed its good-til-block-time.
    const expired = Math.floor(height.latest().time.getTime() / 1000) > wire.goodTilBlockTime;
    const status: OrderStatus = filled > 0n ? "PARTIALLY_FILLED" : expired ? "EXPIRED" : "CANCELED";
    const reason = expired ? "expired" : order.canceled() ? "user_canceled" : "canceled";
    onUpdate(result(status, filled, order, fills, true, reason));
  }
}
