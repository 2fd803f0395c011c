/**
 * The block proposer's `MsgProposedOperations` (the matches and removals of a block, carried by
 * its first transaction) and order-id equality: shared by the order watcher, which reads raw
 * transactions, and the block readers, which read decoded blocks.
 */
import { fromBinary } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { clob } from "@perpx/proto";

const PROPOSED_OPERATIONS = "/perpx.clob.v1.MsgProposedOperations";

/**
 * True when two order ids name the same order (an absent subaccount number is 0, as on the wire).
 *
 * @param a - an order id, possibly absent.
 * @param b - the order id looked for.
 * @returns whether they name the same order.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const id = create(clob.OrderIdSchema, { clientId: 7 });
 * sameOrderId({ ...id }, id); // true
 * ```
 */
export function sameOrderId(a: clob.OrderId | undefined, b: clob.OrderId): boolean {
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
 * The proposed operations a transaction's messages carry: its only message, when that is a
 * `MsgProposedOperations` that decodes; else undefined.
 *
 * @param messages - the messages of one transaction's body.
 * @returns the operations, or undefined.
 *
 * @example
 * ```ts
 * proposedOperationsIn([]); // undefined
 * ```
 */
export function proposedOperationsIn(messages: readonly Any[]): clob.MsgProposedOperations | undefined {
  const message = messages.length === 1 ? messages[0] : undefined;
  if (message?.typeUrl !== PROPOSED_OPERATIONS) return undefined;
  try {
    return fromBinary(clob.MsgProposedOperationsSchema, message.value);
  } catch {
    return undefined;
  }
}
