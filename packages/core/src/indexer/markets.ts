/**
 * REST answers about markets and the chain (`spec/indexer-api.md` 1.8 to 1.10): perpetual markets,
 * order books, trades, candles, funding, sparklines, time, height, compliance, vaults, affiliates
 * and trader search.
 */

import type { AssetPositionResponseObject, PerpetualPositionResponseObject } from "./accounts.js";
import type { PageMetadata } from "./common.js";
import type {
  CandleResolution,
  ComplianceReason,
  ComplianceStatus,
  OrderSide,
  PerpetualMarketStatus,
  PerpetualMarketType,
  TradeType,
} from "./enums.js";
import type { PnlTicksResponseObject } from "./history.js";

/**
 * A perpetual market. Margin fractions are decimal strings derived from ppm; `trades24H`,
 * `atomicResolution`, `quantumConversionExponent`, `stepBaseQuantums` and `subticksPerTick` are numbers.
 *
 * @example
 * ```ts
 * const market: PerpetualMarketResponseObject = {
 *   clobPairId: "0", ticker: "BTC-USD", status: "ACTIVE", oraclePrice: "65000", priceChange24H: "0",
 *   volume24H: "0", trades24H: 0, nextFundingRate: "0", initialMarginFraction: "0.05",
 *   maintenanceMarginFraction: "0.03", openInterest: "0", atomicResolution: -10,
 *   quantumConversionExponent: -9, tickSize: "1", stepSize: "0.0001", stepBaseQuantums: 1000000,
 *   subticksPerTick: 100000, marketType: "CROSS", baseOpenInterest: "0",
 * };
 * ```
 */
export interface PerpetualMarketResponseObject {
  readonly clobPairId: string;
  readonly ticker: string;
  readonly status: PerpetualMarketStatus;
  readonly oraclePrice: string;
  readonly priceChange24H: string;
  readonly volume24H: string;
  readonly trades24H: number;
  readonly nextFundingRate: string;
  readonly initialMarginFraction: string;
  readonly maintenanceMarginFraction: string;
  readonly openInterest: string;
  readonly atomicResolution: number;
  readonly quantumConversionExponent: number;
  readonly tickSize: string;
  readonly stepSize: string;
  readonly stepBaseQuantums: number;
  readonly subticksPerTick: number;
  readonly marketType: PerpetualMarketType;
  readonly openInterestLowerCap?: string;
  readonly openInterestUpperCap?: string;
  readonly baseOpenInterest: string;
  readonly defaultFundingRate1H?: string;
}

/**
 * `GET /v4/perpetualMarkets`: a map keyed by ticker, even when one `ticker` was asked for.
 *
 * @example
 * ```ts
 * const body: PerpetualMarketsResponse = { markets: {} };
 * Object.keys(body.markets); // []
 * ```
 */
export interface PerpetualMarketsResponse {
  readonly markets: Readonly<Record<string, PerpetualMarketResponseObject>>;
}

/**
 * One level of an order book snapshot, sizes in base units.
 *
 * @example
 * ```ts
 * const level: OrderbookResponsePriceLevel = { price: "65000", size: "1.25" };
 * ```
 */
export interface OrderbookResponsePriceLevel {
  readonly price: string;
  readonly size: string;
}

/**
 * `GET /v4/orderbooks/perpetualMarket/:ticker`: bids descending, asks ascending, uncrossed, no zero
 * levels, at most 100 levels per side.
 *
 * @example
 * ```ts
 * const book: OrderbookResponseObject = {
 *   bids: [{ price: "64999", size: "1" }], asks: [{ price: "65001", size: "0.5" }],
 * };
 * ```
 */
export interface OrderbookResponseObject {
  readonly bids: readonly OrderbookResponsePriceLevel[];
  readonly asks: readonly OrderbookResponsePriceLevel[];
}

/**
 * A trade: one per taker fill; `id` is the fill's event id in hex, `side` the taker's side.
 *
 * @example
 * ```ts
 * const trade: TradeResponseObject = {
 *   id: "0000007b0000000200000001", side: "BUY", size: "0.1", price: "65000", type: "LIMIT",
 *   createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "123",
 * };
 * ```
 */
export interface TradeResponseObject {
  readonly id: string;
  readonly side: OrderSide;
  readonly size: string;
  readonly price: string;
  readonly type: TradeType;
  readonly createdAt: string;
  readonly createdAtHeight: string;
}

/**
 * `GET /v4/trades/perpetualMarket/:ticker`: newest first (oldest first when paged).
 *
 * @example
 * ```ts
 * const body: TradesResponse = { trades: [] };
 * ```
 */
export interface TradesResponse extends PageMetadata {
  readonly trades: readonly TradeResponseObject[];
}

/**
 * A candle. `trades` is a number; the order book mid prices are `null` when unknown.
 *
 * @example
 * ```ts
 * const candle: CandleResponseObject = {
 *   startedAt: "2026-01-01T00:00:00.000Z", ticker: "BTC-USD", resolution: "1MIN", low: "65000",
 *   high: "65010", open: "65000", close: "65010", baseTokenVolume: "0.2", usdVolume: "13001",
 *   trades: 2, startingOpenInterest: "0", orderbookMidPriceOpen: null, orderbookMidPriceClose: "65005",
 * };
 * ```
 */
export interface CandleResponseObject {
  readonly startedAt: string;
  readonly ticker: string;
  readonly resolution: CandleResolution;
  readonly low: string;
  readonly high: string;
  readonly open: string;
  readonly close: string;
  readonly baseTokenVolume: string;
  readonly usdVolume: string;
  readonly trades: number;
  readonly startingOpenInterest: string;
  readonly orderbookMidPriceOpen: string | null;
  readonly orderbookMidPriceClose: string | null;
}

/**
 * `GET /v4/candles/perpetualMarkets/:ticker`: newest first, up to the limit.
 *
 * @example
 * ```ts
 * const body: CandlesResponse = { candles: [] };
 * ```
 */
export interface CandlesResponse {
  readonly candles: readonly CandleResponseObject[];
}

/**
 * A historical funding rate; `price` is the oracle price at that time.
 *
 * @example
 * ```ts
 * const funding: HistoricalFundingResponseObject = {
 *   ticker: "BTC-USD", rate: "0.0000125", price: "65000", effectiveAt: "2026-01-01T01:00:00.000Z", effectiveAtHeight: "900",
 * };
 * ```
 */
export interface HistoricalFundingResponseObject {
  readonly ticker: string;
  readonly rate: string;
  readonly price: string;
  readonly effectiveAt: string;
  readonly effectiveAtHeight: string;
}

/**
 * `GET /v4/historicalFunding/:ticker`: newest first.
 *
 * @example
 * ```ts
 * const body: HistoricalFundingResponse = { historicalFunding: [] };
 * ```
 */
export interface HistoricalFundingResponse {
  readonly historicalFunding: readonly HistoricalFundingResponseObject[];
}

/**
 * `GET /v4/sparklines`: candle close prices per ticker, newest first; every known ticker is present.
 *
 * @example
 * ```ts
 * const body: SparklinesResponse = { "BTC-USD": ["65010", "65000"], "ETH-USD": [] };
 * ```
 */
export type SparklinesResponse = Readonly<Record<string, readonly string[]>>;

/**
 * `GET /v4/time`: `epoch` is seconds with a fractional part.
 *
 * @example
 * ```ts
 * const body: TimeResponse = { iso: "2026-01-01T00:00:00.123Z", epoch: 1767225600.123 };
 * ```
 */
export interface TimeResponse {
  readonly iso: string;
  readonly epoch: number;
}

/**
 * `GET /v4/height`: the latest indexed block (404 `No blocks found` before the first).
 *
 * @example
 * ```ts
 * const body: HeightResponse = { height: "42", time: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export interface HeightResponse {
  readonly height: string;
  readonly time: string;
}

/**
 * `GET /v4/screen?address=`: the legacy compliance screen.
 *
 * @example
 * ```ts
 * const body: ScreenResponse = { restricted: false };
 * ```
 */
export interface ScreenResponse {
  readonly restricted: boolean;
  readonly reason?: string;
}

/**
 * `GET /v4/compliance/screen/:address`.
 *
 * @example
 * ```ts
 * const body: ComplianceScreenResponse = { status: "COMPLIANT" };
 * ```
 */
export interface ComplianceScreenResponse {
  readonly status: ComplianceStatus;
  readonly reason?: ComplianceReason;
  readonly updatedAt?: string;
}

/**
 * `GET /v4/vault/v1/megavault/historicalPnl`.
 *
 * @example
 * ```ts
 * const body: MegavaultHistoricalPnlResponse = { megavaultPnl: [] };
 * ```
 */
export interface MegavaultHistoricalPnlResponse {
  readonly megavaultPnl: readonly PnlTicksResponseObject[];
}

/**
 * The PnL ticks of one vault.
 *
 * @example
 * ```ts
 * const vault: VaultHistoricalPnl = { ticker: "BTC-USD", historicalPnl: [] };
 * ```
 */
export interface VaultHistoricalPnl {
  readonly ticker: string;
  readonly historicalPnl: readonly PnlTicksResponseObject[];
}

/**
 * `GET /v4/vault/v1/vaults/historicalPnl`.
 *
 * @example
 * ```ts
 * const body: VaultsHistoricalPnlResponse = { vaultsPnl: [] };
 * ```
 */
export interface VaultsHistoricalPnlResponse {
  readonly vaultsPnl: readonly VaultHistoricalPnl[];
}

/**
 * The position of the megavault in one market.
 *
 * @example
 * ```ts
 * const position: VaultPosition = {
 *   ticker: "BTC-USD",
 *   assetPosition: { symbol: "USDC", side: "LONG", size: "1000", assetId: "0", subaccountNumber: 0 },
 *   equity: "1000",
 * };
 * ```
 */
export interface VaultPosition {
  readonly ticker: string;
  readonly assetPosition: AssetPositionResponseObject;
  readonly perpetualPosition?: PerpetualPositionResponseObject;
  readonly equity: string;
}

/**
 * `GET /v4/vault/v1/megavault/positions`.
 *
 * @example
 * ```ts
 * const body: MegavaultPositionsResponse = { positions: [] };
 * ```
 */
export interface MegavaultPositionsResponse {
  readonly positions: readonly VaultPosition[];
}

/**
 * `GET /v4/affiliates/metadata?address=`.
 *
 * @example
 * ```ts
 * const body: AffiliateMetadataResponse = { referralCode: "alice", isVolumeEligible: false, isAffiliate: true };
 * ```
 */
export interface AffiliateMetadataResponse {
  readonly referralCode: string;
  readonly isVolumeEligible: boolean;
  readonly isAffiliate: boolean;
}

/**
 * `GET /v4/affiliates/address?referralCode=`.
 *
 * @example
 * ```ts
 * const body: AffiliateAddressResponse = { address: "perpx1..." };
 * ```
 */
export interface AffiliateAddressResponse {
  readonly address: string;
}

/**
 * One affiliate of the snapshot; unlike the rest of the API, amounts here are JSON numbers.
 *
 * @example
 * ```ts
 * const entry: AffiliateSnapshotEntry = {
 *   affiliateAddress: "perpx1...", affiliateReferralCode: "alice", affiliateEarnings: 0,
 *   affiliateReferredTrades: 0, affiliateTotalReferredFees: 0, affiliateReferredUsers: 0,
 *   affiliateReferredNetProtocolEarnings: 0, affiliateReferredTotalVolume: 0,
 *   affiliateReferredMakerFees: 0, affiliateReferredTakerFees: 0, affiliateReferredMakerRebates: 0,
 * };
 * ```
 */
export interface AffiliateSnapshotEntry {
  readonly affiliateAddress: string;
  readonly affiliateReferralCode: string;
  readonly affiliateEarnings: number;
  readonly affiliateReferredTrades: number;
  readonly affiliateTotalReferredFees: number;
  readonly affiliateReferredUsers: number;
  readonly affiliateReferredNetProtocolEarnings: number;
  readonly affiliateReferredTotalVolume: number;
  readonly affiliateReferredMakerFees: number;
  readonly affiliateReferredTakerFees: number;
  readonly affiliateReferredMakerRebates: number;
}

/**
 * `GET /v4/affiliates/snapshot`.
 *
 * @example
 * ```ts
 * const body: AffiliateSnapshotResponse = { affiliateList: [], total: 0, currentOffset: 0 };
 * ```
 */
export interface AffiliateSnapshotResponse {
  readonly affiliateList: readonly AffiliateSnapshotEntry[];
  readonly total: number;
  readonly currentOffset: number;
}

/**
 * `GET /v4/affiliates/total_volume?address=`.
 *
 * @example
 * ```ts
 * const body: AffiliateTotalVolumeResponse = { totalVolume: null };
 * ```
 */
export interface AffiliateTotalVolumeResponse {
  readonly totalVolume: number | null;
}

/**
 * `GET /v4/trader/search?searchParam=`: `result` is absent when nothing matched.
 *
 * @example
 * ```ts
 * const body: TraderSearchResponse = {
 *   result: { address: "perpx1...", subaccountNumber: 0, subaccountId: "6c1e...", username: "alice" },
 * };
 * ```
 */
export interface TraderSearchResponse {
  readonly result?: {
    readonly address: string;
    readonly subaccountNumber: number;
    readonly subaccountId: string;
    readonly username: string;
  };
}
