import { describe, expect, it } from "vitest";
import { abciError } from "../../lib/errors.js";
import { clobErrors } from "./errors.js";

/**
 * The reference chain's clob errors (x/clob/types/errors.go; chain-protocol.md 1.10): code, name,
 * registered text. Pinned here so a change to any of them is a deliberate one.
 */
const REFERENCE: ReadonlyArray<readonly [number, string, string]> = [
  [2, "MemClobOrderDoesNotExist", "Order does not exist in memclob"],
  [3, "InvalidOrderSide", "Invalid order side"],
  [4, "InvalidOrderQuantums", "Invalid order quantums"],
  [5, "InvalidOrderGoodTilBlock", "Invalid order goodTilBlock"],
  [6, "InvalidOrderSubticks", "Invalid order subticks"],
  [7, "OrderIsCanceled", "Attempt to place an order that is already canceled"],
  [8, "InvalidClob", "ClobPair ID does not reference a valid CLOB"],
  [
    9,
    "MemClobCancelAlreadyExists",
    "A cancel already exists in the memclob for this order with a greater than or equal GoodTilBlock",
  ],
  [10, "HeightExceedsGoodTilBlock", "The next block height is greater than the GoodTilBlock of the message"],
  [
    11,
    "GoodTilBlockExceedsShortBlockWindow",
    "The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future",
  ],
  [12, "InvalidPlaceOrder", "MsgPlaceOrder is invalid"],
  [13, "InvalidMsgProposedMatchOrders", "MsgProposedMatchOrders is invalid"],
  [14, "StateFilledAmountNoChange", "State filled amount cannot be unchanged"],
  [15, "StateFilledAmountDecreasing", "State filled amount cannot decrease"],
  [16, "InvalidPruneStateFilledAmount", "Cannot prune state fill amount that does not exist"],
  [
    17,
    "OrderWouldExceedMaxOpenOrdersPerClobAndSide",
    "Subaccount cannot open more than 20 orders on a given CLOB and side",
  ],
  [
    18,
    "FillAmountNotDivisibleByStepSize",
    "`FillAmount` is not divisible by `StepBaseQuantums` of the specified `ClobPairId`",
  ],
  [19, "NoClobPairForPerpetual", "The provided perpetual ID does not have any associated CLOB pairs"],
  [20, "InvalidReplacement", "Replacing an existing order failed"],
  [21, "ClobPairAndPerpetualDoNotMatch", "Clob pair and perpetual ids do not match"],
  [22, "MatchedOrderNegativeFee", "Matched order has negative fee"],
  [
    23,
    "SubaccountFeeTransferFailed",
    "Subaccounts updated for a matched order, but fee transfer to fee-collector failed",
  ],
  [24, "OrderFullyFilled", "Order is fully filled"],
  [25, "PremiumWithNonPerpetualClobPair", "Attempting to get price premium with a non-perpetual CLOB pair"],
  [26, "ZeroIndexPriceForPremiumCalculation", "Index price is zero when calculating price premium"],
  [27, "InvalidClobPairParameter", "Invalid ClobPair parameter"],
  [28, "ZeroPriceForOracle", "Oracle price must be > 0."],
  [29, "InvalidStatefulOrderCancellation", "Invalid stateful order cancellation"],
  [
    30,
    "OrderReprocessed",
    "An order with the same `OrderId` and `OrderHash` has already been processed for this CLOB",
  ],
  [31, "MissingMidPrice", "Missing mid price for ClobPair"],
  [
    32,
    "StatefulOrderCancellationAlreadyExists",
    "Existing stateful order cancellation has higher-or-equal priority than the new one",
  ],
  [33, "ClobPairAlreadyExists", "ClobPair with id already exists"],
  [34, "OrderConflictsWithClobPairStatus", "Order conflicts with ClobPair status"],
  [35, "InvalidClobPairStatusTransition", "Invalid ClobPair status transition"],
  [36, "OperationConflictsWithClobPairStatus", "Operation conflicts with ClobPair status"],
  [37, "PerpetualDoesNotExist", "Perpetual does not exist in state"],
  [39, "InvalidClobPairUpdate", "ClobPair update is invalid"],
  [40, "InvalidAuthority", "Authority is invalid"],
  [
    41,
    "PerpetualAssociatedWithExistingClobPair",
    "perpetual ID is already associated with an existing CLOB pair",
  ],
  [42, "UnexpectedTimeInForce", "Unexpected time in force"],
  [43, "OrderHasRemainingSize", "Order has remaining size"],
  [44, "InvalidTimeInForce", "invalid time in force"],
  [45, "InvalidBatchCancel", "Invalid batch cancel message"],
  [46, "BatchCancelFailed", "Batch cancel has failed"],
  [47, "ClobNotInitialized", "CLOB has not been initialized"],
  [48, "DeprecatedField", "This field has been deprecated"],
  [49, "InvalidTwapOrderPlacement", "Invalid TWAP order placement"],
  [50, "InvalidBuilderCode", "Invalid builder code"],
  [1000, "InvalidLiquidationsConfig", "Proposed LiquidationsConfig is invalid"],
  [1001, "NoPerpetualPositionsToLiquidate", "Subaccount has no perpetual positions to liquidate"],
  [1002, "SubaccountNotLiquidatable", "Subaccount is not liquidatable"],
  [1003, "NoOpenPositionForPerpetual", "Subaccount does not have an open position for perpetual"],
  [1004, "InvalidLiquidationOrderTotalSize", "Liquidation order has invalid size"],
  [1005, "InvalidLiquidationOrderSide", "Liquidation order is on the wrong side"],
  [1006, "TotalFillAmountExceedsOrderSize", "Total fills amount exceeds size of liquidation order"],
  [1007, "LiquidationContainsNoFills", "Liquidation order does not contain any fills"],
  [
    1008,
    "SubaccountHasLiquidatedPerpetual",
    "Subaccount has previously liquidated this perpetual in the current block",
  ],
  [
    1009,
    "LiquidationOrderSizeSmallerThanMin",
    "Liquidation order has size smaller than min position notional specified in the liquidation config",
  ],
  [
    1010,
    "LiquidationOrderSizeGreaterThanMax",
    "Liquidation order has size greater than max position notional specified in the liquidation config",
  ],
  [
    1011,
    "LiquidationExceedsSubaccountMaxNotionalLiquidated",
    "Liquidation exceeds the maximum notional amount that a single subaccount can have liquidated per block",
  ],
  [
    1012,
    "LiquidationExceedsSubaccountMaxInsuranceLost",
    "Liquidation exceeds the maximum insurance fund payout amount for a given subaccount per block",
  ],
  [
    1013,
    "InsuranceFundHasInsufficientFunds",
    "Insurance fund does not have sufficient funds to cover liquidation losses",
  ],
  [1014, "InvalidPerpetualPositionSizeDelta", "Invalid perpetual position size delta"],
  [
    1015,
    "InvalidQuantumsForInsuranceFundDeltaCalculation",
    "Invalid delta base and/or quote quantums for insurance fund delta calculation",
  ],
  [1017, "DeleveragingAgainstSelf", "Cannot deleverage subaccount against itself"],
  [1018, "DuplicateDeleveragingFillSubaccounts", "Deleveraging match cannot have fills with same id"],
  [1019, "ZeroDeleveragingFillAmount", "Deleveraging match cannot have fills with zero amount"],
  [1020, "PositionCannotBeFullyOffset", "Position cannot be fully offset"],
  [
    1021,
    "DeleveragingIsFinalSettlementFlagMismatch",
    "Deleveraging match has incorrect value for isFinalSettlement flag",
  ],
  [1022, "LiquidationConflictsWithClobPairStatus", "Liquidation conflicts with ClobPair status"],
  [2000, "FokOrderCouldNotBeFullyFilled", "FillOrKill order could not be fully filled"],
  [2001, "ReduceOnlyWouldIncreasePositionSize", "Reduce-only orders cannot increase the position size"],
  [2002, "ReduceOnlyWouldChangePositionSide", "Reduce-only orders cannot change the position side"],
  [2003, "PostOnlyWouldCrossMakerOrder", "Post-only order would cross one or more maker orders"],
  [2004, "ImmediateExecutionOrderAlreadyFilled", "IOC order is already filled, remaining size is cancelled."],
  [2005, "WouldViolateIsolatedSubaccountConstraints", "Order would violate isolated subaccount constraints."],
  [3000, "InvalidOrderFlag", "Invalid order flags"],
  [3001, "InvalidStatefulOrderGoodTilBlockTime", "Invalid order goodTilBlockTime"],
  [
    3002,
    "LongTermOrdersCannotRequireImmediateExecution",
    "Stateful orders cannot require immediate execution",
  ],
  [3003, "TimeExceedsGoodTilBlockTime", "The block time is greater than the GoodTilBlockTime of the message"],
  [
    3004,
    "GoodTilBlockTimeExceedsStatefulOrderTimeWindow",
    "The GoodTilBlockTime of the message is further than StatefulOrderTimeWindow into the future",
  ],
  [
    3005,
    "StatefulOrderAlreadyExists",
    "Existing stateful order has higher-or-equal priority than the new one",
  ],
  [3006, "StatefulOrderDoesNotExist", "Stateful order does not exist"],
  [3007, "StatefulOrderCollateralizationCheckFailed", "Stateful order collateralization check failed"],
  [
    3008,
    "StatefulOrderPreviouslyCancelled",
    "Stateful order was previously cancelled and therefore cannot be placed",
  ],
  [
    3009,
    "StatefulOrderPreviouslyRemoved",
    "Stateful order was previously removed and therefore cannot be placed",
  ],
  [
    3010,
    "StatefulOrderCancellationFailedForAlreadyRemovedOrder",
    "Stateful order cancellation failed because the order was already removed from state",
  ],
  [4000, "InvalidMsgProposedOperations", "MsgProposedOperations is invalid"],
  [4001, "InvalidMatchOrder", "Match Order is invalid"],
  [4002, "OrderPlacementNotInOperationsQueue", "Order was not previously placed in operations queue"],
  [4003, "FillAmountIsZero", "Fill amount cannot be zero"],
  [4004, "InvalidDeleveragingFill", "Deleveraging fill is invalid"],
  [
    4005,
    "InvalidDeleveragedSubaccount",
    "Deleveraged subaccount in proposed deleveraged operation failed deleveraging validation",
  ],
  [4006, "InvalidOrderRemoval", "Order Removal is invalid"],
  [4007, "InvalidOrderRemovalReason", "Order Removal reason is invalid"],
  [
    4008,
    "ZeroFillDeleveragingForNonNegativeTncSubaccount",
    "Zero-fill deleveraging operation included in block for non-negative TNC subaccount",
  ],
  [5000, "InvalidBlockRateLimitConfig", "Proposed BlockRateLimitConfig is invalid"],
  [5001, "BlockRateLimitExceeded", "Block rate limit exceeded"],
  [6000, "InvalidConditionType", "Conditional type is invalid"],
  [6001, "InvalidConditionalOrderTriggerSubticks", "Conditional order trigger subticks is invalid"],
  [6002, "ConditionalOrderUntriggered", "Conditional order is untriggered"],
  [9000, "AssetOrdersNotImplemented", "Asset orders are not implemented"],
  [9001, "AssetUpdateNotImplemented", "Updates for assets other than USDC are not implemented"],
  [9002, "NotImplemented", "This function is not implemented"],
  [9003, "ReduceOnlyDisabled", "Reduce-only is currently disabled for non-IOC orders"],
  [10000, "InvalidEquityTierLimitConfig", "Proposed EquityTierLimitConfig is invalid"],
  [
    10001,
    "OrderWouldExceedMaxOpenOrdersEquityTierLimit",
    "Subaccount cannot open more orders due to equity tier limit.",
  ],
  [11000, "InvalidOrderRouterAddress", "Invalid order router address"],
  [11001, "InvalidAddress", "Invalid address"],
  [11002, "InvalidLeverage", "Invalid update leverage"],
  [11003, "LeverageExceedsMaximum", "Leverage exceeds maximum allowed for perpetual"],
  [11004, "InitialMarginPpmIsZero", "Initial margin ppm is zero"],
];

describe("clob error codes", () => {
  const registered = Object.values(clobErrors);

  it("registers every clob error of the reference chain with its code, name and text", () => {
    expect(registered).toHaveLength(REFERENCE.length);
    for (const [code, name, text] of REFERENCE) {
      const kind = registered.find((k) => k.code === code);
      expect(kind, `clob ${code}`).toBeDefined();
      expect({
        codespace: kind?.codespace,
        code: kind?.code,
        name: kind?.name,
        text: kind?.description,
      }).toEqual({
        codespace: "clob",
        code,
        name,
        text,
      });
    }
  });

  it("registers each code once", () => {
    expect(new Set(registered.map((k) => k.code)).size).toBe(registered.length);
  });

  it("wraps the registered text as the SDK does: the text alone, or '<details>: <text>'", () => {
    expect(abciError(clobErrors.invalidTimeInForce).log).toBe("invalid time in force");
    expect(abciError(clobErrors.invalidBatchCancel, "Order Batch cannot have zero client ids.").log).toBe(
      "Order Batch cannot have zero client ids.: Invalid batch cancel message",
    );
    expect(clobErrors.immediateExecutionAlreadyFilled.description).toBe(
      "IOC order is already filled, remaining size is cancelled.",
    );
    expect(clobErrors.invalidReplacement.description).toBe("Replacing an existing order failed");
    expect(clobErrors.reduceOnlyDisabled.description).toBe(
      "Reduce-only is currently disabled for non-IOC orders",
    );
  });
});
