import { assertKnownKeys, InvalidArgumentError, InvalidOrderError, optionKeys } from "@perpx/core";
import { isBroadcastTxError, type SendTxResult } from "@perpx/node-client";
import { batchCancelMsg, cancelOrderMsg, MAX_BATCH_CANCELS, ORDER_FLAGS } from "@perpx/node-client/tx";
import type { ClientContext } from "./client.js";
import { type OrderResult, pastGoodTil } from "./tracking.js";
import { subaccountOf } from "./trader.js";
import { cancelling, type PlacedOrders, sendClob } from "./trading.js";

/** Cancels of short-term orders live this many blocks. */
const CANCEL_BLOCKS = 20;
const BATCH_CANCEL_KEYS = optionKeys<Parameters<typeof batchCancelOrders>[2]>({
  market: true,
  clientIds: true,
});
/** Time in force of orders that never rest: the chain matched them at once and dropped the rest. */
const NEVER_RESTS: ReadonlySet<string> = new Set(["IOC", "FILL_OR_KILL"]);
/** The indexer's statuses of an order that left the book. */
const ENDED: ReadonlySet<string> = new Set(["FILLED", "CANCELED", "BEST_EFFORT_CANCELED", "ERROR"]);
/**
 * How long `cancelAll` waits for a cancelled short-term order's handle to show it gone: a guard
 * against a stalled chain only (the handle settles by the order's good-til-block at the latest).
 */
const CONFIRM_TIMEOUT_MS = 60_000;
const CANCEL_ALL_KEYS = optionKeys<Parameters<typeof cancelAllOrders>[2]>({ market: true });

/**
 * Cancels several short-term orders of one market in one `MsgBatchCancel`.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param placed - the orders this client placed, by market and client id.
 * @param params - the market's ticker and the client ids of its short-term orders to cancel.
 * @returns resolves when the node accepted the `MsgBatchCancel`.
 * @throws {InvalidArgumentError} (`clientIds`) when `clientIds` is not a non-empty array, before
 *   anything is signed.
 * @throws {InvalidOrderError} for more than 100 ids, and (`clientIds`) for the id of a stateful
 *   order this client placed (long-term, conditional, TWAP: a batch cancel removes short-term
 *   orders only, so it would stay open; use `cancelOrder`), before anything is signed.
 *
 * @example
 * ```ts
 * const bid = { market: "BTC-USD", side: "BUY", size: "0.001", goodTil: { blocks: 20 } } as const;
 * const a = await placeHumanOrder(context, placed, { ...bid, price: "30000" });
 * const b = await placeHumanOrder(context, placed, { ...bid, price: "30001" });
 * await batchCancelOrders(context, placed, { market: "BTC-USD", clientIds: [a.clientId, b.clientId] });
 * (await b.result({ timeoutMs: 10_000 })).status; // "CANCELED"
 * ```
 */
export async function batchCancelOrders(
  context: ClientContext,
  placed: PlacedOrders,
  params: { market: string; clientIds: readonly number[] },
): Promise<SendTxResult> {
  assertKnownKeys(params, BATCH_CANCEL_KEYS, "batchCancel");
  if (!Array.isArray(params.clientIds) || params.clientIds.length === 0) {
    throw new InvalidArgumentError("clientIds", "must be a non-empty array of client ids");
  }
  const market = await context.markets.get(params.market);
  const entries = params.clientIds.flatMap((id) => placed.get(`${market.ticker}/${id}`) ?? []);
  // The chain's batch cancel removes short-term orders only: a stateful order named here would stay
  // open while marked cancelled, and cancelAll would skip it.
  const stateful = entries.find((entry) => entry.wire.kind !== "short-term");
  if (stateful) {
    throw new InvalidOrderError(
      "clientIds",
      `order ${stateful.wire.clientId} on ${market.ticker} is a ${stateful.wire.kind} order; a batch cancel removes short-term orders only: cancel it with cancelOrder`,
    );
  }
  // A cancel removes an order only when it lives at least as long as the order.
  let goodTilBlock = Number(context.height.current()) + CANCEL_BLOCKS;
  for (const { wire } of entries) {
    if (wire.kind === "short-term" && wire.goodTilBlock > goodTilBlock) goodTilBlock = wire.goodTilBlock;
  }
  const message = batchCancelMsg({
    subaccount: subaccountOf(context),
    cancels: [{ clobPairId: market.clobPairId, clientIds: params.clientIds }],
    goodTilBlock,
  });
  return cancelling(entries, () => sendClob(context, [message]));
}

/**
 * Cancels every order this client placed that is still open (of one market, or all) and reports
 * exactly the ones the cancel removed: the short-term orders that may still rest (not IOC or
 * fill-or-kill, good-til-block not passed, not shown ended on the indexer's live account) in one
 * batch per market, each listed once its handle saw it cancelled; the stateful ones (resting or
 * untriggered) still in the chain's state, each by its own cancel, listed once that cancel was
 * included. Filled, expired and already cancelled orders are not listed. Orders placed by other
 * clients are not known to it.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param placed - the orders this client placed, by market and client id.
 * @param params - the market's ticker, or none for every market.
 * @returns the client ids cancelled, by market (markets with none left out).
 * @throws the first cancel's failure, once every cancel already sent has settled (none is left to
 *   reject unheard).
 *
 * @example
 * ```ts
 * const order = await placeHumanOrder(context, placed, { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * await cancelAllOrders(context, placed, { market: "BTC-USD" }); // { "BTC-USD": [order.clientId] }
 * await cancelAllOrders(context, placed, { market: "BTC-USD" }); // {}: nothing open any more
 * ```
 */
export async function cancelAllOrders(
  context: ClientContext,
  placed: PlacedOrders,
  params: { market?: string } = {},
): Promise<Record<string, number[]>> {
  assertKnownKeys(params, CANCEL_ALL_KEYS, "cancelAll");
  const shortTerm = new Map<string, PlacedEntry[]>();
  const stateful: Promise<PromiseSettledResult<PlacedEntry | undefined>>[] = [];
  for (const [key, entry] of placed) {
    if (entry.canceled || (params.market !== undefined && entry.ticker !== params.market)) continue;
    const { wire } = entry;
    if (endedOnFeed(context, entry)) {
      placed.delete(key);
      continue;
    }
    if (wire.kind === "short-term") {
      if (pastGoodTil(wire, context.height) || NEVER_RESTS.has(wire.timeInForce ?? "GTC")) {
        placed.delete(key);
        continue;
      }
      shortTerm.set(entry.ticker, [...(shortTerm.get(entry.ticker) ?? []), entry]);
      continue;
    }
    // Caught at once: a stateful cancel that fails while the batches are sent waits to be read,
    // never an unhandled rejection.
    stateful.push(settle(cancelStateful(context, placed, key, entry)));
  }
  const sent: Promise<PromiseSettledResult<PlacedEntry | undefined>>[] = [];
  try {
    for (const [ticker, entries] of shortTerm) {
      for (let i = 0; i < entries.length; i += MAX_BATCH_CANCELS) {
        const chunk = entries.slice(i, i + MAX_BATCH_CANCELS);
        await batchCancelOrders(context, placed, {
          market: ticker,
          clientIds: chunk.map((e) => e.wire.clientId),
        });
        for (const entry of chunk) sent.push(settle(removedByCancel(entry)));
      }
    }
  } catch (error) {
    // The stateful cancels already sent end before the failure is told.
    await Promise.all(stateful);
    throw error;
  }
  const outcomes = await Promise.all([...stateful, ...sent]);
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  const cancelled: Record<string, number[]> = {};
  for (const outcome of outcomes) {
    const entry = outcome.status === "fulfilled" ? outcome.value : undefined;
    if (entry) cancelled[entry.ticker] = [...(cancelled[entry.ticker] ?? []), entry.wire.clientId];
  }
  return cancelled;
}

/** A promise's outcome, its rejection caught at once (read later, never unhandled). */
function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
}

type PlacedEntry = PlacedOrders extends Map<string, infer E> ? E : never;

/** True when the indexer's live account (in sync) shows the order ended: filled, cancelled, expired. */
function endedOnFeed(context: ClientContext, entry: PlacedEntry): boolean {
  const live = context.feed?.subaccount;
  if (live?.subscription.state !== "live") return false;
  const { wire } = entry;
  const clientId = String(wire.clientId);
  const clobPairId = String(wire.clobPairId);
  const flags = String(ORDER_FLAGS[wire.kind]);
  const order = live.view
    .orders()
    .find((o) => o.clientId === clientId && o.clobPairId === clobPairId && o.orderFlags === flags);
  return order !== undefined && ENDED.has(order.status);
}

/** Cancels a stateful order still in state; resolves with it when the cancel removed it. */
async function cancelStateful(
  context: ClientContext,
  placed: PlacedOrders,
  key: string,
  entry: PlacedEntry,
): Promise<PlacedEntry | undefined> {
  const { wire } = entry;
  if (wire.kind === "short-term") return undefined;
  if (wire.kind === "twap") return cancelTwap(context, placed, key, entry, wire.goodTilBlockTime);
  const order = {
    subaccount: wire.subaccount,
    clientId: wire.clientId,
    clobPairId: wire.clobPairId,
    kind: wire.kind,
  };
  const inState = () => context.node.getStatefulOrder({ order });
  if (!(await inState())) {
    placed.delete(key);
    return undefined;
  }
  const message = cancelOrderMsg({ ...order, goodTilBlockTime: wire.goodTilBlockTime });
  try {
    await cancelling([entry], () => sendClob(context, [message]));
  } catch (error) {
    // It left state (filled, say) between the look-up and the cancel: the cancel removed nothing.
    if (isBroadcastTxError(error) && !(await inState())) {
      placed.delete(key);
      return undefined;
    }
    throw error;
  }
  return entry;
}

/**
 * Cancels a TWAP (no node query answers one): resolves with it when the cancel removed it, and
 * with undefined when the chain no longer held it (its schedule ran out, or a fill completed it).
 */
async function cancelTwap(
  context: ClientContext,
  placed: PlacedOrders,
  key: string,
  entry: PlacedEntry,
  goodTilBlockTime: number,
): Promise<PlacedEntry | undefined> {
  const { wire } = entry;
  const message = cancelOrderMsg({
    subaccount: wire.subaccount,
    clientId: wire.clientId,
    clobPairId: wire.clobPairId,
    kind: "twap",
    goodTilBlockTime,
  });
  try {
    await cancelling([entry], () => sendClob(context, [message]));
  } catch (error) {
    if (isBroadcastTxError(error) && error.clobError === "stateful-order-does-not-exist") {
      placed.delete(key);
      return undefined;
    }
    throw error;
  }
  return entry;
}

/** Resolves with a short-term order once its handle shows the batch cancel removed it, else undefined. */
async function removedByCancel(entry: PlacedEntry): Promise<PlacedEntry | undefined> {
  if (!entry.handle) return entry;
  const result: OrderResult = await entry.handle.result({ timeoutMs: CONFIRM_TIMEOUT_MS });
  const removed = result.status === "CANCELED" || (result.status === "PARTIALLY_FILLED" && result.final);
  return removed ? entry : undefined;
}
