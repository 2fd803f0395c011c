/**
 * REST answers about accounts (`spec/indexer-api.md` 1.1 to 1.3): subaccounts, parent
 * subaccounts, positions and orders. Decimals and heights are strings; the numeric exceptions of
 * section 0 are numbers.
 */
import type {
  OrderSide,
  OrderStatus,
  OrderType,
  PerpetualPositionStatus,
  PositionSide,
  TimeInForce,
} from "./enums.js";

/**
 * A perpetual position. `size` is signed (negative for a short); `exitPrice` and `closedAt` are
 * `null` while the position is open; `netFunding` is settled plus unsettled funding.
 *
 * @example
 * ```ts
 * const position: PerpetualPositionResponseObject = {
 *   market: "BTC-USD", status: "OPEN", side: "SHORT", size: "-0.5", maxSize: "-0.5",
 *   entryPrice: "65000", exitPrice: null, realizedPnl: "0", unrealizedPnl: "-12.5",
 *   createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "120", closedAt: null,
 *   sumOpen: "0.5", sumClose: "0", netFunding: "0", subaccountNumber: 0,
 * };
 * ```
 */
export interface PerpetualPositionResponseObject {
  readonly market: string;
  readonly status: PerpetualPositionStatus;
  readonly side: PositionSide;
  readonly size: string;
  readonly maxSize: string;
  readonly entryPrice: string;
  readonly exitPrice: string | null;
  readonly realizedPnl: string;
  readonly unrealizedPnl: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
  readonly closedAt: string | null;
  readonly sumOpen: string;
  readonly sumClose: string;
  readonly netFunding: string;
  readonly subaccountNumber: number;
}

/**
 * An asset position. `size` is unsigned (the side says the sign); `assetId` is `"0"` for USDC.
 *
 * @example
 * ```ts
 * const usdc: AssetPositionResponseObject = {
 *   symbol: "USDC", side: "LONG", size: "10000", assetId: "0", subaccountNumber: 0,
 * };
 * ```
 */
export interface AssetPositionResponseObject {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly size: string;
  readonly assetId: string;
  readonly subaccountNumber: number;
}

/**
 * A subaccount: equity, free collateral, its open perpetual positions keyed by ticker and its
 * asset positions keyed by symbol (USDC already adjusted for unsettled funding).
 *
 * @example
 * ```ts
 * const subaccount: SubaccountResponseObject = {
 *   address: "perpx1...", subaccountNumber: 0, equity: "10000", freeCollateral: "10000",
 *   openPerpetualPositions: {},
 *   assetPositions: { USDC: { symbol: "USDC", side: "LONG", size: "10000", assetId: "0", subaccountNumber: 0 } },
 *   marginEnabled: true, updatedAtHeight: "12", latestProcessedBlockHeight: "40",
 * };
 * ```
 */
export interface SubaccountResponseObject {
  readonly address: string;
  readonly subaccountNumber: number;
  readonly equity: string;
  readonly freeCollateral: string;
  readonly openPerpetualPositions: Readonly<Record<string, PerpetualPositionResponseObject>>;
  readonly assetPositions: Readonly<Record<string, AssetPositionResponseObject>>;
  readonly marginEnabled: boolean;
  readonly updatedAtHeight: string;
  readonly latestProcessedBlockHeight: string;
}

/**
 * `GET /v4/addresses/:address`: every subaccount of an address (404 when it has none).
 *
 * @example
 * ```ts
 * const body: AddressResponse = { subaccounts: [], totalTradingRewards: "0" };
 * ```
 */
export interface AddressResponse {
  readonly subaccounts: readonly SubaccountResponseObject[];
  readonly totalTradingRewards: string;
}

/**
 * `GET /v4/addresses/:address/subaccountNumber/:subaccountNumber`.
 *
 * @example
 * ```ts
 * const subaccount: SubaccountResponseObject = {
 *   address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, equity: "0", freeCollateral: "0",
 *   openPerpetualPositions: {}, assetPositions: {}, marginEnabled: true, updatedAtHeight: "1", latestProcessedBlockHeight: "1",
 * };
 * const body: SubaccountResponse = { subaccount };
 * body.subaccount.equity; // "0"
 * ```
 */
export interface SubaccountResponse {
  readonly subaccount: SubaccountResponseObject;
}

/**
 * A parent subaccount: equity and free collateral summed over its existing children.
 *
 * @example
 * ```ts
 * const parent: ParentSubaccountResponseObject = {
 *   address: "perpx1...", parentSubaccountNumber: 0, equity: "0", freeCollateral: "0", childSubaccounts: [],
 * };
 * ```
 */
export interface ParentSubaccountResponseObject {
  readonly address: string;
  readonly parentSubaccountNumber: number;
  readonly equity: string;
  readonly freeCollateral: string;
  readonly childSubaccounts: readonly SubaccountResponseObject[];
}

/**
 * `GET /v4/addresses/:address/parentSubaccountNumber/:parentSubaccountNumber` (404 when no child exists).
 *
 * @example
 * ```ts
 * const body: ParentSubaccountResponse = {
 *   subaccount: { address: "perpx1...", parentSubaccountNumber: 0, equity: "0", freeCollateral: "0", childSubaccounts: [] },
 * };
 * body.subaccount.childSubaccounts.length; // 0
 * ```
 */
export interface ParentSubaccountResponse {
  readonly subaccount: ParentSubaccountResponseObject;
}

/**
 * `GET /v4/perpetualPositions` and its `parentSubaccountNumber` route: newest opening first.
 *
 * @example
 * ```ts
 * const body: PerpetualPositionsResponse = { positions: [] };
 * ```
 */
export interface PerpetualPositionsResponse {
  readonly positions: readonly PerpetualPositionResponseObject[];
}

/**
 * `GET /v4/assetPositions` and its `parentSubaccountNumber` route (a flat list over the children).
 *
 * @example
 * ```ts
 * const body: AssetPositionsResponse = { positions: [] };
 * ```
 */
export interface AssetPositionsResponse {
  readonly positions: readonly AssetPositionResponseObject[];
}

/**
 * An order. `clobPairId`, `clientId` and `orderFlags` (`"0"` short-term, `"32"` conditional, `"64"`
 * long-term) are strings; `goodTilBlock` or `goodTilBlockTime` is set, never both; `createdAtHeight`
 * and `createdAt` only for stateful orders; `triggerPrice` only for conditional orders.
 *
 * @example
 * ```ts
 * const order: OrderResponseObject = {
 *   id: "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33", subaccountId: "6c1e...", clientId: "42", clobPairId: "0",
 *   side: "BUY", size: "0.1", totalFilled: "0", price: "65000", type: "LIMIT", status: "OPEN",
 *   timeInForce: "GTT", postOnly: false, reduceOnly: false, orderFlags: "0", goodTilBlock: "140",
 *   clientMetadata: "0", ticker: "BTC-USD", subaccountNumber: 0,
 * };
 * ```
 */
export interface OrderResponseObject {
  readonly id: string;
  readonly subaccountId: string;
  readonly clientId: string;
  readonly clobPairId: string;
  readonly side: OrderSide;
  readonly size: string;
  readonly totalFilled: string;
  readonly price: string;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly orderFlags: string;
  readonly goodTilBlock?: string;
  readonly goodTilBlockTime?: string;
  readonly createdAtHeight?: string;
  readonly createdAt?: string;
  readonly clientMetadata: string;
  readonly triggerPrice?: string;
  readonly updatedAt?: string;
  readonly updatedAtHeight?: string;
  readonly ticker: string;
  readonly subaccountNumber: number;
  readonly builderAddress?: string;
  readonly feePpm?: string;
  readonly orderRouterAddress?: string;
  readonly duration?: string;
  readonly interval?: string;
  readonly priceTolerance?: string;
}

/**
 * `GET /v4/orders` and `GET /v4/orders/parentSubaccountNumber`: a bare array, not wrapped.
 *
 * @example
 * ```ts
 * const body: OrdersResponse = [];
 * ```
 */
export type OrdersResponse = readonly OrderResponseObject[];
