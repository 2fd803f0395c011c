import type { LiveSubaccount } from "@perpx/indexer-client";
import type { Market, NodeClient } from "@perpx/node-client";
import type { clob } from "@perpx/proto";
import type { HeightTracker } from "./height.js";
import { followOnNode } from "./nodeFollow.js";
import { feedOrderOf, followOnFeed } from "./orderOutcome.js";
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
  /** Whether this client cancelled it (true from the moment its cancel is sent). */
  canceled: () => boolean;
  /**
   * Whether the node accepted a cancel of it from this client (CheckTx, or inclusion): a cancel
   * still in flight, or lost on the way, is not one. Followed on the node alone, a short-term order
   * is CANCELED only then.
   * @default canceled
   */
  cancelAccepted?: () => boolean;
}

/** Blocks past a short-term order's good-til-block the feed has to show its end, before the node's blocks settle it. */
const FEED_SLACK_BLOCKS = 2n;

/**
 * Follows an order, calling `onUpdate` with each new state until a final one (or the signal
 * aborts). With the indexer's live account (`feed`): the order's state, fills, prices and fees and
 * its removal reason from the feed, read only while the feed is in sync (never from what it showed
 * before a reconnect); and the node's blocks settle it once the height passed a short-term order's
 * good-til-block (plus two blocks for the feed), the chain's time a stateful order's
 * good-til-block-time, or the feed resynced without it (a restart, a reconnect, a lost message).
 * Without a feed, from the node alone: a short-term order's fills and removal from each block's
 * proposed operations until its good-til-block, then EXPIRED; a stateful order in state at each
 * new block, and once it left state, its fills and removal from the blocks since it was placed
 * (FILLED, REJECTED with the proposer's reason, CANCELED when this client cancelled it, EXPIRED
 * past its good-til-block-time, else CANCELED: it was cancelled elsewhere). Node queries that fail
 * (a node restarting) are asked again at the next block. A fill always wins: an order whose fills
 * cover its size is FILLED, one partly filled before its end PARTIALLY_FILLED. A TWAP order is
 * followed through its suborders (see `followTwap`).
 *
 * @param params - the node client, the live height, the order, the callback for each state, the
 *   signal that stops it and, optionally, the indexer's live account.
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client/tx";
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
  const { feed, order, signal } = params;
  // A TWAP is followed on the chain's blocks, the feed adding prices, fees and removal reasons.
  if (!feed || order.wire.kind === "twap") return followOnNode(params);
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  let done = false;
  const onUpdate = (result: OrderResult) => {
    if (done) return;
    params.onUpdate(result);
    done = result.final;
  };
  const onFeed = followOnFeed({ live: feed, order, onUpdate, signal: inner.signal });
  const onChain = chainTakesOver({ ...params, feed }, inner.signal).then(() =>
    followOnNode({ ...params, onUpdate, signal: inner.signal }),
  );
  try {
    await Promise.race([onFeed, onChain]);
  } finally {
    signal.removeEventListener("abort", stop);
    inner.abort(new Error("settled"));
    onFeed.catch(() => {});
    onChain.catch(() => {});
  }
}

/**
 * True once `wire` can no longer be open: the height passed a short-term order's good-til-block
 * (plus `slackBlocks`), or the chain's time a stateful order's good-til-block-time.
 *
 * @param wire - the order as sent.
 * @param height - the live height (and its block time).
 * @param slackBlocks - blocks a short-term order is given past its good-til-block.
 * @returns whether the order surely ended.
 * @example
 * ```ts
 * const height = { current: () => 12n, latest: () => ({ height: 12n, time: new Date(0) }) } as HeightTracker;
 * pastGoodTil({ kind: "short-term", goodTilBlock: 11 } as WireOrder, height); // true
 * ```
 */
export function pastGoodTil(wire: WireOrder, height: HeightTracker, slackBlocks = 0n): boolean {
  return wire.kind === "short-term"
    ? height.current() > BigInt(wire.goodTilBlock) + slackBlocks
    : Math.floor(height.latest().time.getTime() / 1000) > wire.goodTilBlockTime;
}

/**
 * Resolves when the node's blocks must settle an order followed on the feed: once the height passed
 * a short-term order's good-til-block (plus {@link FEED_SLACK_BLOCKS}), or the chain's time a
 * stateful order's good-til-block-time, or when the feed resynced (a reconnect, a restarted
 * indexer, a lost message) without the order: whatever happened meanwhile, the chain says.
 */
function chainTakesOver(
  params: { height: HeightTracker; order: TrackedOrder; feed: LiveSubaccount },
  signal: AbortSignal,
): Promise<void> {
  const { height, order, feed } = params;
  const { wire } = order;
  const past = () => pastGoodTil(wire, height, FEED_SLACK_BLOCKS);
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      offResync();
      signal.removeEventListener("abort", abort);
    };
    const abort = () => {
      finish();
      reject(signal.reason);
    };
    const offResync = feed.on("resync", () => {
      if (settled || feedOrderOf(feed, order)) return;
      finish();
      resolve();
    });
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    void (async () => {
      let seen = height.current();
      while (!settled) {
        if (past()) {
          finish();
          resolve();
          return;
        }
        seen = await height.waitAbove(seen);
      }
    })();
  });
}
