/**
 * REST answers about an account's history (`spec/indexer-api.md` 1.4 to 1.7 and 1.10): fills,
 * transfers, PnL, trading rewards, funding payments and trade history.
 */
import type { PageMetadata } from "./common.js";
import type {
  FillType,
  Liquidity,
  MarketType,
  OrderSide,
  OrderType,
  PerpetualMarketType,
  PositionSide,
  TradeHistoryAction,
  TradingRewardAggregationPeriod,
  TransferType,
} from "./enums.js";

/**
 * A fill. `fee` is negative for a rebate; the builder, router and `*Before` fields are optional.
 *
 * @example
 * ```ts
 * const fill: FillResponseObject = {
 *   id: "9a3f...", side: "BUY", liquidity: "TAKER", type: "LIMIT", market: "BTC-USD",
 *   marketType: "PERPETUAL", price: "65000", size: "0.1", fee: "3.25", affiliateRevShare: "0",
 *   createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "120", orderId: "0b9f...", subaccountNumber: 0,
 * };
 * ```
 */
export interface FillResponseObject {
  readonly id: string;
  readonly side: OrderSide;
  readonly liquidity: Liquidity;
  readonly type: FillType;
  readonly market: string;
  readonly marketType: MarketType;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly affiliateRevShare: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
  readonly orderId?: string;
  readonly clientMetadata?: string;
  readonly subaccountNumber: number;
  readonly builderFee?: string;
  readonly builderAddress?: string;
  readonly orderRouterAddress?: string;
  readonly orderRouterFee?: string;
  readonly positionSizeBefore?: string;
  readonly entryPriceBefore?: string;
  readonly positionSideBefore?: PositionSide;
}

/**
 * `GET /v4/fills` and `GET /v4/fills/parentSubaccountNumber`: newest first (oldest first when paged).
 *
 * @example
 * ```ts
 * const body: FillsResponse = { fills: [], pageSize: 100, totalResults: 0, offset: 0 };
 * ```
 */
export interface FillsResponse extends PageMetadata {
  readonly fills: readonly FillResponseObject[];
}

/**
 * One side of a transfer. A wallet (deposit or withdrawal) has no `subaccountNumber`.
 *
 * @example
 * ```ts
 * const wallet: TransferEndpoint = { address: "perpx1..." };
 * const subaccount: TransferEndpoint = { address: "perpx1...", subaccountNumber: 0 };
 * ```
 */
export interface TransferEndpoint {
  readonly address: string;
  readonly subaccountNumber?: number;
}

/**
 * A transfer; `type` is judged from the queried subaccount's side.
 *
 * @example
 * ```ts
 * const transfer: TransferResponseObject = {
 *   id: "1c2d...", sender: { address: "perpx1..." }, recipient: { address: "perpx1...", subaccountNumber: 0 },
 *   size: "100", createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "7", symbol: "USDC",
 *   type: "DEPOSIT", transactionHash: "A1B2...",
 * };
 * ```
 */
export interface TransferResponseObject {
  readonly id: string;
  readonly sender: TransferEndpoint;
  readonly recipient: TransferEndpoint;
  readonly size: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
  readonly symbol: string;
  readonly type: TransferType;
  readonly transactionHash: string;
}

/**
 * `GET /v4/transfers`: newest first.
 *
 * @example
 * ```ts
 * const body: TransfersResponse = { transfers: [] };
 * ```
 */
export interface TransfersResponse extends PageMetadata {
  readonly transfers: readonly TransferResponseObject[];
}

/**
 * One side of a transfer seen at parent level (`/v4/transfers/parentSubaccountNumber`).
 *
 * @example
 * ```ts
 * const side: ParentTransferEndpoint = { address: "perpx1...", parentSubaccountNumber: 0 };
 * ```
 */
export interface ParentTransferEndpoint {
  readonly address: string;
  readonly parentSubaccountNumber?: number;
}

/**
 * A transfer of `GET /v4/transfers/parentSubaccountNumber`: sides carry the parent number and the
 * type is judged at parent level.
 *
 * @example
 * ```ts
 * const parent: ParentSubaccountTransferResponseObject = {
 *   id: "1c2d...", sender: { address: "perpx1..." }, recipient: { address: "perpx1...", parentSubaccountNumber: 0 },
 *   size: "100", createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "7", symbol: "USDC",
 *   type: "DEPOSIT", transactionHash: "A1B2...",
 * };
 * ```
 */
export interface ParentSubaccountTransferResponseObject
  extends Omit<TransferResponseObject, "sender" | "recipient"> {
  readonly sender: ParentTransferEndpoint;
  readonly recipient: ParentTransferEndpoint;
}

/**
 * `GET /v4/transfers/parentSubaccountNumber`.
 *
 * @example
 * ```ts
 * const body: ParentSubaccountTransfersResponse = { transfers: [] };
 * ```
 */
export interface ParentSubaccountTransfersResponse extends PageMetadata {
  readonly transfers: readonly ParentSubaccountTransferResponseObject[];
}

/**
 * `GET /v4/transfers/between`: up to 1000 USDC transfers either way, newest first, typed from the
 * source side, and the net USDC from source to recipient.
 *
 * @example
 * ```ts
 * const body: TransfersBetweenResponse = { transfersSubset: [], totalNetTransfers: "0" };
 * ```
 */
export interface TransfersBetweenResponse {
  readonly transfersSubset: readonly TransferResponseObject[];
  readonly totalNetTransfers: string;
}

/**
 * A historical PnL tick (also the vaults' `PnlTick`).
 *
 * @example
 * ```ts
 * const tick: PnlTicksResponseObject = {
 *   equity: "10010", totalPnl: "10", netTransfers: "10000",
 *   createdAt: "2026-01-01T01:00:00.000Z", blockHeight: "900", blockTime: "2026-01-01T01:00:00.000Z",
 * };
 * ```
 */
export interface PnlTicksResponseObject {
  readonly equity: string;
  readonly totalPnl: string;
  readonly netTransfers: string;
  readonly createdAt: string;
  readonly blockHeight: string;
  readonly blockTime: string;
}

/**
 * `GET /v4/historical-pnl` (paged) and `/historical-pnl/parentSubaccountNumber` (never paged).
 *
 * @example
 * ```ts
 * const body: HistoricalPnlResponse = { historicalPnl: [] };
 * ```
 */
export interface HistoricalPnlResponse extends PageMetadata {
  readonly historicalPnl: readonly PnlTicksResponseObject[];
}

/**
 * A tick of the newer `GET /v4/pnl`.
 *
 * @example
 * ```ts
 * const tick: PnlResponseObject = {
 *   equity: "10010", netTransfers: "10000", totalPnl: "10", createdAt: "2026-01-01T01:00:00.000Z", createdAtHeight: "900",
 * };
 * ```
 */
export interface PnlResponseObject {
  readonly equity: string;
  readonly netTransfers: string;
  readonly totalPnl: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
}

/**
 * `GET /v4/pnl` and `/v4/pnl/parentSubaccountNumber`.
 *
 * @example
 * ```ts
 * const body: PnlResponse = { pnl: [] };
 * ```
 */
export interface PnlResponse extends PageMetadata {
  readonly pnl: readonly PnlResponseObject[];
}

/**
 * One aggregation period of trading rewards; `endedAt` and `endedAtHeight` are absent while the
 * period is running.
 *
 * @example
 * ```ts
 * const reward: HistoricalTradingRewardAggregation = {
 *   tradingReward: "1.5", startedAt: "2026-01-01T00:00:00.000Z", startedAtHeight: "1", period: "DAILY",
 * };
 * ```
 */
export interface HistoricalTradingRewardAggregation {
  readonly tradingReward: string;
  readonly startedAt: string;
  readonly startedAtHeight: string;
  readonly endedAt?: string;
  readonly endedAtHeight?: string;
  readonly period: TradingRewardAggregationPeriod;
}

/**
 * `GET /v4/historicalTradingRewardAggregations/:address`: newest first, empty periods omitted.
 *
 * @example
 * ```ts
 * const body: HistoricalTradingRewardAggregationsResponse = { rewards: [] };
 * ```
 */
export interface HistoricalTradingRewardAggregationsResponse {
  readonly rewards: readonly HistoricalTradingRewardAggregation[];
}

/**
 * The trading reward of one block.
 *
 * @example
 * ```ts
 * const reward: HistoricalBlockTradingReward = {
 *   tradingReward: "0.01", createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "12",
 * };
 * ```
 */
export interface HistoricalBlockTradingReward {
  readonly tradingReward: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
}

/**
 * `GET /v4/historicalBlockTradingRewards/:address`: newest first.
 *
 * @example
 * ```ts
 * const body: HistoricalBlockTradingRewardsResponse = { rewards: [] };
 * ```
 */
export interface HistoricalBlockTradingRewardsResponse {
  readonly rewards: readonly HistoricalBlockTradingReward[];
}

/**
 * A funding payment. Unlike everywhere else, `subaccountNumber` is a string here.
 *
 * @example
 * ```ts
 * const payment: FundingPaymentResponseObject = {
 *   createdAt: "2026-01-01T01:00:00.000Z", createdAtHeight: "900", perpetualId: "0", ticker: "BTC-USD",
 *   oraclePrice: "65000", size: "0.5", side: "LONG", rate: "0.0001", payment: "-3.25",
 *   subaccountNumber: "0", fundingIndex: "12.5",
 * };
 * ```
 */
export interface FundingPaymentResponseObject {
  readonly createdAt: string;
  readonly createdAtHeight: string;
  readonly perpetualId: string;
  readonly ticker: string;
  readonly oraclePrice: string;
  readonly size: string;
  readonly side: PositionSide;
  readonly rate: string;
  readonly payment: string;
  readonly subaccountNumber: string;
  readonly fundingIndex: string;
}

/**
 * `GET /v4/fundingPayments` and `/v4/fundingPayments/parentSubaccount`: newest first.
 *
 * @example
 * ```ts
 * const body: FundingPaymentsResponse = { fundingPayments: [] };
 * ```
 */
export interface FundingPaymentsResponse extends PageMetadata {
  readonly fundingPayments: readonly FundingPaymentResponseObject[];
}

/**
 * One entry of the trade history: how a fill changed the position.
 *
 * @example
 * ```ts
 * const entry: TradeHistoryResponseObject = {
 *   id: "5e1f...", subaccountNumber: 0, action: "OPEN", executionPrice: "65000", entryPrice: "65000",
 *   side: "BUY", positionSide: "LONG", prevSize: "0", additionalSize: "0.1", value: "6500", orderType: "LIMIT",
 *   netFee: "3.25", netRealizedPnl: "0", netRealizedPnlPercent: null, time: "2026-01-01T00:00:00.000Z",
 *   orderId: "0b9f...", marketId: "BTC-USD", marginMode: "CROSS",
 * };
 * ```
 */
export interface TradeHistoryResponseObject {
  readonly id: string;
  readonly subaccountNumber: number;
  readonly action: TradeHistoryAction;
  readonly executionPrice: string;
  readonly entryPrice: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide | null;
  readonly prevSize: string;
  readonly additionalSize: string;
  readonly value: string;
  readonly orderType: OrderType | null;
  readonly netFee: string;
  readonly netRealizedPnl: string;
  readonly netRealizedPnlPercent: string | null;
  readonly time: string;
  readonly orderId: string | null;
  /** The market's ticker (the reference names it `marketId`). */
  readonly marketId: string;
  readonly marginMode: PerpetualMarketType;
}

/**
 * `GET /v4/tradeHistory` and `/v4/tradeHistory/parentSubaccountNumber`.
 *
 * @example
 * ```ts
 * const body: TradeHistoryResponse = { tradeHistory: [] };
 * ```
 */
export interface TradeHistoryResponse extends PageMetadata {
  readonly tradeHistory: readonly TradeHistoryResponseObject[];
}
