/**
 * The clob module's errors (codespace `clob`), with the codes and descriptions of the reference
 * chain (chain-protocol.md 1.10).
 */
import { registerError } from "../../errors.js";

const clob = (code: number, description: string) => registerError("clob", code, description);

/** Every clob error the devnet returns. */
export const clobErrors = {
  orderDoesNotExist: clob(2, "Order does not exist in memclob"),
  invalidOrderSide: clob(3, "Invalid order side"),
  invalidOrderQuantums: clob(4, "Invalid order quantums"),
  invalidOrderGoodTilBlock: clob(5, "Invalid order goodTilBlock"),
  invalidOrderSubticks: clob(6, "Invalid order subticks"),
  orderIsCanceled: clob(7, "Attempt to place an order that is already canceled"),
  invalidClob: clob(8, "ClobPair ID does not reference a valid CLOB"),
  cancelAlreadyExists: clob(
    9,
    "A cancel already exists in the memclob for this order with a greater than or equal GoodTilBlock",
  ),
  heightExceedsGoodTilBlock: clob(
    10,
    "The next block height is greater than the GoodTilBlock of the message",
  ),
  goodTilBlockExceedsWindow: clob(
    11,
    "The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future",
  ),
  invalidPlaceOrder: clob(12, "MsgPlaceOrder is invalid"),
  invalidReplacement: clob(
    20,
    "An order with the same `OrderId` already exists for this CLOB with a greater-than-or-equal `GoodTilBlock` or Order Hash",
  ),
  orderFullyFilled: clob(24, "Order is fully filled"),
  conflictsWithStatus: clob(34, "Order conflicts with ClobPair status"),
  batchCancelFailed: clob(46, "Batch cancel has failed"),
  deprecatedField: clob(48, "This field has been deprecated"),
  reduceOnlyWouldIncrease: clob(2001, "Reduce-only orders cannot increase the position size"),
  reduceOnlyWouldChangeSide: clob(2002, "Reduce-only orders cannot change the position side"),
  postOnlyWouldCross: clob(2003, "Post-only order would cross one or more maker orders"),
  immediateExecutionAlreadyFilled: clob(
    2004,
    "IOC/FOK order is already filled, remaining size is cancelled.",
  ),
  invalidOrderFlag: clob(3000, "Invalid order flags"),
  invalidGoodTilBlockTime: clob(3001, "Invalid order goodTilBlockTime"),
  statefulImmediateExecution: clob(3002, "Stateful orders cannot require immediate execution"),
  timeExceedsGoodTilBlockTime: clob(
    3003,
    "The block time is greater than the GoodTilBlockTime of the message",
  ),
  goodTilBlockTimeExceedsWindow: clob(
    3004,
    "The GoodTilBlockTime of the message is further than StatefulOrderTimeWindow into the future",
  ),
  statefulOrderExists: clob(3005, "Existing stateful order has higher-or-equal priority than the new one"),
  statefulOrderDoesNotExist: clob(3006, "Stateful order does not exist"),
  collateralizationCheckFailed: clob(3007, "Stateful order collateralization check failed"),
  invalidProposedOperations: clob(4000, "MsgProposedOperations is invalid"),
  blockRateLimitExceeded: clob(5001, "Block rate limit exceeded"),
  invalidConditionType: clob(6000, "Conditional type is invalid"),
  invalidTriggerSubticks: clob(6001, "Conditional order trigger subticks is invalid"),
  reduceOnlyDisabled: clob(9003, "Reduce-only is currently disabled"),
  equityTierLimit: clob(10001, "Subaccount cannot open more orders due to equity tier limit."),
} as const;
