/**
 * The WebSocket channel contract (`spec/indexer-api.md` 3.5) as the socket needs it: the seven
 * channel names, and per channel the `subscribed` snapshot contents and one update's contents.
 */

/** A price level in a REST or snapshot order book: human price and size, decimal strings. */
export interface BookLevel {
  readonly price: string;
  readonly size: string;
}

/** `v4_orderbook` snapshot: sorted, uncrossed, at most 100 levels per side. */
export interface OrderbookSnapshot {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/** `v4_orderbook` update: `[price, size]` tuples; size is the new absolute total, `"0"` removes. */
export interface OrderbookUpdate {
  readonly bids?: readonly (readonly [price: string, size: string])[];
  readonly asks?: readonly (readonly [price: string, size: string])[];
}

/** A trade as the `v4_trades` channel sends it. */
export interface TradeContents {
  readonly id: string;
  readonly side: "BUY" | "SELL";
  readonly size: string;
  readonly price: string;
  readonly type: string;
  readonly createdAt: string;
  readonly createdAtHeight?: string;
}

/** A candle as the `v4_candles` channel sends it. */
export interface CandleContents {
  readonly startedAt: string;
  readonly ticker: string;
  readonly resolution: string;
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

/** A perpetual position as the subaccount channels send it (size is signed: negative is short). */
export interface PerpetualPositionContents {
  readonly market: string;
  readonly status: string;
  readonly side: "LONG" | "SHORT";
  readonly size: string;
  readonly maxSize?: string;
  readonly entryPrice?: string;
  readonly exitPrice?: string | null;
  readonly netFunding?: string;
  readonly realizedPnl?: string;
  readonly unrealizedPnl?: string;
  readonly sumOpen?: string;
  readonly sumClose?: string;
  readonly subaccountNumber?: number;
  readonly [field: string]: unknown;
}

/** An asset position (the quote balance is the `USDC` one). */
export interface AssetPositionContents {
  readonly symbol: string;
  readonly side: "LONG" | "SHORT";
  readonly size: string;
  readonly assetId?: string;
  readonly subaccountNumber?: number;
  readonly [field: string]: unknown;
}

/** An order; updates may be partial but always carry `id`, `status` and `clientId`. */
export interface OrderContents {
  readonly id: string;
  readonly status: string;
  readonly clientId?: string;
  readonly ticker?: string;
  readonly side?: "BUY" | "SELL";
  readonly size?: string;
  readonly price?: string;
  readonly totalFilled?: string;
  readonly subaccountId?: string;
  readonly removalReason?: string;
  readonly [field: string]: unknown;
}

/** A fill of one of the subaccount's orders. */
export interface FillContents {
  readonly id: string;
  readonly side: "BUY" | "SELL";
  readonly size: string;
  readonly price: string;
  readonly liquidity?: string;
  readonly market?: string;
  readonly ticker?: string;
  readonly orderId?: string;
  readonly fee?: string;
  readonly createdAt?: string;
  readonly createdAtHeight?: string;
  readonly [field: string]: unknown;
}

/** A subaccount as REST and the snapshot describe it. */
export interface SubaccountContents {
  readonly address: string;
  readonly subaccountNumber: number;
  readonly equity: string;
  readonly freeCollateral: string;
  readonly openPerpetualPositions: Readonly<Record<string, PerpetualPositionContents>>;
  readonly assetPositions: Readonly<Record<string, AssetPositionContents>>;
  readonly marginEnabled?: boolean;
  readonly [field: string]: unknown;
}

/** A parent subaccount and its children (the `v4_parent_subaccounts` snapshot). */
export interface ParentSubaccountContents {
  readonly address: string;
  readonly parentSubaccountNumber: number;
  readonly equity: string;
  readonly freeCollateral: string;
  readonly childSubaccounts: readonly SubaccountContents[];
}

/** `v4_subaccounts` snapshot; `{}` when the subaccount does not exist yet. */
export interface SubaccountSnapshot {
  readonly subaccount?: SubaccountContents;
  readonly orders?: readonly OrderContents[];
  readonly blockHeight?: string;
}

/** `v4_parent_subaccounts` snapshot. */
export interface ParentSubaccountSnapshot {
  readonly subaccount?: ParentSubaccountContents;
  readonly orders?: readonly OrderContents[];
  readonly blockHeight?: string;
}

/** One `v4_subaccounts` (or `v4_parent_subaccounts`) update: every key optional. */
export interface SubaccountUpdate {
  readonly perpetualPositions?: readonly PerpetualPositionContents[];
  readonly assetPositions?: readonly AssetPositionContents[];
  readonly orders?: readonly OrderContents[];
  readonly fills?: readonly FillContents[];
  readonly transfers?: Readonly<Record<string, unknown>>;
  readonly tradingReward?: Readonly<Record<string, unknown>>;
  readonly blockHeight?: string;
}

/** A market as REST and the `v4_markets` snapshot describe it (decimals are strings). */
export interface MarketContents {
  readonly ticker: string;
  readonly clobPairId: string;
  readonly status: string;
  readonly oraclePrice: string;
  readonly tickSize: string;
  readonly stepSize: string;
  readonly atomicResolution: number;
  readonly [field: string]: unknown;
}

/**
 * The channel contract: per channel, its `subscribed` snapshot and one update's contents.
 *
 * @example
 * ```ts
 * type BookUpdate = ChannelContract["v4_orderbook"]["update"]; // { bids?: [price, size][]; asks?: ... }
 * ```
 */
export interface ChannelContract {
  readonly v4_orderbook: { snapshot: OrderbookSnapshot; update: OrderbookUpdate };
  readonly v4_trades: {
    snapshot: { readonly trades: readonly TradeContents[] };
    update: { readonly trades: readonly TradeContents[] };
  };
  readonly v4_candles: { snapshot: { readonly candles: readonly CandleContents[] }; update: CandleContents };
  readonly v4_markets: {
    snapshot: { readonly markets: Readonly<Record<string, MarketContents>> };
    update: {
      readonly trading?: Readonly<Record<string, Partial<MarketContents>>>;
      readonly oraclePrices?: Readonly<
        Record<
          string,
          { oraclePrice: string; effectiveAt: string; effectiveAtHeight: string; marketId: number }
        >
      >;
    };
  };
  readonly v4_subaccounts: { snapshot: SubaccountSnapshot; update: SubaccountUpdate };
  readonly v4_parent_subaccounts: { snapshot: ParentSubaccountSnapshot; update: SubaccountUpdate };
  readonly v4_block_height: {
    snapshot: { readonly height: string; readonly time: string };
    update: { readonly blockHeight: string; readonly time: string };
  };
}

/**
 * One of the seven WebSocket channels.
 *
 * @example
 * ```ts
 * const channel: IndexerChannel = "v4_orderbook";
 * ```
 */
export type IndexerChannel = keyof ChannelContract;

/** The channels whose subscription takes no id. */
export type ChannelWithoutId = "v4_markets" | "v4_block_height";

/**
 * A channel's `subscribed` contents.
 *
 * @example
 * ```ts
 * const snapshot: SnapshotOf<"v4_block_height"> = { height: "10", time: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export type SnapshotOf<C extends IndexerChannel> = ChannelContract[C]["snapshot"];

/**
 * One update's contents on a channel (a batch is unrolled into these).
 *
 * @example
 * ```ts
 * const update: UpdateOf<"v4_block_height"> = { blockHeight: "11", time: "2026-01-01T00:00:01.000Z" };
 * ```
 */
export type UpdateOf<C extends IndexerChannel> = ChannelContract[C]["update"];

/**
 * The per-connection subscription caps of the indexer (a subscribe over them is refused locally
 * with a `SubscriptionLimitError`).
 *
 * @example
 * ```ts
 * CHANNEL_LIMITS.v4_orderbook; // 32
 * ```
 */
export const CHANNEL_LIMITS: Readonly<Record<IndexerChannel, number>> = {
  v4_subaccounts: 256,
  v4_parent_subaccounts: 256,
  v4_orderbook: 32,
  v4_trades: 32,
  v4_candles: 32,
  v4_markets: 32,
  v4_block_height: 1,
};

/** True for a string naming one of the seven channels. */
export function isIndexerChannel(value: unknown): value is IndexerChannel {
  return typeof value === "string" && Object.hasOwn(CHANNEL_LIMITS, value);
}
