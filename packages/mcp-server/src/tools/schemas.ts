/**
 * The shapes tools answer: every field declared and typed (the indexer's records as `@perpx/core`
 * types them, the server's limits, verified states, cancels and the error object). A tool's result
 * is parsed through its shape, so it holds exactly these fields.
 */
import { z } from "zod";

/**
 * A decimal string, as tools answer every amount (signed where it can be negative: PnL, fees).
 *
 * @example
 * ```ts
 * decimal.parse("-1.5"); // "-1.5"
 * ```
 */
export const decimal = z.string().describe("a decimal number as a string");

const text = z.string();
const int = z.number().int();

/**
 * A perpetual market as the indexer answers it, and whether this server lets the caller trade it.
 *
 * @example
 * ```ts
 * market.shape.tradableByThisServer.parse(true); // true
 * ```
 */
export const market = z.object({
  clobPairId: text,
  ticker: text,
  status: text,
  oraclePrice: decimal,
  priceChange24H: decimal,
  volume24H: decimal,
  trades24H: int,
  nextFundingRate: decimal,
  initialMarginFraction: decimal,
  maintenanceMarginFraction: decimal,
  openInterest: decimal,
  atomicResolution: int,
  quantumConversionExponent: int,
  tickSize: decimal,
  stepSize: decimal,
  stepBaseQuantums: int,
  subticksPerTick: int,
  marketType: text,
  openInterestLowerCap: decimal.optional(),
  openInterestUpperCap: decimal.optional(),
  baseOpenInterest: decimal,
  defaultFundingRate1H: decimal.optional(),
  tradableByThisServer: z.boolean(),
});

/**
 * An order as the indexer answers it.
 *
 * @example
 * ```ts
 * order.shape.clientId.parse("7"); // "7"
 * ```
 */
export const order = z.object({
  id: text,
  subaccountId: text,
  clientId: text,
  clobPairId: text,
  side: text,
  size: decimal,
  totalFilled: decimal,
  price: decimal,
  type: text,
  status: text,
  timeInForce: text,
  postOnly: z.boolean(),
  reduceOnly: z.boolean(),
  orderFlags: text,
  goodTilBlock: text.optional(),
  goodTilBlockTime: text.optional(),
  createdAtHeight: text.optional(),
  createdAt: text.optional(),
  clientMetadata: text,
  triggerPrice: decimal.optional(),
  updatedAt: text.optional(),
  updatedAtHeight: text.optional(),
  ticker: text,
  subaccountNumber: int,
  builderAddress: text.optional(),
  feePpm: text.optional(),
  orderRouterAddress: text.optional(),
  duration: text.optional(),
  interval: text.optional(),
  priceTolerance: text.optional(),
});

/**
 * A fill as the indexer answers it.
 *
 * @example
 * ```ts
 * fill.shape.fee.parse("-0.01"); // "-0.01"
 * ```
 */
export const fill = z.object({
  id: text,
  side: text,
  liquidity: text,
  type: text,
  market: text,
  marketType: text,
  price: decimal,
  size: decimal,
  fee: decimal,
  affiliateRevShare: decimal,
  createdAt: text,
  createdAtHeight: text,
  orderId: text.optional(),
  clientMetadata: text.optional(),
  subaccountNumber: int,
  builderFee: decimal.optional(),
  builderAddress: text.optional(),
  orderRouterAddress: text.optional(),
  orderRouterFee: decimal.optional(),
  positionSizeBefore: decimal.optional(),
  entryPriceBefore: decimal.optional(),
  positionSideBefore: text.optional(),
});

/**
 * A perpetual position as the indexer answers it.
 *
 * @example
 * ```ts
 * position.shape.exitPrice.parse(null); // null
 * ```
 */
export const position = z.object({
  market: text,
  status: text,
  side: text,
  size: decimal,
  maxSize: decimal,
  entryPrice: decimal,
  exitPrice: decimal.nullable(),
  realizedPnl: decimal,
  unrealizedPnl: decimal,
  createdAt: text,
  createdAtHeight: text,
  closedAt: text.nullable(),
  sumOpen: decimal,
  sumClose: decimal,
  netFunding: decimal,
  subaccountNumber: int,
});

const assetPosition = z.object({
  symbol: text,
  side: text,
  size: decimal,
  assetId: text,
  subaccountNumber: int,
});

/**
 * A subaccount as the indexer answers it: equity, free collateral, open positions by market and
 * asset positions by symbol.
 *
 * @example
 * ```ts
 * subaccount.shape.equity.parse("1000"); // "1000"
 * ```
 */
export const subaccount = z.object({
  address: text,
  subaccountNumber: int,
  equity: decimal,
  freeCollateral: decimal,
  openPerpetualPositions: z.record(text, position),
  assetPositions: z.record(text, assetPosition),
  marginEnabled: z.boolean(),
  updatedAtHeight: text,
  latestProcessedBlockHeight: text,
});

/**
 * A trade as the indexer answers it.
 *
 * @example
 * ```ts
 * trade.shape.price.parse("65000"); // "65000"
 * ```
 */
export const trade = z.object({
  id: text,
  side: text,
  size: decimal,
  price: decimal,
  type: text,
  createdAt: text,
  createdAtHeight: text,
});

/**
 * A candle as the indexer answers it.
 *
 * @example
 * ```ts
 * candle.shape.orderbookMidPriceOpen.parse(null); // null
 * ```
 */
export const candle = z.object({
  startedAt: text,
  ticker: text,
  resolution: text,
  low: decimal,
  high: decimal,
  open: decimal,
  close: decimal,
  baseTokenVolume: decimal,
  usdVolume: decimal,
  trades: int,
  startingOpenInterest: decimal,
  orderbookMidPriceOpen: decimal.nullable(),
  orderbookMidPriceClose: decimal.nullable(),
});

/**
 * A funding payment, a PnL tick and a historical funding rate, as the indexer answers them.
 *
 * @example
 * ```ts
 * funding.pnlTick.shape.totalPnl.parse("-3.5"); // "-3.5"
 * ```
 */
export const funding = {
  payment: z.object({
    createdAt: text,
    createdAtHeight: text,
    perpetualId: text,
    ticker: text,
    oraclePrice: decimal,
    size: decimal,
    side: text,
    rate: decimal,
    payment: decimal,
    subaccountNumber: text,
    fundingIndex: decimal,
  }),
  pnlTick: z.object({
    equity: decimal,
    totalPnl: decimal,
    netTransfers: decimal,
    createdAt: text,
    blockHeight: text,
    blockTime: text,
  }),
  rate: z.object({
    ticker: text,
    rate: decimal,
    price: decimal,
    effectiveAt: text,
    effectiveAtHeight: text,
  }),
};

/**
 * The server's limits for the caller (`TradingLimits`; `allowedMarkets` absent: every market).
 *
 * @example
 * ```ts
 * tradingLimits.shape.maxLeverage.parse("5"); // "5"
 * ```
 */
export const tradingLimits = z.object({
  allowedMarkets: z.array(text).optional(),
  priceBandBps: int,
  maxOrderNotional: decimal,
  maxPositionNotional: decimal,
  maxLeverage: decimal,
  maxOpenOrders: int,
  maxDailyLoss: decimal,
  confirmAboveNotional: decimal,
  defaultSlippageBps: int,
  maxSlippageBps: int,
  maxWritesPerMinute: int,
});

/**
 * The daily-loss breaker's state.
 *
 * @example
 * ```ts
 * dailyLossState.shape.tripped.parse(false); // false
 * ```
 */
export const dailyLossState = z.object({
  day: text,
  startEquity: decimal,
  equity: decimal,
  loss: decimal,
  limit: decimal,
  tripped: z.boolean(),
});

/**
 * The verified state a write tool answers (`structuredContent.verification`).
 *
 * @example
 * ```ts
 * verification.parse({ state: "RESTING", final: false, filledSize: "0", fills: [], fees: "0" }).state; // "RESTING"
 * ```
 */
export const verification = z.object({
  state: z.enum(["FILLED", "PARTIALLY_FILLED", "RESTING", "CANCELED", "EXPIRED", "REJECTED", "UNKNOWN"]),
  final: z.boolean(),
  filledSize: decimal,
  fills: z.array(
    z.object({
      size: decimal,
      height: z.string(),
      role: z.enum(["taker", "maker"]),
      price: decimal.optional().describe("USD; absent when the fill was seen on the node alone"),
      fee: z.string().optional().describe("USDC; negative for a rebate"),
    }),
  ),
  averagePrice: decimal.optional().describe("size-weighted average fill price, USD, when known"),
  fees: z.string().describe("USDC paid in fees over the fills (negative: a rebate)"),
  reason: z
    .string()
    .optional()
    .describe("why the order left the book unfilled, e.g. post_only_would_cross, reduce_only, ioc_unfilled"),
});

/** How `place_order` describes a TWAP it placed: its schedule, its suborders and their size. */
const twapSchedule = z.object({
  durationSeconds: z.number().int(),
  intervalSeconds: z.number().int(),
  priceToleranceBps: z.number().int().describe("a market TWAP's bound around the oracle (0 with a price)"),
  suborders: z.number().int().describe("how many suborders the chain places"),
  suborderSize: z
    .string()
    .describe("each suborder's size in the base asset (the chain catches up missed legs)"),
  schedule: z.string().describe("the schedule in words"),
});

/**
 * A TWAP's schedule as `place_order` answers it.
 * @example
 * ```ts
 * const schedule: TwapSchedule = { durationSeconds: 300, intervalSeconds: 60, priceToleranceBps: 0, suborders: 5, suborderSize: "0.001", schedule: "5 suborders" };
 * ```
 */
export type TwapSchedule = z.infer<typeof twapSchedule>;

/**
 * The order `place_order` checked (and sent, unless a dry run), quantised.
 *
 * @example
 * ```ts
 * placedOrder.shape.clientId.parse(7); // 7
 * ```
 */
export const placedOrder = z.object({
  ticker: text,
  side: text,
  type: text,
  size: decimal,
  price: decimal,
  clientId: int,
  reduceOnly: z.boolean(),
  twap: twapSchedule.optional().describe("a TWAP's schedule and suborders"),
});

/**
 * The account's risk around an order `place_order` checked: the position before and after, and the
 * oracle price its notional was taken at.
 *
 * @example
 * ```ts
 * orderRisk.shape.markPrice.parse("65000.5"); // "65000.5"
 * orderRisk.shape.leverageAfter.parse(null); // null
 * ```
 */
export const orderRisk = z.object({
  equity: decimal,
  positionBefore: decimal,
  positionAfter: decimal,
  positionNotionalAfter: decimal,
  markPrice: decimal.describe("the oracle price the checks and the reservation used, USD"),
  leverageAfter: decimal.nullable(),
});

/**
 * One order's outcome of a cancel tool.
 *
 * @example
 * ```ts
 * cancelResult.shape.finalStatus.parse("CANCELED"); // "CANCELED"
 * ```
 */
export const cancelResult = z.object({
  ticker: z.string(),
  clientId: z.string(),
  orderId: z.string(),
  cancelled: z.boolean(),
  finalStatus: z.string(),
  filledBeforeCancel: decimal,
  txHash: z.string().optional(),
});
