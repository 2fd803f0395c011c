import type { LiveSubaccount } from "@perpx/indexer-client";
import type { NodeClient } from "@perpx/node-client";
import { type FollowOrder, handleOver, type OrderHandle } from "./handle.js";
import type { HeightTracker } from "./height.js";
import { feedOrderOf } from "./orderOutcome.js";
import { followOrder, type OrderResult, type TrackedOrder } from "./tracking.js";

/** Sequences at or above this are timestamp nonces (2^40), which say nothing of order. */
const TIMESTAMP_NONCE_MIN = 1n << 40n;

/**
 * What a look-up of an order in flight needs: the node, the live height, the indexer's live
 * account when there is one, the order, and the transaction that carried it.
 *
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client/tx";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_013, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 3 } }, plan);
 * const orderId = placeOrderMsg(wire).value.order!.orderId!;
 * const order = { wire, orderId, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const lookUp: InFlightOrder = { node, height: context.height, order, txHash: "AB".repeat(32), sequence: 0n, account: subaccount.owner };
 * lookUp.order.wire.kind; // "short-term"
 * ```
 */
export interface InFlightOrder {
  /** The node client asked for the transaction, the order's state and the account's sequence. */
  node: NodeClient;
  /** The live chain height. */
  height: HeightTracker;
  /** The order as signed (`placedAtHeight`: the height when it was sent). */
  order: TrackedOrder;
  /** The indexer's live account, when there is one. */
  feed?: LiveSubaccount | undefined;
  /** The hash of the transaction that may have placed it. */
  txHash: string;
  /** The sequence (or timestamp nonce) that transaction was signed with. */
  sequence: bigint;
  /** The account whose sequence it used. */
  account: string;
}

/** Runs a node query, answering undefined while the node cannot be asked (it may be restarting). */
async function quietly<T>(query: () => Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  try {
    return await query();
  } catch {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}

function untilAbort(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function ended(status: "EXPIRED" | "REJECTED", reason: string): OrderResult {
  return { status, final: true, filledSize: "0", fills: [], averagePrice: undefined, fees: "0", reason };
}

/**
 * A stateful order in flight: at each block, the transaction by hash (included: followed as any
 * order from its block; failed in its block: REJECTED with the chain's reason), else the order in
 * state or on the feed (followed), else EXPIRED once the chain's time passed its good-til time, or
 * REJECTED (`not_included`) once the account's sequence moved past the transaction's without it
 * in a block (it can never be included). Node failures are waited out.
 */
async function followStateful(
  params: InFlightOrder,
  onUpdate: (result: OrderResult) => void,
  signal: AbortSignal,
): Promise<void> {
  const { node, height, order } = params;
  const { wire } = order;
  if (wire.kind === "short-term") return;
  const aborted = untilAbort(signal);
  aborted.catch(() => {});
  const onFeed = () => params.feed !== undefined && feedOrderOf(params.feed, order) !== undefined;
  const follow = (placedAtHeight: bigint) =>
    followOrder({ ...params, order: { ...order, placedAtHeight }, onUpdate, signal });
  let seen = height.current();
  for (;;) {
    // The sequence first: a transaction included after this read is found by the next.
    const account = await quietly(() => node.getAccountSequence({ address: params.account, signal }), signal);
    const tx = await quietly(() => node.getTx({ hash: params.txHash, signal }), signal);
    if (tx && tx.code === 0) return follow(tx.height - 1n);
    if (tx) {
      onUpdate(ended("REJECTED", tx.log || `${tx.codespace} ${tx.code}`));
      return;
    }
    // No node query answers a TWAP (the chain keeps it apart): its transaction and the feed tell.
    const state =
      wire.kind === "twap"
        ? undefined
        : await quietly(
            () =>
              node.getStatefulOrder({
                order: {
                  subaccount: wire.subaccount,
                  clientId: wire.clientId,
                  clobPairId: wire.clobPairId,
                  kind: wire.kind,
                },
                signal,
              }),
            signal,
          );
    if (state || onFeed()) return follow(order.placedAtHeight);
    if (Math.floor(height.latest().time.getTime() / 1000) > wire.goodTilBlockTime) {
      onUpdate(ended("EXPIRED", "expired"));
      return;
    }
    if (account && params.sequence < TIMESTAMP_NONCE_MIN && account.sequence > params.sequence) {
      onUpdate(ended("REJECTED", "not_included"));
      return;
    }
    seen = await Promise.race([height.waitAbove(seen), aborted]);
  }
}

/**
 * The handle of an order whose place may or may not have reached the chain: `result()` finds out
 * from the chain and the indexer (see {@link OrderOutcomeUnknownError}), answering `UNKNOWN`
 * while neither can tell. Never resubmits anything.
 *
 * @param params - see `InFlightOrder`: each field is documented there.
 * @returns the order's handle; its `result()` resolves with the state found, `UNKNOWN` when neither
 *   source knows it.
 * @example
 * ```ts
 * import { placeOrderMsg } from "@perpx/node-client/tx";
 *
 * // An order signed but never sent: once its good-til-block passed without it, it is EXPIRED.
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_014, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 3 } }, plan);
 * const orderId = placeOrderMsg(wire).value.order!.orderId!;
 * const order = { wire, orderId, market: btc, placedAtHeight: client.height(), canceled: () => false };
 * const handle = inFlightHandle({ node, height: context.height, order, txHash: "AB".repeat(32), sequence: 0n, account: subaccount.owner });
 * (await handle.result({ timeoutMs: 10_000 })).status; // "EXPIRED"
 * ```
 */
export function inFlightHandle(params: InFlightOrder): OrderHandle {
  const follow: FollowOrder = (onUpdate, signal) =>
    params.order.wire.kind === "short-term"
      ? followOrder({ ...params, onUpdate, signal })
      : followStateful(params, onUpdate, signal);
  return handleOver(params.order, follow);
}
