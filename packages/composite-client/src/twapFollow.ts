/**
 * Following a TWAP order to its end. The chain keeps a TWAP apart from other stateful orders (no
 * node query answers it) and places its suborders itself, so its course is read from the blocks,
 * by the chain's own rule: the block that includes the TWAP places its first suborder; each later
 * suborder is placed by the first block whose time (unix seconds) reaches the previous suborder's
 * block time plus the interval; once every leg is placed, the next such block removes the TWAP. A
 * suborder (order flags 256, the TWAP's subaccount, client id and pair) is good for 3 s, so its
 * fills land in the blocks' proposed operations soon after. A cancel of the TWAP in a block ends
 * the schedule; its in-flight suborder can still fill until its 3 s pass.
 *
 * With the indexer's live account, its fills of the TWAP (on the parent's id, or on the suborder's
 * as a devnet's indexer keeps them) give each fill its price and fee once they add up to what the
 * blocks say; and its removal reason (a suborder the chain could not place: undercollateralized)
 * ends the TWAP early.
 */
import { quantumsToSize } from "@perpx/core";
import type { OrderUpdate } from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { LiveSubaccount } from "@perpx/indexer-client";
import type { NodeClient } from "@perpx/node-client";
import {
  blockOperations,
  cancelIn,
  getBlock,
  getBlockResults,
  placementIn,
} from "@perpx/node-client/queries";
import { fillsOf, TWAP_SUBORDER_FLAGS, twapLegs } from "@perpx/node-client/tx";
import type { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
import { fillTotals, rejectionOf } from "./orderOutcome.js";
import type { OrderFill, OrderResult, OrderStatus, TrackedOrder } from "./tracking.js";

/** A suborder is good for this many seconds after the block that placed it (the chain's rule). */
const SUBORDER_LIFE_SECONDS = 3;
/** Blocks the indexer's fills may trail the chain's before the node's fills are reported alone. */
const FEED_SLACK_BLOCKS = 2n;

/** What following a TWAP needs. */
interface TwapFollow {
  node: NodeClient;
  height: HeightTracker;
  order: TrackedOrder;
  onUpdate: (result: OrderResult) => void;
  signal: AbortSignal;
  feed?: LiveSubaccount | undefined;
}

/** The course of a TWAP, as the blocks read so far show it. */
interface Course {
  /** The block time (unix seconds) that placed the latest suborder; undefined before inclusion. */
  lastPlaced: number | undefined;
  /** Suborders placed. */
  legsPlaced: number;
  /** When the next suborder (or, with every leg placed, the TWAP's removal) is due, unix seconds. */
  nextDue: number;
  /** Set once a cancel of the TWAP was included: no suborder is placed after it. */
  canceledAt: number | undefined;
  /** Set once the schedule ran out: the block that removed the TWAP. */
  completed: boolean;
  /** The suborders' fills. */
  fills: OrderFill[];
  filled: bigint;
}

/** The indexer's view of this TWAP: its orders (parent, and a devnet's suborder) and their fills. */
function onFeed(live: LiveSubaccount | undefined, order: TrackedOrder) {
  if (live?.subscription.state !== "live") return undefined;
  const clientId = String(order.wire.clientId);
  const clobPairId = String(order.market.clobPairId);
  const mine = live.view
    .orders()
    .filter(
      (o) =>
        o.clientId === clientId &&
        o.clobPairId === clobPairId &&
        (o.orderFlags === "128" || o.orderFlags === String(TWAP_SUBORDER_FLAGS)),
    );
  const ids = new Set(mine.map((o) => o.id));
  const fills = live.view.fills().filter((f) => f.orderId !== undefined && ids.has(f.orderId));
  const parent: OrderUpdate | undefined = mine.find((o) => o.orderFlags === "128");
  return {
    parent,
    fills: fills.map(
      (f): OrderFill => ({
        size: f.size,
        height: BigInt(f.createdAtHeight),
        role: f.liquidity === "TAKER" ? "taker" : "maker",
        price: f.price,
        fee: f.fee,
      }),
    ),
  };
}

/**
 * Follows a TWAP order (see the module comment), calling `onUpdate` with each new state until a
 * final one, or until the signal aborts (rejecting with its reason): `RESTING` once the chain
 * included it, `PARTIALLY_FILLED` as its suborders fill, and at its end `FILLED` (the suborders'
 * fills cover its size), `PARTIALLY_FILLED` (final) or `EXPIRED` (nothing filled) when its schedule
 * ran out, `CANCELED` when a cancel removed it, `REJECTED` when the indexer says the chain removed
 * it (a suborder it could not place). Queries the node cannot answer are asked again at the next
 * block.
 *
 * @param params - the node, the live height, the order and, when there is one, the live account.
 * @returns when a final state was reported.
 */
export async function followTwap(params: TwapFollow): Promise<void> {
  const { node, height, order, onUpdate, signal } = params;
  const { wire, market } = order;
  if (wire.kind !== "twap") {
    throw new InvalidArgumentError("order", `followTwap follows TWAP orders, got a ${wire.kind} order`);
  }
  const legs = twapLegs(wire.twap);
  const interval = wire.twap.intervalSeconds;
  const size = wire.quantums;
  const parentId = order.orderId;
  const suborderId: clob.OrderId = { ...parentId, orderFlags: TWAP_SUBORDER_FLAGS };
  const course: Course = {
    lastPlaced: undefined,
    legsPlaced: 0,
    nextDue: 0,
    canceledAt: undefined,
    completed: false,
    fills: [],
    filled: 0n,
  };
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const persistently = async <T>(query: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await query();
      } catch {
        if (signal.aborted) throw signal.reason;
        await Promise.race([height.waitAbove(height.current()), aborted]);
      }
    }
  };
  let last = "";
  let endedAt: bigint | undefined;
  const report = (status: OrderStatus, final: boolean, reason: string | undefined, scanned: bigint) => {
    const feed = onFeed(params.feed, order);
    const chainSize = quantumsToSize(course.filled, market);
    const fromFeed = feed !== undefined && fillTotals(feed.fills).filledSize === chainSize;
    // At the end, give the indexer a moment to deliver the fills' prices and fees.
    if (final && !fromFeed && feed !== undefined && scanned <= (endedAt ?? scanned) + FEED_SLACK_BLOCKS) {
      endedAt ??= scanned;
      return false;
    }
    const fills = fromFeed ? feed.fills : course.fills;
    const totals = fillTotals(fills);
    const result: OrderResult = {
      status,
      final,
      filledSize: chainSize,
      fills: [...fills],
      averagePrice: totals.averagePrice,
      fees: totals.fees,
      reason,
    };
    const key = `${status}/${chainSize}/${fills.length}/${final}`;
    if (key !== last) {
      last = key;
      onUpdate(result);
    }
    return final;
  };
  // From the height it was sent at: the block that includes it is that one or a later one.
  let next = order.placedAtHeight;
  for (;;) {
    const latest = await Promise.race([height.waitAbove(next - 1n), aborted]);
    for (; next <= latest; next++) {
      const at = next;
      const block = await persistently(() => getBlock(node, { height: at, signal }));
      const time = Math.floor(block.header.time.getTime() / 1000);
      const operations = blockOperations(block);
      for (const fill of operations === undefined ? [] : fillsOf(operations, suborderId, at)) {
        course.fills.push({ size: quantumsToSize(fill.quantums, market), height: at, role: fill.role });
        course.filled += fill.quantums;
      }
      if (course.lastPlaced === undefined) {
        if (placementIn(block, parentId) !== undefined) {
          // The including block places the first suborder (the TWAP's trigger is its own time).
          course.lastPlaced = time;
          course.legsPlaced = 1;
          course.nextDue = time + interval;
        }
      } else if (course.canceledAt === undefined && !course.completed) {
        const cancel = cancelIn(block, parentId);
        const results =
          cancel < 0 ? [] : await persistently(() => getBlockResults(node, { height: at, signal }));
        if (cancel >= 0 && results[cancel]?.code === 0) course.canceledAt = time;
        else if (time >= course.nextDue) {
          if (course.legsPlaced < legs && course.filled < size) {
            course.legsPlaced += 1;
            course.lastPlaced = time;
            course.nextDue = time + interval;
          } else course.completed = true;
        }
      }
      const removal = onFeed(params.feed, order)?.parent;
      const reason = removal?.status === "CANCELED" ? removal.removalReason : undefined;
      const rejection = reason === undefined ? undefined : rejectionOf(reason);
      const settled = course.lastPlaced !== undefined && time > course.lastPlaced + SUBORDER_LIFE_SECONDS;
      let done = false;
      if (course.filled >= size) done = report("FILLED", true, undefined, at);
      else if (course.completed || ((course.canceledAt !== undefined || rejection) && settled)) {
        const partly = course.filled > 0n;
        const status: OrderStatus = partly
          ? "PARTIALLY_FILLED"
          : course.completed
            ? "EXPIRED"
            : rejection
              ? "REJECTED"
              : "CANCELED";
        const why = course.completed
          ? "twap_completed"
          : (rejection ?? (order.canceled() ? "user_canceled" : "canceled"));
        done = report(status, true, why, at);
      } else if (course.lastPlaced !== undefined) {
        done = report(course.filled > 0n ? "PARTIALLY_FILLED" : "RESTING", false, undefined, at);
      }
      if (done) return;
    }
  }
}
