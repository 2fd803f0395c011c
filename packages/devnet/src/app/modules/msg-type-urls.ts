/**
 * Type URLs the modules compare messages against, written out: reading a schema's `typeName`
 * builds the descriptors of its file (and of the files it imports), which a module's constant would
 * do when the bundle loads. `msg-type-urls.test.ts` checks each against its schema.
 */

/** `perpx.clob.v1.MsgPlaceOrder`. */
export const PLACE_ORDER_URL = "/perpx.clob.v1.MsgPlaceOrder";
/** `perpx.clob.v1.MsgCancelOrder`. */
export const CANCEL_ORDER_URL = "/perpx.clob.v1.MsgCancelOrder";
/** `perpx.clob.v1.MsgBatchCancel`. */
export const BATCH_CANCEL_URL = "/perpx.clob.v1.MsgBatchCancel";
/** `perpx.clob.v1.MsgProposedOperations`, the proposer's message at the head of every block. */
export const PROPOSED_OPERATIONS_URL = "/perpx.clob.v1.MsgProposedOperations";
/** `perpx.clob.v1.MsgUpdateLeverage`. */
export const UPDATE_LEVERAGE_URL = "/perpx.clob.v1.MsgUpdateLeverage";
/** `perpx.sending.v1.MsgCreateTransfer`. */
export const CREATE_TRANSFER_URL = "/perpx.sending.v1.MsgCreateTransfer";
/** `perpx.accountplus.v1.TxExtension`, in a permissioned-key tx's non-critical extension options. */
export const TX_EXTENSION_URL = "/perpx.accountplus.v1.TxExtension";
