/**
 * The params of each call by its public name: its row's params (see `RouteCallParams`).
 */
import type { RouteCallParams } from "./route-types.js";

/**
 * Params of {@link getAddress}: the owner, bech32 or `0x` hex.
 *
 * @example
 * ```ts
 * const params: GetAddressParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" };
 * ```
 */
export type GetAddressParams = RouteCallParams<"getAddress">;

/**
 * Params of {@link getSubaccount} and {@link getAssetPositions}: one subaccount `{ owner, number }`.
 *
 * @example
 * ```ts
 * const params: GetSubaccountParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetSubaccountParams = RouteCallParams<"getSubaccount">;

/**
 * Params of `restActions.getParentSubaccount` and `restActions.getParentAssetPositions`: `{ owner, number }` with
 * the parent's number (0..127).
 *
 * @example
 * ```ts
 * const params: GetParentSubaccountParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentSubaccountParams = RouteCallParams<"getParentSubaccount">;

/**
 * Params of {@link getPerpetualPositions}: the subaccount, `status` (only these), `limit` and the
 * created-before bounds.
 *
 * @example
 * ```ts
 * const params: GetPerpetualPositionsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, status: ["CLOSED"] };
 * ```
 */
export type GetPerpetualPositionsParams = RouteCallParams<"getPerpetualPositions">;

/**
 * Params of `restActions.getParentPerpetualPositions`: the parent subaccount and the filters of
 * {@link GetPerpetualPositionsParams}.
 *
 * @example
 * ```ts
 * const params: GetParentPerpetualPositionsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentPerpetualPositionsParams = RouteCallParams<"getParentPerpetualPositions">;

/**
 * Params of {@link getFills}: the subaccount, `market` (with `marketType`, `PERPETUAL` when left
 * out; `marketType` alone is refused), `includeTypes`/`excludeTypes`, `limit`, `page` and the
 * created-before bounds.
 *
 * @example
 * ```ts
 * const params: GetFillsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, market: "BTC-USD", limit: 100 };
 * ```
 */
export type GetFillsParams = RouteCallParams<"getFills">;

/**
 * Params of `restActions.getParentFills`: the parent subaccount, `includeTypes`/`excludeTypes`, `limit` and `page`.
 *
 * @example
 * ```ts
 * const params: GetParentFillsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, page: 1 };
 * ```
 */
export type GetParentFillsParams = RouteCallParams<"getParentFills">;

/**
 * Params of {@link getTransfers}: the subaccount, `limit`, `page` and the created-before bounds.
 *
 * @example
 * ```ts
 * const params: GetTransfersParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, limit: 10 };
 * ```
 */
export type GetTransfersParams = RouteCallParams<"getTransfers">;

/**
 * Params of `restActions.getParentTransfers`: the parent subaccount, `limit`, `page` and the created-before bounds.
 *
 * @example
 * ```ts
 * const params: GetParentTransfersParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentTransfersParams = RouteCallParams<"getParentTransfers">;

/**
 * Params of `restActions.getTransfersBetween`: the `source` and `recipient` subaccounts and the created-before bounds.
 *
 * @example
 * ```ts
 * const owner = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const params: GetTransfersBetweenParams = { source: { owner, number: 0 }, recipient: { owner, number: 1 } };
 * ```
 */
export type GetTransfersBetweenParams = RouteCallParams<"getTransfersBetween">;

/**
 * Params of {@link getOrders}: the subaccount and filters (`ticker`, `side`, `type`,
 * `includeTypes`/`excludeTypes`, `status`, good-til block or time bounds, not both, `limit`). The
 * server sorts by `goodTilBlock`, then `goodTilBlockTime`, descending; `returnLatestOrders: true`
 * gives ascending order (`false` is not sent: the server reverses on any value).
 *
 * @example
 * ```ts
 * const params: GetOrdersParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, status: ["OPEN"] };
 * ```
 */
export type GetOrdersParams = RouteCallParams<"getOrders">;

/**
 * Params of `restActions.getParentOrders`: the parent subaccount and the filters of {@link GetOrdersParams}.
 *
 * @example
 * ```ts
 * const params: GetParentOrdersParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentOrdersParams = RouteCallParams<"getParentOrders">;

/**
 * Params of {@link getOrder}: the order's indexer id (a UUID).
 *
 * @example
 * ```ts
 * const params: GetOrderParams = { orderId: "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33" };
 * ```
 */
export type GetOrderParams = RouteCallParams<"getOrder">;

/**
 * Params of {@link getPerpetualMarkets}: one `ticker` (an unknown one is a 400) and `limit`.
 *
 * @example
 * ```ts
 * const params: GetPerpetualMarketsParams = { ticker: "BTC-USD" };
 * ```
 */
export type GetPerpetualMarketsParams = RouteCallParams<"getPerpetualMarkets">;

/**
 * Params of {@link getOrderbook}: the market's `ticker`.
 *
 * @example
 * ```ts
 * const params: GetOrderbookParams = { ticker: "BTC-USD" };
 * ```
 */
export type GetOrderbookParams = RouteCallParams<"getOrderbook">;

/**
 * Params of {@link getTrades}: the market's `ticker`, `limit`, `page` and the created-before bounds.
 *
 * @example
 * ```ts
 * const params: GetTradesParams = { ticker: "BTC-USD", limit: 100 };
 * ```
 */
export type GetTradesParams = RouteCallParams<"getTrades">;

/**
 * Params of {@link getCandles}: the market's `ticker`, the `resolution`, `limit`, and `fromISO`
 * (inclusive) and `toISO` (exclusive) bounds on the candles' start.
 *
 * @example
 * ```ts
 * const params: GetCandlesParams = { ticker: "BTC-USD", resolution: "1MIN", fromISO: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export type GetCandlesParams = RouteCallParams<"getCandles">;

/**
 * Params of {@link getHistoricalFunding}: the market's `ticker`, `limit`, and only rates effective
 * at or before `effectiveBeforeOrAtHeight` / `effectiveBeforeOrAt`.
 *
 * @example
 * ```ts
 * const params: GetHistoricalFundingParams = { ticker: "BTC-USD", effectiveBeforeOrAtHeight: 5000 };
 * ```
 */
export type GetHistoricalFundingParams = RouteCallParams<"getHistoricalFunding">;

/**
 * Params of `restActions.getSparklines`: `timePeriod`, `ONE_DAY` (hourly closes) or `SEVEN_DAYS` (4-hourly).
 *
 * @example
 * ```ts
 * const params: GetSparklinesParams = { timePeriod: "SEVEN_DAYS" };
 * ```
 */
export type GetSparklinesParams = RouteCallParams<"getSparklines">;

/**
 * Params of {@link getHistoricalPnl}: the subaccount, `limit`, `page`, and the created-before and
 * created-on-or-after bounds (height or time).
 *
 * @example
 * ```ts
 * const params: GetHistoricalPnlParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, createdOnOrAfterHeight: 100 };
 * ```
 */
export type GetHistoricalPnlParams = RouteCallParams<"getHistoricalPnl">;

/**
 * Params of `restActions.getParentHistoricalPnl`: those of {@link GetHistoricalPnlParams} for a parent,
 * without `page` (this route does not page).
 *
 * @example
 * ```ts
 * const params: GetParentHistoricalPnlParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentHistoricalPnlParams = RouteCallParams<"getParentHistoricalPnl">;

/**
 * Params of `restActions.getPnl`: those of {@link GetHistoricalPnlParams} and `daily` (one tick a day
 * instead of an hour).
 *
 * @example
 * ```ts
 * const params: GetPnlParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, daily: true };
 * ```
 */
export type GetPnlParams = RouteCallParams<"getPnl">;

/**
 * Params of `restActions.getParentPnl`: those of {@link GetPnlParams} for a parent.
 *
 * @example
 * ```ts
 * const params: GetParentPnlParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentPnlParams = RouteCallParams<"getParentPnl">;

/**
 * Params of `restActions.getHistoricalTradingRewardAggregations`: the owner's `address`, the `period`,
 * `limit`, and only periods starting at or before `startingBeforeOrAt` / `startingBeforeOrAtHeight`.
 *
 * @example
 * ```ts
 * const params: GetHistoricalTradingRewardAggregationsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", period: "DAILY" };
 * ```
 */
export type GetHistoricalTradingRewardAggregationsParams =
  RouteCallParams<"getHistoricalTradingRewardAggregations">;

/**
 * Params of `restActions.getHistoricalBlockTradingRewards`: the owner's `address`, `limit` and the
 * starting-before bounds.
 *
 * @example
 * ```ts
 * const params: GetHistoricalBlockTradingRewardsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", limit: 10 };
 * ```
 */
export type GetHistoricalBlockTradingRewardsParams = RouteCallParams<"getHistoricalBlockTradingRewards">;

/**
 * Params of {@link getFundingPayments}: the subaccount, `limit`, `page`, `ticker`,
 * `createdOnOrAfter` and `showZeroPayments` (`false` sends nothing: the server includes zero
 * payments whenever the parameter is present).
 *
 * @example
 * ```ts
 * const params: GetFundingPaymentsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, showZeroPayments: true };
 * ```
 */
export type GetFundingPaymentsParams = RouteCallParams<"getFundingPayments">;

/**
 * Params of `restActions.getParentFundingPayments`: those of {@link GetFundingPaymentsParams} for a parent.
 *
 * @example
 * ```ts
 * const params: GetParentFundingPaymentsParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentFundingPaymentsParams = RouteCallParams<"getParentFundingPayments">;

/**
 * Params of `restActions.getTradeHistory`: the subaccount, `market` (with `marketType`), `limit` and `page`.
 *
 * @example
 * ```ts
 * const params: GetTradeHistoryParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, market: "BTC-USD" };
 * ```
 */
export type GetTradeHistoryParams = RouteCallParams<"getTradeHistory">;

/**
 * Params of `restActions.getParentTradeHistory`: those of {@link GetTradeHistoryParams} for a parent.
 *
 * @example
 * ```ts
 * const params: GetParentTradeHistoryParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export type GetParentTradeHistoryParams = RouteCallParams<"getParentTradeHistory">;

/**
 * Params of the address-only calls: the owner's `address`, bech32 or `0x` hex.
 *
 * @example
 * ```ts
 * const params: AddressParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" };
 * ```
 */
export type AddressParams = RouteCallParams<"getScreen">;

/**
 * Params of the vault PnL calls: the tick `resolution` (`hour`, the server's default, or `day`).
 *
 * @example
 * ```ts
 * const params: VaultPnlParams = { resolution: "day" };
 * ```
 */
export type VaultPnlParams = RouteCallParams<"getVaultsHistoricalPnl">;

/**
 * Params of `restActions.getAffiliateAddress`: the `referralCode` (3 to 32 letters and digits).
 *
 * @example
 * ```ts
 * const params: GetAffiliateAddressParams = { referralCode: "alice" };
 * ```
 */
export type GetAffiliateAddressParams = RouteCallParams<"getAffiliateAddress">;

/**
 * Params of `restActions.getAffiliateSnapshot`: `addressFilter` (only these affiliates), `offset` (rows
 * to skip), `limit` and `sortByAffiliateEarning` (highest first).
 *
 * @example
 * ```ts
 * const params: GetAffiliateSnapshotParams = { limit: 10, sortByAffiliateEarning: true };
 * ```
 */
export type GetAffiliateSnapshotParams = RouteCallParams<"getAffiliateSnapshot">;

/**
 * Params of `restActions.searchTrader`: `searchParam`, an address, subaccount id or username.
 *
 * @example
 * ```ts
 * const params: SearchTraderParams = { searchParam: "alice" };
 * ```
 */
export type SearchTraderParams = RouteCallParams<"searchTrader">;
