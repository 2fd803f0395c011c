import {
  type ClientContext,
  checkBookReach,
  type HumanOrder,
  type OrderHandle,
  orderHandle,
  type PlacedOrders,
  sendClob,
  type WireOrder,
  watchSend,
} from "@perpx/composite-client";
import { type BroadcastProgress, placeOrderMsg } from "@perpx/node-client/tx";
import type { z } from "zod";
import { ToolFailure } from "./result.js";
import type { verification } from "./schemas.js";

/**
 * A verified state.
 *
 * @example
 * ```ts
 * const v: Verification = { state: "FILLED", final: true, filledSize: "0.01", fills: [], fees: "0" };
 * ```
 */
export type Verification = z.infer<typeof verification>;

/**
 * Signs and sends an order with the session's trader, recording it among the credential's placed
 * orders; answers its handle and the transaction hash. Refused before signing when a MARKET
 * order's worst price cannot reach the book. `plan` answers the order to sign (a wire order, or a
 * function planning it), called again right before signing so that a short-term order's good-til
 * counts from then. `onBroadcast` hears each step of the broadcast; what it throws at `sending`
 * stops the send before the bytes go out (a cancelled request's last check).
 *
 * @throws {BroadcastTxError} when the chain refuses it.
 * @throws {ToolFailure} `TIMEOUT_UNKNOWN`, with the tx hash, when the send failed after its bytes
 *   may have reached the node (a timeout, a reset): the order may be on the chain.
 *
 * @example
 * ```ts
 * import { type HumanOrder, planOrder } from "@perpx/composite-client";
 *
 * const { context, placed } = account;
 * const order: HumanOrder = { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { seconds: 3600 } };
 * const plan = { market: await context.markets.get("BTC-USD"), height: context.height.current(), nowMs: Date.now(), clientId: 7_001, subaccount: { owner: account.principal.account, number: 0 } };
 * const { handle, txHash } = await sendOrder(context, placed, order, () => planOrder(order, plan));
 * txHash.length; // 64
 * handle.kind; // "long-term"
 * ```
 */
export async function sendOrder(
  context: ClientContext,
  placed: PlacedOrders,
  order: HumanOrder,
  plan: WireOrder | (() => WireOrder),
  onBroadcast: (step: BroadcastProgress) => void = () => {},
): Promise<{ handle: OrderHandle; txHash: string }> {
  const planned = () => (typeof plan === "function" ? plan() : plan);
  const market = await context.markets.get(order.market);
  if (context.indexer && order.type === "MARKET") {
    await checkBookReach({ indexer: context.indexer, market, wire: planned(), size: order.size });
  }
  if (typeof plan === "function") {
    // A good-til counts from the node's height now: the tracker's may trail it on a loaded host.
    context.height.observe(await context.node.getLatestBlock());
  }
  const wire = planned();
  const message = placeOrderMsg(wire);
  const sent = await watchSend(
    (heard) =>
      sendClob(context, [message], undefined, (step) => {
        onBroadcast(step);
        heard(step);
      }),
    (lost) =>
      new ToolFailure(
        "TIMEOUT_UNKNOWN",
        `the order (clientId ${wire.clientId}) was sent in tx ${lost.txHash} but no answer came: it may be on the chain. Call get_order before retrying; do not resubmit with another client id.`,
        { txHash: lost.txHash },
      ),
  );
  const entry = { wire, ticker: market.ticker, canceled: false };
  placed.set(`${market.ticker}/${wire.clientId}`, entry);
  const orderId = sent.orderId ?? message.value.order?.orderId;
  if (!orderId) throw new ToolFailure("INTERNAL", "the placed order carries no order id");
  const handle = orderHandle({
    node: context.node,
    height: context.height,
    order: {
      wire,
      orderId,
      market,
      placedAtHeight: sent.latestHeight ?? sent.height ?? context.height.current(),
      canceled: () => entry.canceled,
    },
  });
  return { handle, txHash: sent.hash };
}

/**
 * Waits for an accepted order's verified state (never resubmitting). A short-term order is followed
 * until it is final (filled, or its good-til-block passed) or `timeoutMs` passes; a stateful order
 * for `statefulSettleMs` after its inclusion (the block after it was stored matches it), then its
 * state is answered (RESTING or PARTIALLY_FILLED while it rests), watching again while nothing was
 * observed. UNKNOWN when nothing was observed within `timeoutMs`.
 *
 * @example
 * ```ts
 * import { type HumanOrder, planOrder } from "@perpx/composite-client";
 *
 * const { context, placed } = account;
 * const order: HumanOrder = { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { seconds: 3600 } };
 * const plan = { market: await context.markets.get("BTC-USD"), height: context.height.current(), nowMs: Date.now(), clientId: 7_002, subaccount: { owner: account.principal.account, number: 0 } };
 * const { handle } = await sendOrder(context, placed, order, planOrder(order, plan));
 * const verified = await verifyPlaced(handle, { timeoutMs: 15_000, statefulSettleMs: 1_000 });
 * verified.state; // "RESTING"
 * verified.filledSize; // "0"
 * ```
 */
export async function verifyPlaced(
  handle: OrderHandle,
  options: { timeoutMs: number; statefulSettleMs: number },
): Promise<Verification> {
  const deadline = Date.now() + options.timeoutMs;
  const step = handle.kind === "short-term" ? options.timeoutMs : options.statefulSettleMs;
  let result = await handle.result({ timeoutMs: Math.min(step, options.timeoutMs) });
  // Nothing observed yet (a loaded node): look again, until the timeout; never resubmit.
  while (result.status === "UNKNOWN" && Date.now() < deadline) {
    result = await handle.result({ timeoutMs: Math.max(0, Math.min(step, deadline - Date.now())) });
  }
  return {
    state: result.status,
    final: result.final,
    filledSize: result.filledSize,
    fills: result.fills.map((f) => ({
      size: f.size,
      height: f.height.toString(),
      role: f.role,
      ...(f.price === undefined ? {} : { price: f.price }),
      ...(f.fee === undefined ? {} : { fee: f.fee }),
    })),
    ...(result.averagePrice === undefined ? {} : { averagePrice: result.averagePrice }),
    fees: result.fees,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
  };
}
