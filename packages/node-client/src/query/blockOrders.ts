import { fromBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { Block } from "./blocks.js";

const PROPOSED_OPERATIONS = "/perpx.clob.v1.MsgProposedOperations";

/** True when two order ids name the same order. */
function sameOrderId(a: clob.OrderId | undefined, b: clob.OrderId): boolean {
  return (
    a !== undefined &&
    a.clientId === b.clientId &&
    a.orderFlags === b.orderFlags &&
    a.clobPairId === b.clobPairId &&
    a.subaccountId?.owner === b.subaccountId?.owner &&
    (a.subaccountId?.number ?? 0) === (b.subaccountId?.number ?? 0)
  );
}

/**
 * The proposed operations of a block from {@link getBlock}: the `MsgProposedOperations` its first
 * transaction carries (every block of the chain opens with one), or undefined.
 *
 * @param block - a block from `getBlock`.
 * @returns the operations (matches and removals), or undefined when the block has none.
 *
 * @example
 * ```ts
 * const block = await client.getBlock({});
 * const operations = blockOperations(block);
 * operations === undefined || Array.isArray(operations.operationsQueue); // true
 * ```
 */
export function blockOperations(block: Block): clob.MsgProposedOperations | undefined {
  const messages = block.txs[0]?.tx?.body?.messages;
  const message = messages?.length === 1 ? messages[0] : undefined;
  if (message?.typeUrl !== PROPOSED_OPERATIONS) return undefined;
  try {
    return fromBinary(clob.MsgProposedOperationsSchema, message.value);
  } catch {
    return undefined;
  }
}

/**
 * The index, in a block from {@link getBlock}, of the transaction that places (`"place"`) or
 * cancels (`"cancel"`) the order `orderId`; -1 when none does. Pair it with `getBlockResults` at
 * the same index to learn whether that transaction succeeded.
 *
 * @param block - a block from `getBlock`.
 * @param action - a `MsgPlaceOrder` or a `MsgCancelOrder`.
 * @param orderId - the order.
 * @returns the transaction's index, or -1.
 *
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const sent = await client.placeOrder({
 *   signer: wallet, subaccount, clientId: 131, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "long-term", goodTilBlockTime,
 * });
 * const block = await client.getBlock({ height: sent.height! });
 * blockOrderTx(block, "place", sent.orderId!) >= 0; // true
 * blockOrderTx(block, "cancel", sent.orderId!); // -1
 * await client.cancelOrder({ signer: wallet, subaccount, clientId: 131, market: btc, kind: "long-term", goodTilBlockTime });
 * ```
 */
export function blockOrderTx(block: Block, action: "place" | "cancel", orderId: clob.OrderId): number {
  const typeUrl = action === "place" ? "/perpx.clob.v1.MsgPlaceOrder" : "/perpx.clob.v1.MsgCancelOrder";
  return block.txs.findIndex(({ tx }) =>
    (tx?.body?.messages ?? []).some((any) => {
      if (any.typeUrl !== typeUrl) return false;
      try {
        const id =
          action === "place"
            ? fromBinary(clob.MsgPlaceOrderSchema, any.value).order?.orderId
            : fromBinary(clob.MsgCancelOrderSchema, any.value).orderId;
        return sameOrderId(id, orderId);
      } catch {
        return false;
      }
    }),
  );
}
