/**
 * What each WebSocket channel carries (`spec/indexer-api.md` 3.5): the `contents` of its
 * `subscribed` snapshot and of each update, by channel.
 */
import type {
  OrderResponseObject,
  ParentSubaccountResponseObject,
  SubaccountResponseObject,
} from "./accounts.js";
import type { IndexerChannel } from "./channels.js";
import type {
  FillType,
  Liquidity,
  OrderSide,
  PerpetualPositionStatus,
  PositionSide,
  TransferType,
} from "./enums.js";
import type { TransferEndpoint } from "./history.js";
import type {
  CandleResponseObject,
  CandlesResponse,
  HeightResponse,
  OrderbookResponseObject,
  PerpetualMarketResponseObject,
  PerpetualMarketsResponse,
  TradeResponseObject,
  TradesResponse,
} from "./markets.js";

/**
 * A partial market of a `v4_markets` update's `trading` map: any subset of the REST market's
 * fields plus `id` and `marketId`. Clients merge it into their snapshot.
 *
 * @example
 * ```ts
 * const change: TradingPerpetualMarketUpdate = { ticker: "BTC-USD", nextFundingRate: "0.00001", trades24H: 12 };
 * ```
 */
export type TradingPerpetualMarketUpdate = Partial<
  Omit<PerpetualMarketResponseObject, "oraclePrice"> & { readonly id: string; readonly marketId: number }
>;

/**
 * A new oracle price of one market in a `v4_markets` update.
 *
 * @example
 * ```ts
 * const price: OraclePriceUpdate = {
 *   oraclePrice: "65010", effectiveAt: "2026-01-01T00:00:01.000Z", effectiveAtHeight: "43", marketId: 0,
 * };
 * ```
 */
export interface OraclePriceUpdate {
  readonly oraclePrice: string;
  readonly effectiveAt: string;
  readonly effectiveAtHeight: string;
  readonly marketId: number;
}

/**
 * A `v4_markets` update: market changes and/or oracle prices, keyed by ticker.
 *
 * @example
 * ```ts
 * const update: MarketsUpdateContents = {
 *   oraclePrices: { "BTC-USD": { oraclePrice: "65010", effectiveAt: "2026-01-01T00:00:01.000Z", effectiveAtHeight: "43", marketId: 0 } },
 * };
 * ```
 */
export interface MarketsUpdateContents {
  readonly trading?: Readonly<Record<string, TradingPerpetualMarketUpdate>>;
  readonly oraclePrices?: Readonly<Record<string, OraclePriceUpdate>>;
}

/**
 * One order book level of an update: `[price, size]`, where size is the level's new absolute
 * total in base units (`"0"` removes the level), not a delta.
 *
 * @example
 * ```ts
 * const level: OrderbookUpdateLevel = ["65000", "0"];
 * ```
 */
export type OrderbookUpdateLevel = readonly [price: string, size: string];

/**
 * A `v4_orderbook` update: usually one level on one side; not uncrossed.
 *
 * @example
 * ```ts
 * const update: OrderbookUpdateContents = { bids: [["64999", "1.5"]] };
 * ```
 */
export interface OrderbookUpdateContents {
  readonly bids?: readonly OrderbookUpdateLevel[];
  readonly asks?: readonly OrderbookUpdateLevel[];
}

/**
 * A trade of a `v4_trades` update: the REST trade without `createdAtHeight`.
 *
 * @example
 * ```ts
 * const trade: TradeUpdate = {
 *   id: "0000007b0000000200000001", size: "0.1", price: "65000", side: "SELL", createdAt: "2026-01-01T00:00:00.000Z", type: "LIMIT",
 * };
 * ```
 */
export type TradeUpdate = Omit<TradeResponseObject, "createdAtHeight">;

/**
 * A `v4_trades` update (one per taker fill).
 *
 * @example
 * ```ts
 * const update: TradesUpdateContents = { trades: [] };
 * ```
 */
export interface TradesUpdateContents {
  readonly trades: readonly TradeUpdate[];
}

/**
 * A perpetual position as a subaccount update carries it.
 *
 * @example
 * ```ts
 * const position: PerpetualPositionUpdate = {
 *   address: "perpx1...", subaccountNumber: 0, positionId: "3f1e...", market: "BTC-USD", side: "LONG",
 *   status: "OPEN", size: "0.1", maxSize: "0.1", netFunding: "0", entryPrice: "65000", sumOpen: "0.1", sumClose: "0",
 * };
 * ```
 */
export interface PerpetualPositionUpdate {
  readonly address: string;
  readonly subaccountNumber: number;
  readonly positionId: string;
  readonly market: string;
  readonly side: PositionSide;
  readonly status: PerpetualPositionStatus;
  readonly size: string;
  readonly maxSize: string;
  readonly netFunding: string;
  readonly entryPrice: string;
  readonly exitPrice?: string | null;
  readonly sumOpen: string;
  readonly sumClose: string;
  readonly realizedPnl?: string;
  readonly unrealizedPnl?: string;
}

/**
 * An asset position as a subaccount update carries it.
 *
 * @example
 * ```ts
 * const usdc: AssetPositionUpdate = {
 *   address: "perpx1...", subaccountNumber: 0, positionId: "8d2c...", assetId: "0", symbol: "USDC", side: "LONG", size: "9990",
 * };
 * ```
 */
export interface AssetPositionUpdate {
  readonly address: string;
  readonly subaccountNumber: number;
  readonly positionId: string;
  readonly assetId: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly size: string;
}

/**
 * An order as a subaccount update carries it: possibly partial, without `subaccountNumber`, always
 * with `id`, `subaccountId`, `clientId`, `status` and `orderFlags`; `removalReason` on removals.
 *
 * @example
 * ```ts
 * const order: OrderUpdate = {
 *   id: "0b9f...", subaccountId: "6c1e...", clientId: "42", status: "BEST_EFFORT_CANCELED", orderFlags: "0",
 *   removalReason: "ORDER_REMOVAL_REASON_USER_CANCELED",
 * };
 * ```
 */
export type OrderUpdate = Partial<Omit<OrderResponseObject, "subaccountNumber">> &
  Pick<OrderResponseObject, "id" | "subaccountId" | "clientId" | "status" | "orderFlags"> & {
    readonly removalReason?: string;
    readonly totalOptimisticFilled?: string;
  };

/**
 * A fill as a subaccount update carries it: `eventId` is hex, `quoteAmount` is price times size.
 *
 * @example
 * ```ts
 * const fill: FillUpdate = {
 *   id: "9a3f...", subaccountId: "6c1e...", side: "BUY", liquidity: "TAKER", type: "LIMIT", clobPairId: "0",
 *   orderId: "0b9f...", size: "0.1", price: "65000", quoteAmount: "6500", eventId: "0000007b0000000200000001",
 *   transactionHash: "A1B2...", createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "123", fee: "3.25",
 *   affiliateRevShare: "0", ticker: "BTC-USD",
 * };
 * ```
 */
export interface FillUpdate {
  readonly id: string;
  readonly subaccountId: string;
  readonly side: OrderSide;
  readonly liquidity: Liquidity;
  readonly type: FillType;
  readonly clobPairId: string;
  readonly orderId?: string;
  readonly size: string;
  readonly price: string;
  readonly quoteAmount: string;
  readonly eventId: string;
  readonly transactionHash: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
  readonly clientMetadata?: string;
  readonly fee: string;
  readonly affiliateRevShare: string;
  readonly ticker: string;
  readonly builderFee?: string;
  readonly builderAddress?: string;
  readonly orderRouterAddress?: string;
  readonly orderRouterFee?: string;
  /** The unsigned size of the position the fill found (order and liquidation fills). */
  readonly positionSizeBefore?: string;
  /** The entry price of the subaccount's latest position in the market before the fill. */
  readonly entryPriceBefore?: string;
  /** The side of the subaccount's latest position in the market before the fill. */
  readonly positionSideBefore?: PositionSide;
}

/**
 * A transfer as a subaccount update carries it (a single object, not an array).
 *
 * @example
 * ```ts
 * const transfer: TransferUpdate = {
 *   sender: { address: "perpx1..." }, recipient: { address: "perpx1...", subaccountNumber: 0 }, symbol: "USDC",
 *   size: "100", type: "DEPOSIT", transactionHash: "A1B2...", createdAt: "2026-01-01T00:00:00.000Z", createdAtHeight: "7",
 * };
 * ```
 */
export interface TransferUpdate {
  readonly sender: TransferEndpoint;
  readonly recipient: TransferEndpoint;
  readonly symbol: string;
  readonly size: string;
  readonly type: TransferType;
  readonly transactionHash: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
}

/**
 * A trading reward as a subaccount update carries it.
 *
 * @example
 * ```ts
 * const reward: TradingRewardUpdate = { tradingReward: "0.01", createdAtHeight: "12", createdAt: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export interface TradingRewardUpdate {
  readonly tradingReward: string;
  readonly createdAtHeight: string;
  readonly createdAt: string;
}

/**
 * A `v4_subaccounts` (or `v4_parent_subaccounts`) update; every key is optional.
 *
 * @example
 * ```ts
 * const update: SubaccountUpdateContents = { orders: [], blockHeight: "124" };
 * ```
 */
export interface SubaccountUpdateContents {
  readonly perpetualPositions?: readonly PerpetualPositionUpdate[];
  readonly assetPositions?: readonly AssetPositionUpdate[];
  readonly orders?: readonly OrderUpdate[];
  readonly fills?: readonly FillUpdate[];
  readonly transfers?: TransferUpdate;
  readonly tradingReward?: TradingRewardUpdate;
  readonly blockHeight?: string;
}

/**
 * The snapshot of a subaccount channel whose subaccount does not exist yet (REST 404): the
 * subscription still succeeds, with empty contents.
 *
 * @example
 * ```ts
 * const contents: EmptySubaccountSnapshot = {};
 * ```
 */
export type EmptySubaccountSnapshot = Readonly<Record<string, never>>;

/**
 * The `v4_subaccounts` snapshot: the subaccount, its open, untriggered and best-effort-opened
 * orders plus recent best-effort cancels, and the height read; `{}` for an unknown subaccount.
 *
 * @example
 * ```ts
 * const subaccount: SubaccountResponseObject = {
 *   address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, equity: "0", freeCollateral: "0",
 *   openPerpetualPositions: {}, assetPositions: {}, marginEnabled: true, updatedAtHeight: "1", latestProcessedBlockHeight: "1",
 * };
 * const contents: SubaccountsSnapshotContents = { subaccount, orders: [], blockHeight: "123" };
 * "subaccount" in contents; // true
 * ```
 */
export type SubaccountsSnapshotContents =
  | {
      readonly subaccount: SubaccountResponseObject;
      readonly orders: readonly OrderResponseObject[];
      readonly blockHeight: string;
    }
  | EmptySubaccountSnapshot;

/**
 * The `v4_parent_subaccounts` snapshot, built from the parent REST routes; `{}` when no child exists.
 *
 * @example
 * ```ts
 * const contents: ParentSubaccountsSnapshotContents = {
 *   subaccount: { address: "perpx1...", parentSubaccountNumber: 0, equity: "0", freeCollateral: "0", childSubaccounts: [] },
 *   orders: [],
 *   blockHeight: "123",
 * };
 * ```
 */
export type ParentSubaccountsSnapshotContents =
  | {
      readonly subaccount: ParentSubaccountResponseObject;
      readonly orders: readonly OrderResponseObject[];
      readonly blockHeight: string;
    }
  | EmptySubaccountSnapshot;

/**
 * A `v4_block_height` update. Note the key is `blockHeight` here but `height` in the snapshot.
 *
 * @example
 * ```ts
 * const update: BlockHeightUpdateContents = { blockHeight: "43", time: "2026-01-01T00:00:01.000Z" };
 * ```
 */
export interface BlockHeightUpdateContents {
  readonly blockHeight: string;
  readonly time: string;
}

/**
 * The `subscribed` contents of each channel.
 *
 * @example
 * ```ts
 * const snapshot: IndexerChannelSnapshots["v4_block_height"] = { height: "42", time: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export interface IndexerChannelSnapshots {
  readonly v4_markets: PerpetualMarketsResponse;
  readonly v4_trades: TradesResponse;
  readonly v4_orderbook: OrderbookResponseObject;
  readonly v4_candles: CandlesResponse;
  readonly v4_subaccounts: SubaccountsSnapshotContents;
  readonly v4_parent_subaccounts: ParentSubaccountsSnapshotContents;
  readonly v4_block_height: HeightResponse;
}

/**
 * The contents of one update of each channel (a `channel_data` message, or one element of a
 * `channel_batch_data` message's array).
 *
 * @example
 * ```ts
 * const update: IndexerChannelUpdates["v4_orderbook"] = { asks: [["65001", "0"]] };
 * ```
 */
export interface IndexerChannelUpdates {
  readonly v4_markets: MarketsUpdateContents;
  readonly v4_trades: TradesUpdateContents;
  readonly v4_orderbook: OrderbookUpdateContents;
  readonly v4_candles: CandleResponseObject;
  readonly v4_subaccounts: SubaccountUpdateContents;
  readonly v4_parent_subaccounts: SubaccountUpdateContents;
  readonly v4_block_height: BlockHeightUpdateContents;
}

/**
 * The snapshot contents of channel `C`.
 *
 * @example
 * ```ts
 * const book: IndexerChannelSnapshot<"v4_orderbook"> = { bids: [], asks: [] };
 * ```
 */
export type IndexerChannelSnapshot<C extends IndexerChannel> = IndexerChannelSnapshots[C];

/**
 * The update contents of channel `C`.
 *
 * @example
 * ```ts
 * const update: IndexerChannelUpdate<"v4_trades"> = { trades: [] };
 * ```
 */
export type IndexerChannelUpdate<C extends IndexerChannel> = IndexerChannelUpdates[C];
