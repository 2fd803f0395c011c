/**
 * The indexer's enumerations (`spec/indexer-api.md` section 2): each a string union plus a
 * `readonly` array of its values in the reference's order, so a caller can validate or iterate.
 */

/**
 * An order's side.
 *
 * @example
 * ```ts
 * const side: OrderSide = "BUY";
 * ORDER_SIDES.includes(side); // true
 * ```
 */
export type OrderSide = "BUY" | "SELL";
/**
 * Every {@link OrderSide}.
 *
 * @example
 * ```ts
 * ORDER_SIDES; // ["BUY", "SELL"]
 * ```
 */
export const ORDER_SIDES: readonly OrderSide[] = ["BUY", "SELL"];

/**
 * An order's status as the API reports it: the stored statuses plus `BEST_EFFORT_OPENED` (seen in
 * the book, not yet committed on chain). `BEST_EFFORT_CANCELED` is a removal seen off-chain and not
 * yet confirmed; `UNTRIGGERED` a conditional order that has not fired.
 *
 * @example
 * ```ts
 * const status: OrderStatus = "BEST_EFFORT_OPENED";
 * ```
 */
export type OrderStatus =
  | "OPEN"
  | "FILLED"
  | "CANCELED"
  | "BEST_EFFORT_CANCELED"
  | "UNTRIGGERED"
  | "ERROR"
  | "BEST_EFFORT_OPENED";
/**
 * Every {@link OrderStatus}, as accepted by the `status` filter of `/v4/orders`.
 *
 * @example
 * ```ts
 * ORDER_STATUSES.includes("UNTRIGGERED"); // true
 * ```
 */
export const ORDER_STATUSES: readonly OrderStatus[] = [
  "OPEN",
  "FILLED",
  "CANCELED",
  "BEST_EFFORT_CANCELED",
  "UNTRIGGERED",
  "ERROR",
  "BEST_EFFORT_OPENED",
];

/**
 * An order's type.
 *
 * @example
 * ```ts
 * const type: OrderType = "STOP_LIMIT";
 * ```
 */
export type OrderType =
  | "LIMIT"
  | "MARKET"
  | "STOP_LIMIT"
  | "STOP_MARKET"
  | "TRAILING_STOP"
  | "TAKE_PROFIT"
  | "TAKE_PROFIT_MARKET"
  | "TWAP"
  | "TWAP_SUBORDER";
/**
 * Every {@link OrderType}.
 *
 * @example
 * ```ts
 * ORDER_TYPES.length; // 9
 * ```
 */
export const ORDER_TYPES: readonly OrderType[] = [
  "LIMIT",
  "MARKET",
  "STOP_LIMIT",
  "STOP_MARKET",
  "TRAILING_STOP",
  "TAKE_PROFIT",
  "TAKE_PROFIT_MARKET",
  "TWAP",
  "TWAP_SUBORDER",
];

/**
 * An order's time in force as the API shows it; a post-only order shows `GTT` with `postOnly: true`.
 *
 * @example
 * ```ts
 * const tif: TimeInForce = "IOC";
 * ```
 */
export type TimeInForce = "GTT" | "FOK" | "IOC";
/**
 * Every {@link TimeInForce}.
 *
 * @example
 * ```ts
 * TIME_IN_FORCES; // ["GTT", "FOK", "IOC"]
 * ```
 */
export const TIME_IN_FORCES: readonly TimeInForce[] = ["GTT", "FOK", "IOC"];

/**
 * A perpetual position's status.
 *
 * @example
 * ```ts
 * const status: PerpetualPositionStatus = "CLOSED";
 * ```
 */
export type PerpetualPositionStatus = "OPEN" | "CLOSED" | "LIQUIDATED";
/**
 * Every {@link PerpetualPositionStatus}, as accepted by the `status` filter of `/v4/perpetualPositions`.
 *
 * @example
 * ```ts
 * PERPETUAL_POSITION_STATUSES; // ["OPEN", "CLOSED", "LIQUIDATED"]
 * ```
 */
export const PERPETUAL_POSITION_STATUSES: readonly PerpetualPositionStatus[] = [
  "OPEN",
  "CLOSED",
  "LIQUIDATED",
];

/**
 * A position's side (perpetual and asset positions).
 *
 * @example
 * ```ts
 * const side: PositionSide = "SHORT";
 * ```
 */
export type PositionSide = "LONG" | "SHORT";
/**
 * Every {@link PositionSide}.
 *
 * @example
 * ```ts
 * POSITION_SIDES; // ["LONG", "SHORT"]
 * ```
 */
export const POSITION_SIDES: readonly PositionSide[] = ["LONG", "SHORT"];

/**
 * A fill's type: `LIQUIDATED` is the liquidated taker, `LIQUIDATION` its maker, `DELEVERAGED` the
 * deleveraged taker, `OFFSETTING` its maker.
 *
 * @example
 * ```ts
 * const type: FillType = "LIQUIDATION";
 * ```
 */
export type FillType =
  | "LIMIT"
  | "LIQUIDATED"
  | "LIQUIDATION"
  | "DELEVERAGED"
  | "OFFSETTING"
  | "TWAP_SUBORDER";
/**
 * Every {@link FillType}, as accepted by `includeTypes` / `excludeTypes` of `/v4/fills`.
 *
 * @example
 * ```ts
 * FILL_TYPES.includes("OFFSETTING"); // true
 * ```
 */
export const FILL_TYPES: readonly FillType[] = [
  "LIMIT",
  "LIQUIDATED",
  "LIQUIDATION",
  "DELEVERAGED",
  "OFFSETTING",
  "TWAP_SUBORDER",
];

/**
 * Which side of a match a fill was.
 *
 * @example
 * ```ts
 * const liquidity: Liquidity = "MAKER";
 * ```
 */
export type Liquidity = "TAKER" | "MAKER";
/**
 * Every {@link Liquidity}.
 *
 * @example
 * ```ts
 * LIQUIDITIES; // ["TAKER", "MAKER"]
 * ```
 */
export const LIQUIDITIES: readonly Liquidity[] = ["TAKER", "MAKER"];

/**
 * A trade's type, derived one-to-one from the taker fill's type.
 *
 * @example
 * ```ts
 * const type: TradeType = "DELEVERAGED";
 * ```
 */
export type TradeType = "LIMIT" | "LIQUIDATED" | "DELEVERAGED" | "TWAP_SUBORDER";
/**
 * Every {@link TradeType}.
 *
 * @example
 * ```ts
 * TRADE_TYPES; // ["LIMIT", "LIQUIDATED", "DELEVERAGED", "TWAP_SUBORDER"]
 * ```
 */
export const TRADE_TYPES: readonly TradeType[] = ["LIMIT", "LIQUIDATED", "DELEVERAGED", "TWAP_SUBORDER"];

/**
 * A perpetual market's status.
 *
 * @example
 * ```ts
 * const status: PerpetualMarketStatus = "ACTIVE";
 * ```
 */
export type PerpetualMarketStatus =
  | "ACTIVE"
  | "PAUSED"
  | "CANCEL_ONLY"
  | "POST_ONLY"
  | "INITIALIZING"
  | "FINAL_SETTLEMENT";
/**
 * Every {@link PerpetualMarketStatus}.
 *
 * @example
 * ```ts
 * PERPETUAL_MARKET_STATUSES.includes("FINAL_SETTLEMENT"); // true
 * ```
 */
export const PERPETUAL_MARKET_STATUSES: readonly PerpetualMarketStatus[] = [
  "ACTIVE",
  "PAUSED",
  "CANCEL_ONLY",
  "POST_ONLY",
  "INITIALIZING",
  "FINAL_SETTLEMENT",
];

/**
 * A perpetual market's margin type.
 *
 * @example
 * ```ts
 * const type: PerpetualMarketType = "ISOLATED";
 * ```
 */
export type PerpetualMarketType = "CROSS" | "ISOLATED";
/**
 * Every {@link PerpetualMarketType}.
 *
 * @example
 * ```ts
 * PERPETUAL_MARKET_TYPES; // ["CROSS", "ISOLATED"]
 * ```
 */
export const PERPETUAL_MARKET_TYPES: readonly PerpetualMarketType[] = ["CROSS", "ISOLATED"];

/**
 * The market type of the fills filter (`marketType`); `SPOT` is accepted but unsupported (404).
 *
 * @example
 * ```ts
 * const type: MarketType = "PERPETUAL";
 * ```
 */
export type MarketType = "PERPETUAL" | "SPOT";
/**
 * Every {@link MarketType}.
 *
 * @example
 * ```ts
 * MARKET_TYPES; // ["PERPETUAL", "SPOT"]
 * ```
 */
export const MARKET_TYPES: readonly MarketType[] = ["PERPETUAL", "SPOT"];

/**
 * A candle resolution.
 *
 * @example
 * ```ts
 * const resolution: CandleResolution = "15MINS";
 * ```
 */
export type CandleResolution = "1MIN" | "5MINS" | "15MINS" | "30MINS" | "1HOUR" | "4HOURS" | "1DAY";
/**
 * Every {@link CandleResolution}, shortest first.
 *
 * @example
 * ```ts
 * CANDLE_RESOLUTIONS[0]; // "1MIN"
 * ```
 */
export const CANDLE_RESOLUTIONS: readonly CandleResolution[] = [
  "1MIN",
  "5MINS",
  "15MINS",
  "30MINS",
  "1HOUR",
  "4HOURS",
  "1DAY",
];
/**
 * The length of each {@link CandleResolution} in seconds. A candle starts at epoch seconds floored
 * to a multiple of its length, so buckets align to UTC (`1DAY` starts at 00:00Z).
 *
 * @example
 * ```ts
 * const start = Math.floor(Date.now() / 1000 / CANDLE_RESOLUTION_SECONDS["1HOUR"]) * CANDLE_RESOLUTION_SECONDS["1HOUR"];
 * ```
 */
export const CANDLE_RESOLUTION_SECONDS: Readonly<Record<CandleResolution, number>> = {
  "1MIN": 60,
  "5MINS": 300,
  "15MINS": 900,
  "30MINS": 1800,
  "1HOUR": 3600,
  "4HOURS": 14_400,
  "1DAY": 86_400,
};

/**
 * A transfer's type, seen from the queried subaccount.
 *
 * @example
 * ```ts
 * const type: TransferType = "DEPOSIT";
 * ```
 */
export type TransferType = "TRANSFER_IN" | "TRANSFER_OUT" | "DEPOSIT" | "WITHDRAWAL";
/**
 * Every {@link TransferType}.
 *
 * @example
 * ```ts
 * TRANSFER_TYPES; // ["TRANSFER_IN", "TRANSFER_OUT", "DEPOSIT", "WITHDRAWAL"]
 * ```
 */
export const TRANSFER_TYPES: readonly TransferType[] = [
  "TRANSFER_IN",
  "TRANSFER_OUT",
  "DEPOSIT",
  "WITHDRAWAL",
];

/**
 * A trading reward aggregation period.
 *
 * @example
 * ```ts
 * const period: TradingRewardAggregationPeriod = "WEEKLY";
 * ```
 */
export type TradingRewardAggregationPeriod = "DAILY" | "WEEKLY" | "MONTHLY";
/**
 * Every {@link TradingRewardAggregationPeriod}.
 *
 * @example
 * ```ts
 * TRADING_REWARD_AGGREGATION_PERIODS; // ["DAILY", "WEEKLY", "MONTHLY"]
 * ```
 */
export const TRADING_REWARD_AGGREGATION_PERIODS: readonly TradingRewardAggregationPeriod[] = [
  "DAILY",
  "WEEKLY",
  "MONTHLY",
];

/**
 * The `timePeriod` of `/v4/sparklines`: `ONE_DAY` (1HOUR candles over 24 h) or `SEVEN_DAYS`
 * (4HOURS candles over 7 days).
 *
 * @example
 * ```ts
 * const period: SparklineTimePeriod = "ONE_DAY";
 * ```
 */
export type SparklineTimePeriod = "ONE_DAY" | "SEVEN_DAYS";
/**
 * Every {@link SparklineTimePeriod}.
 *
 * @example
 * ```ts
 * SPARKLINE_TIME_PERIODS; // ["ONE_DAY", "SEVEN_DAYS"]
 * ```
 */
export const SPARKLINE_TIME_PERIODS: readonly SparklineTimePeriod[] = ["ONE_DAY", "SEVEN_DAYS"];

/**
 * The tick interval of vault PnL (`resolution` of the vault routes), lowercase.
 *
 * @example
 * ```ts
 * const interval: PnlTickInterval = "day";
 * ```
 */
export type PnlTickInterval = "hour" | "day";
/**
 * Every {@link PnlTickInterval}.
 *
 * @example
 * ```ts
 * PNL_TICK_INTERVALS; // ["hour", "day"]
 * ```
 */
export const PNL_TICK_INTERVALS: readonly PnlTickInterval[] = ["hour", "day"];

/**
 * An address's compliance status; `CLOSE_ONLY` and `FIRST_STRIKE_CLOSE_ONLY` still pass the
 * address-scoped routes, `BLOCKED` gets 403 `COMPLIANCE_BLOCKED`.
 *
 * @example
 * ```ts
 * const status: ComplianceStatus = "COMPLIANT";
 * ```
 */
export type ComplianceStatus =
  | "COMPLIANT"
  | "FIRST_STRIKE_CLOSE_ONLY"
  | "FIRST_STRIKE"
  | "CLOSE_ONLY"
  | "BLOCKED";
/**
 * Every {@link ComplianceStatus}.
 *
 * @example
 * ```ts
 * COMPLIANCE_STATUSES.includes("BLOCKED"); // true
 * ```
 */
export const COMPLIANCE_STATUSES: readonly ComplianceStatus[] = [
  "COMPLIANT",
  "FIRST_STRIKE_CLOSE_ONLY",
  "FIRST_STRIKE",
  "CLOSE_ONLY",
  "BLOCKED",
];

/**
 * Why an address has its compliance status.
 *
 * @example
 * ```ts
 * const reason: ComplianceReason = "MANUAL";
 * ```
 */
export type ComplianceReason =
  | "MANUAL"
  | "US_GEO"
  | "CA_GEO"
  | "GB_GEO"
  | "SANCTIONED_GEO"
  | "COMPLIANCE_PROVIDER";
/**
 * Every {@link ComplianceReason}.
 *
 * @example
 * ```ts
 * COMPLIANCE_REASONS.length; // 6
 * ```
 */
export const COMPLIANCE_REASONS: readonly ComplianceReason[] = [
  "MANUAL",
  "US_GEO",
  "CA_GEO",
  "GB_GEO",
  "SANCTIONED_GEO",
  "COMPLIANCE_PROVIDER",
];

/**
 * The `code` of a 403 answer on an address-scoped route.
 *
 * @example
 * ```ts
 * const code: BlockedCode = "GEOBLOCKED";
 * ```
 */
export type BlockedCode = "GEOBLOCKED" | "COMPLIANCE_BLOCKED";
/**
 * Every {@link BlockedCode}.
 *
 * @example
 * ```ts
 * BLOCKED_CODES; // ["GEOBLOCKED", "COMPLIANCE_BLOCKED"]
 * ```
 */
export const BLOCKED_CODES: readonly BlockedCode[] = ["GEOBLOCKED", "COMPLIANCE_BLOCKED"];

/**
 * A trade-history entry's action.
 *
 * @example
 * ```ts
 * const action: TradeHistoryAction = "PARTIAL_CLOSE";
 * ```
 */
export type TradeHistoryAction =
  | "OPEN"
  | "EXTEND"
  | "PARTIAL_CLOSE"
  | "CLOSE"
  | "LIQUIDATION_PARTIAL_CLOSE"
  | "LIQUIDATION_CLOSE";
/**
 * Every {@link TradeHistoryAction}.
 *
 * @example
 * ```ts
 * TRADE_HISTORY_ACTIONS.includes("EXTEND"); // true
 * ```
 */
export const TRADE_HISTORY_ACTIONS: readonly TradeHistoryAction[] = [
  "OPEN",
  "EXTEND",
  "PARTIAL_CLOSE",
  "CLOSE",
  "LIQUIDATION_PARTIAL_CLOSE",
  "LIQUIDATION_CLOSE",
];
