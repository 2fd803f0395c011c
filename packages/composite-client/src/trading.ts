import { assertKnownKeys, InvalidArgumentError, optionKeys } from "@perpx/core";
import { showValue } from "@perpx/errors";
import type { BroadcastMode, SendTxResult, TxMessage } from "@perpx/node-client";
import { type BroadcastProgress, cancelOrderMsg, placeOrderMsg } from "@perpx/node-client/tx";
import type { clob } from "@perpx/proto";
import { checkBookReach } from "./book.js";
import type { ClientContext } from "./client.js";
import { checkCollateral } from "./collateral.js";
import { type OrderHandle, orderHandle } from "./handle.js";
import { OrderOutcomeUnknownError, watchSend } from "./inFlight.js";
import { inFlightHandle } from "./lookUp.js";
import type { CompositeMarket } from "./markets.js";
import { type HumanOrder, planOrder, type WireOrder } from "./orderPlan.js";
import { checkOrderShape } from "./orderShape.js";
import { pastGoodTil } from "./tracking.js";
import { subaccountOf, traderOf } from "./trader.js";

/**
 * The orders this client placed and has not seen end, by `ticker/clientId`: what `cancelAll` and
 * the handles' CANCELED state read, with each order's handle. Orders that surely ended (past their
 * good-til-block or good-til-block-time, or whose stateful cancel was included) are swept out as
 * new ones are placed, so a long run holds only the orders that may still be open.
 *
 * @example
 * ```ts
 * const book: PlacedOrders = new Map();
 * ```
 */
export type PlacedOrders = Map<
  string,
  {
    wire: WireOrder;
    ticker: string;
    canceled: boolean;
    cancelAccepted?: boolean | undefined;
    handle?: OrderHandle | undefined;
  }
>;

/**
 * Sends clob messages as the trader: signed by the wallet, or by the trading key for its master.
 * `onBroadcast` hears each step of the broadcast (see the node client's `sendTx`).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param messages - the clob messages to send.
 * @param broadcastMode - `sync` (CheckTx) or `commit`.
 * @param onBroadcast - hears each step of the broadcast (signed, sent).
 * @returns resolves with the transaction's result; rejects with `BroadcastTxError` (or a subclass)
 *   when the chain refuses it.
 * @example
 * ```ts
 * import { cancelOrderMsg, placeOrderMsg } from "@perpx/node-client/tx";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_003, subaccount };
 * const goodTil = { blocks: 20 };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil }, plan);
 * const sent = await sendClob(context, [placeOrderMsg(wire)], "sync");
 * sent.shortTerm; // true: accepted at CheckTx
 * const goodTilBlock = Number(plan.height) + goodTil.blocks;
 * const cancel = cancelOrderMsg({ subaccount, clientId: 4_000_000_003, clobPairId: 0, kind: "short-term", goodTilBlock });
 * (await sendClob(context, [cancel])).shortTerm; // true
 * ```
 */
export function sendClob(
  context: ClientContext,
  messages: readonly TxMessage[],
  broadcastMode?: BroadcastMode,
  onBroadcast?: (step: BroadcastProgress) => void,
): Promise<SendTxResult> {
  const trader = traderOf(context, "order");
  // The live height stands in for the latest-block query of the order window check.
  const tx = {
    knownLatestBlock: context.height.latest(),
    ...(broadcastMode === undefined ? {} : { broadcastMode }),
    ...(onBroadcast === undefined ? {} : { onBroadcast }),
  };
  if (trader.kind === "wallet") return context.node.sendTx({ signer: trader.signer, messages, ...tx });
  return context.node.sendWithTradingKey({
    tradingKey: trader.tradingKey,
    authenticatorId: trader.authenticatorId,
    messages,
    ...tx,
  });
}

/**
 * Places a human-unit order: converts it against the cached market and the live height (no
 * network call before the broadcast once the market is cached, except the indexer's book for a
 * MARKET order bounded by `slippage`), sends it, and returns a handle once the chain accepted it
 * (CheckTx for short-term orders, inclusion for stateful ones).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param placed - the orders this client placed, by market and client id.
 * @param order - the order in human units.
 * @returns resolves with the order's handle once the chain accepted it.
 * @throws {InvalidAmountError | InvalidOrderError | InvalidArgumentError} before anything is signed
 *   (an `InvalidArgumentError` naming `clientId` while another place of the same client id on the
 *   same market is in flight on this book: one is sent, never two).
 * @throws {BroadcastTxError} when the chain refuses it.
 * @throws {OrderOutcomeUnknownError} when the signed order was sent and no answer came (or the
 *   wait for its block broke off): its `handle` finds out what became of it. Any other error means
 *   the order is not on the chain.
 *
 * @example
 * ```ts
 * const handle = await placeHumanOrder(context, placed, { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * ```
 */
export async function placeHumanOrder(
  context: ClientContext,
  placed: PlacedOrders,
  order: HumanOrder,
): Promise<OrderHandle> {
  const subaccount = subaccountOf(context);
  checkOrderShape(order); // before the market lookup may go to the network (planOrder checks it again)
  const market = context.markets.cached(order.market) ?? (await context.markets.get(order.market));
  const key = `${subaccount.owner}/${subaccount.number}/${market.ticker}`;
  const wire = planOrder(order, {
    market,
    height: context.height.current(),
    nowMs: Date.now(),
    clientId: order.clientId ?? context.clientIds.next(key),
    subaccount,
  });
  const placedKey = `${market.ticker}/${wire.clientId}`;
  const placing = placingOf(placed);
  if (placing.has(placedKey)) {
    throw new InvalidArgumentError(
      "clientId",
      `an order with client id ${wire.clientId} on ${market.ticker} is already being placed by this client: wait for that place to settle`,
    );
  }
  placing.add(placedKey);
  try {
    return await placeChecked(context, placed, order, wire, market, subaccount);
  } finally {
    placing.delete(placedKey);
  }
}

/** The `ticker/clientId` of the places in flight, by book: one place per client id at a time. */
const PLACING = new WeakMap<PlacedOrders, Set<string>>();

function placingOf(placed: PlacedOrders): Set<string> {
  let placing = PLACING.get(placed);
  if (!placing) {
    placing = new Set();
    PLACING.set(placed, placing);
  }
  return placing;
}

/** The book's size at which ended orders are next swept out (twice its size after the last sweep). */
const NEXT_SWEEP = new WeakMap<PlacedOrders, number>();
const MIN_SWEEP_SIZE = 32;

/**
 * Drops from the book the orders that surely ended (a short-term order past its good-til-block, a
 * stateful one past its good-til-block-time or whose cancel was included), once the book doubled
 * since the last sweep: a long run keeps only the orders that may still be open, at an amortized
 * constant cost per place.
 */
function sweepEnded(context: ClientContext, placed: PlacedOrders): void {
  if (placed.size < (NEXT_SWEEP.get(placed) ?? MIN_SWEEP_SIZE)) return;
  for (const [key, entry] of placed) {
    const cancelIncluded =
      entry.wire.kind !== "short-term" && entry.canceled && entry.cancelAccepted === true;
    if (cancelIncluded || pastGoodTil(entry.wire, context.height)) placed.delete(key);
  }
  NEXT_SWEEP.set(placed, Math.max(MIN_SWEEP_SIZE, 2 * placed.size));
}

/** Places a planned order once no other place of its client id is in flight. */
async function placeChecked(
  context: ClientContext,
  placed: PlacedOrders,
  order: HumanOrder,
  wire: WireOrder,
  market: CompositeMarket,
  subaccount: { owner: string; number: number },
): Promise<OrderHandle> {
  await checkCollateral(context, wire, market);
  if (context.indexer && order.type === "MARKET" && order.price === undefined) {
    await checkBookReach({ indexer: context.indexer, market, wire, size: order.size });
  }
  const message = placeOrderMsg(wire);
  const orderId = message.value.order?.orderId as clob.OrderId;
  const entry: {
    wire: WireOrder;
    ticker: string;
    canceled: boolean;
    cancelAccepted: boolean;
    handle?: OrderHandle;
  } = {
    wire,
    ticker: market.ticker,
    canceled: false,
    cancelAccepted: false,
  };
  const tracked = {
    wire,
    orderId,
    market,
    canceled: () => entry.canceled,
    cancelAccepted: () => entry.cancelAccepted,
  };
  const sentAt = context.height.current();
  const sent = await watchSend(
    (onBroadcast) => sendClob(context, [message], undefined, onBroadcast),
    (lost) => {
      // It may be on the chain: cancelAll must know it, and the handle finds out.
      placed.set(`${market.ticker}/${wire.clientId}`, entry);
      const handle = inFlightHandle({
        ...trackingOf(context),
        order: { ...tracked, placedAtHeight: sentAt },
        txHash: lost.txHash,
        sequence: lost.sequence,
        account: subaccount.owner,
      });
      entry.handle = handle;
      return new OrderOutcomeUnknownError({
        operation: "place",
        handle,
        txHash: lost.txHash,
        cause: lost.cause,
      });
    },
  );
  entry.handle = orderHandle({
    ...trackingOf(context),
    order: { ...tracked, placedAtHeight: sent.latestHeight ?? sent.height ?? sentAt },
  });
  sweepEnded(context, placed);
  placed.set(`${market.ticker}/${wire.clientId}`, entry);
  return entry.handle;
}

/** What a handle follows its order with: the node, the live height and the indexer's live account. */
function trackingOf(context: ClientContext) {
  return { node: context.node, height: context.height, feed: context.feed?.subaccount };
}

/**
 * Runs a cancel of placed orders, marking them cancelled first (so a tracker that sees an order
 * leave state while the cancel is in flight reports it cancelled by this client), unmarking them
 * if it fails, and marking the cancel accepted (`cancelAccepted`) once the node took it.
 *
 * @param entries - the placed orders the cancel removes.
 * @param send - the cancel's send.
 * @returns what `send` resolves with; when it rejects, the orders are marked open again.
 * @example
 * ```ts
 * const entry = { canceled: false, cancelAccepted: false };
 * await cancelling([entry], () => Promise.reject(new Error("refused"))).catch(() => undefined);
 * entry.canceled; // false: the cancel failed, so the mark is undone
 * await cancelling([entry], async () => "sent"); // "sent"
 * [entry.canceled, entry.cancelAccepted]; // [true, true]
 * ```
 */
export async function cancelling<T>(
  entries: { canceled: boolean; cancelAccepted?: boolean | undefined }[],
  send: () => Promise<T>,
): Promise<T> {
  const before = entries.map((e) => e.canceled);
  for (const entry of entries) entry.canceled = true;
  try {
    const sent = await send();
    for (const entry of entries) entry.cancelAccepted = true;
    return sent;
  } catch (error) {
    entries.forEach((entry, i) => {
      entry.canceled = before[i] === true;
    });
    throw error;
  }
}

const CANCEL_KEYS = optionKeys<Parameters<typeof cancelPlacedOrder>[2]>({ market: true, clientId: true });

/**
 * Cancels one order this client placed (by market and client id), short-term or stateful.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param placed - the orders this client placed, by market and client id.
 * @param params - the market's ticker and the order's client id.
 * @returns resolves when the node accepted the cancel.
 * @throws {InvalidArgumentError} for an order this client does not know.
 * @throws {BroadcastTxError} when the chain refuses the cancel.
 * @throws {OrderOutcomeUnknownError} (`operation: "cancel"`) when the cancel was sent and no
 *   answer came: the order's handle tells whether it was cancelled.
 *
 * @example
 * ```ts
 * const handle = await placeHumanOrder(context, placed, { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * await cancelPlacedOrder(context, placed, { market: "BTC-USD", clientId: handle.clientId });
 * (await handle.result({ timeoutMs: 10_000 })).status; // "CANCELED"
 * await cancelPlacedOrder(context, placed, { market: "BTC-USD", clientId: 12 }); // throws InvalidArgumentError
 * ```
 */
export async function cancelPlacedOrder(
  context: ClientContext,
  placed: PlacedOrders,
  params: { market: string; clientId: number },
): Promise<SendTxResult> {
  assertKnownKeys(params, CANCEL_KEYS, "cancelOrder");
  const entry = placed.get(`${params.market}/${params.clientId}`);
  if (!entry) {
    throw new InvalidArgumentError(
      "clientId",
      `this client placed no order ${showValue(params.clientId)} on ${showValue(params.market)}`,
    );
  }
  const { wire } = entry;
  const expiry =
    wire.kind === "short-term"
      ? { kind: wire.kind, goodTilBlock: wire.goodTilBlock }
      : { kind: wire.kind, goodTilBlockTime: wire.goodTilBlockTime };
  const message = cancelOrderMsg({
    subaccount: wire.subaccount,
    clientId: wire.clientId,
    clobPairId: wire.clobPairId,
    ...expiry,
  });
  const { handle } = entry;
  return cancelling([entry], () =>
    watchSend(
      (onBroadcast) => sendClob(context, [message], undefined, onBroadcast),
      (lost) =>
        handle
          ? new OrderOutcomeUnknownError({
              operation: "cancel",
              handle,
              txHash: lost.txHash,
              cause: lost.cause,
            })
          : (lost.cause as Error),
    ),
  );
}
