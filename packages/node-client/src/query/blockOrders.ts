import { fromBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { proposedOperationsIn, sameOrderId } from "../messages/proposedOperations.js";
import type { Block } from "./blocks.js";

/**
 * The `MsgProposedOperations` a block from {@link getBlock} opens with, or undefined.
 * @param block - a block from `getBlock`.
 * @returns the operations (matches and removals), or undefined when the block has none.
 * @example
 * ```ts
 * const block = await getBlock(client, {});
 * const operations = blockOperations(block);
 * operations === undefined || Array.isArray(operations.operationsQueue); // true
 * ```
 */
export function blockOperations(block: Block): clob.MsgProposedOperations | undefined {
  return proposedOperationsIn(block.txs[0]?.tx?.body?.messages ?? []);
}

/** Each message of type `typeUrl` in a block, decoded, with its transaction's index. */
function* messagesIn<T>(block: Block, typeUrl: string, decode: (bytes: Uint8Array) => T) {
  for (const [txIndex, { tx }] of block.txs.entries()) {
    for (const any of tx?.body?.messages ?? []) {
      if (any.typeUrl !== typeUrl) continue;
      try {
        yield { txIndex, message: decode(any.value) };
      } catch {
        // not this chain's message: skipped
      }
    }
  }
}

/**
 * The placement of `orderId` in a block from {@link getBlock}: its `MsgPlaceOrder`'s order and tx index.
 * @param block - a block from `getBlock`.
 * @param orderId - the order.
 * @returns `{ txIndex, order }`, or undefined.
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const sent = await client.placeOrder({ signer: wallet, subaccount, clientId: 141, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "long-term", goodTilBlockTime });
 * const block = await getBlock(client, { height: sent.height! });
 * placementIn(block, sent.orderId!)?.order.quantums; // 10000000n
 * await client.cancelOrder({ signer: wallet, subaccount, clientId: 141, market: btc, kind: "long-term", goodTilBlockTime });
 * ```
 */
export function placementIn(
  block: Block,
  orderId: clob.OrderId,
): { txIndex: number; order: clob.Order } | undefined {
  const decode = (bytes: Uint8Array) => fromBinary(clob.MsgPlaceOrderSchema, bytes).order;
  for (const { txIndex, message } of messagesIn(block, "/perpx.clob.v1.MsgPlaceOrder", decode)) {
    if (message !== undefined && sameOrderId(message.orderId, orderId)) return { txIndex, order: message };
  }
  return undefined;
}

/**
 * The index of the transaction that cancels `orderId` (a `MsgCancelOrder`) in a block, or -1.
 * @param block - a block from `getBlock`.
 * @param orderId - the order.
 * @returns the transaction's index, or -1.
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const order = { signer: wallet, subaccount, clientId: 142, market: btc, kind: "long-term", goodTilBlockTime } as const;
 * const placed = await client.placeOrder({ ...order, side: "BUY", size: "0.001", price: "30000" });
 * const cancelled = await client.cancelOrder(order);
 * cancelIn(await getBlock(client, { height: cancelled.height! }), placed.orderId!) >= 0; // true
 * cancelIn(await getBlock(client, { height: placed.height! }), placed.orderId!); // -1
 * ```
 */
export function cancelIn(block: Block, orderId: clob.OrderId): number {
  const decode = (bytes: Uint8Array) => fromBinary(clob.MsgCancelOrderSchema, bytes).orderId;
  for (const { txIndex, message } of messagesIn(block, "/perpx.clob.v1.MsgCancelOrder", decode)) {
    if (sameOrderId(message, orderId)) return txIndex;
  }
  return -1;
}
