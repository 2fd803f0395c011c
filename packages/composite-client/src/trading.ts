import { InvalidArgumentError } from "@perpx/errors";
import {
  type BroadcastMode,
  cancelOrderMsg,
  placeOrderMsg,
  type SendTxResult,
  type TxMessage,
} from "@perpx/node-client";
import { checkBookReach } from "./book.js";
import type { ClientContext } from "./client.js";
import { checkCollateral } from "./collateral.js";
import { type OrderHandle, orderHandle } from "./handle.js";
import { type HumanOrder, planOrder, type WireOrder } from "./orderPlan.js";
import { subaccountOf, traderOf } from "./trader.js";

/**
 * The orders this client placed and has not seen end, by `ticker/clientId`: what `cancelAll` and
 * the handles' CANCELED state read.
 *
 * @example
 * ```ts
 * const book: PlacedOrders = new Map();
 * ```
 */
export type PlacedOrders = Map<string, { wire: WireOrder; ticker: string; canceled: boolean }>;

/**
 * Sends clob messages as the trader: signed by the wallet, or by the trading key for its master.
 *
 * @example
 * ```ts
 * import { cancelOrderMsg, placeOrderMsg } from "@perpx/node-client";
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
): Promise<SendTxResult> {
  const trader = traderOf(context, "order");
  // The live height stands in for the latest-block query of the order window check.
  const tx = {
    knownLatestBlock: context.height.latest(),
    ...(broadcastMode === undefined ? {} : { broadcastMode }),
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
 * @throws {InvalidAmountError | InvalidOrderError | InvalidArgumentError} before anything is signed.
 * @throws {BroadcastTxError} when the chain refuses it.
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
  const market = context.markets.cached(order?.market) ?? (await context.markets.get(order?.market));
  const key = `${subaccount.owner}/${subaccount.number}/${market.ticker}`;
  const wire = planOrder(order, {
    market,
    height: context.height.current(),
    nowMs: Date.now(),
    clientId: order.clientId ?? context.clientIds.next(key),
    subaccount,
  });
  await checkCollateral(context, wire, market);
  if (context.indexer && order.type === "MARKET" && order.price === undefined) {
    await checkBookReach({ indexer: context.indexer, market, wire, size: order.size });
  }
  const message = placeOrderMsg(wire);
  const sent = await sendClob(context, [message]);
  const entry = { wire, ticker: market.ticker, canceled: false };
  placed.set(`${market.ticker}/${wire.clientId}`, entry);
  return orderHandle({
    node: context.node,
    height: context.height,
    feed: context.feed?.subaccount,
    order: {
      wire,
      orderId: sent.orderId ?? (message.value.order?.orderId as NonNullable<typeof sent.orderId>),
      market,
      placedAtHeight: sent.latestHeight ?? sent.height ?? context.height.current(),
      canceled: () => entry.canceled,
    },
  });
}

/**
 * Runs a cancel of placed orders, marking them cancelled first (so a tracker that sees an order
 * leave state while the cancel is in flight reports CANCELED), and unmarking them if it fails.
 *
 * @example
 * ```ts
 * const entry = { canceled: false };
 * await cancelling([entry], () => Promise.reject(new Error("refused"))).catch(() => undefined);
 * entry.canceled; // false: the cancel failed, so the mark is undone
 * await cancelling([entry], async () => "sent"); // "sent"
 * entry.canceled; // true
 * ```
 */
export async function cancelling<T>(entries: { canceled: boolean }[], send: () => Promise<T>): Promise<T> {
  const before = entries.map((e) => e.canceled);
  for (const entry of entries) entry.canceled = true;
  try {
    return await send();
  } catch (error) {
    entries.forEach((entry, i) => {
      entry.canceled = before[i] === true;
    });
    throw error;
  }
}

/**
 * Cancels one order this client placed (by market and client id), short-term or stateful.
 *
 * @throws {InvalidArgumentError} for an order this client does not know.
 * @throws {BroadcastTxError} when the chain refuses the cancel.
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
  const entry = placed.get(`${params?.market}/${params?.clientId}`);
  if (!entry) {
    throw new InvalidArgumentError(
      "clientId",
      `this client placed no order ${String(params?.clientId)} on ${String(params?.market)}`,
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
  return cancelling([entry], () => sendClob(context, [message]));
}
