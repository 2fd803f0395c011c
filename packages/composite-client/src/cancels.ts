import { assertKnownKeys, optionKeys } from "@perpx/core";
import { batchCancelMsg, cancelOrderMsg, type SendTxResult } from "@perpx/node-client";
import type { ClientContext } from "./client.js";
import { subaccountOf } from "./trader.js";
import { cancelling, type PlacedOrders, sendClob } from "./trading.js";

/** Cancels of short-term orders live this many blocks. */
const CANCEL_BLOCKS = 20;
const BATCH_CANCEL_KEYS = optionKeys<Parameters<typeof batchCancelOrders>[2]>({
  market: true,
  clientIds: true,
});
const CANCEL_ALL_KEYS = optionKeys<Parameters<typeof cancelAllOrders>[2]>({ market: true });

/**
 * Cancels several short-term orders of one market in one `MsgBatchCancel`.
 *
 * @throws {InvalidOrderError} for more than 100 ids, before anything is signed.
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
  const market = await context.markets.get(params.market);
  const entries = params.clientIds.flatMap((id) => placed.get(`${market.ticker}/${id}`) ?? []);
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
 * Cancels every order this client placed that may still be open (of one market, or all): the
 * short-term ones whose good-til-block has not passed in one batch per market, the stateful ones
 * still in state each by its own cancel. Orders placed by other clients are not known to it.
 *
 * @returns the client ids cancelled, by market.
 *
 * @example
 * ```ts
 * const order = await placeHumanOrder(context, placed, { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * await cancelAllOrders(context, placed, { market: "BTC-USD" }); // { "BTC-USD": [order.clientId] }
 * ```
 */
export async function cancelAllOrders(
  context: ClientContext,
  placed: PlacedOrders,
  params: { market?: string } = {},
): Promise<Record<string, number[]>> {
  assertKnownKeys(params, CANCEL_ALL_KEYS, "cancelAll");
  const height = context.height.current();
  const shortTerm = new Map<string, number[]>();
  const stateful: Promise<unknown>[] = [];
  const cancelled: Record<string, number[]> = {};
  for (const [key, entry] of placed) {
    if (entry.canceled || (params.market !== undefined && entry.ticker !== params.market)) continue;
    const { wire } = entry;
    if (wire.kind === "short-term") {
      if (BigInt(wire.goodTilBlock) < height) {
        placed.delete(key);
        continue;
      }
      shortTerm.set(entry.ticker, [...(shortTerm.get(entry.ticker) ?? []), wire.clientId]);
      continue;
    }
    const order = {
      subaccount: wire.subaccount,
      clientId: wire.clientId,
      clobPairId: wire.clobPairId,
      kind: wire.kind,
    };
    stateful.push(
      context.node.getStatefulOrder({ order }).then(async (state) => {
        if (!state) {
          placed.delete(key);
          return;
        }
        const message = cancelOrderMsg({ ...order, goodTilBlockTime: wire.goodTilBlockTime });
        await cancelling([entry], () => sendClob(context, [message]));
        cancelled[entry.ticker] = [...(cancelled[entry.ticker] ?? []), wire.clientId];
      }),
    );
  }
  for (const [ticker, clientIds] of shortTerm) {
    for (let i = 0; i < clientIds.length; i += 100) {
      const chunk = clientIds.slice(i, i + 100);
      await batchCancelOrders(context, placed, { market: ticker, clientIds: chunk });
      cancelled[ticker] = [...(cancelled[ticker] ?? []), ...chunk];
    }
  }
  await Promise.all(stateful);
  return cancelled;
}
