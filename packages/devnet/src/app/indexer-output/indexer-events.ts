/**
 * The block-event stream: the typed on-chain events the chain application emits for the indexer,
 * as the real chain's indexer events (fills with both orders, subaccount updates with the changed
 * positions, stateful order placements/removals/triggers, transfers, deposits and withdrawals,
 * markets and oracle prices, funding, perpetual and clob pair definitions, liquidity tiers). The
 * modules emit them where the state changes (`ctx.events.indexer(...)`, beside their ABCI events);
 * they travel with the committed block ({@link BlockIndexerEvents}, {@link TxResult.indexerEvents})
 * and are persisted with it, so an indexer can rebuild itself from the stored blocks. Amounts are
 * the chain's integers (quantums, subticks, ppm); orders are the clob's protobuf messages.
 */

import type { clob } from "@perpx/proto";

/**
 * A liquidity tier (margin fractions and open-interest caps) as created or updated.
 *
 * @example
 * ```ts
 * const tier: LiquidityTierEvent = {
 *   kind: "liquidity_tier", id: 0, name: "Large-Cap", initialMarginPpm: 20_000, maintenanceFractionPpm: 600_000,
 *   openInterestLowerCap: 0n, openInterestUpperCap: 0n,
 * };
 * ```
 */
export interface LiquidityTierEvent {
  readonly kind: "liquidity_tier";
  readonly id: number;
  readonly name: string;
  readonly initialMarginPpm: number;
  readonly maintenanceFractionPpm: number;
  readonly openInterestLowerCap: bigint;
  readonly openInterestUpperCap: bigint;
}

/**
 * A price market created (`pair` such as `BTC-USD`; prices are `price × 10^exponent` USD).
 *
 * @example
 * ```ts
 * const market: MarketCreateEvent = { kind: "market_create", marketId: 0, pair: "BTC-USD", exponent: -5 };
 * ```
 */
export interface MarketCreateEvent {
  readonly kind: "market_create";
  readonly marketId: number;
  readonly pair: string;
  readonly exponent: number;
}

/**
 * A perpetual created or its parameters updated.
 *
 * @example
 * ```ts
 * const perpetual: PerpetualEvent = {
 *   kind: "perpetual", perpetualId: 0, ticker: "BTC-USD", marketId: 0, atomicResolution: -10,
 *   defaultFundingPpm: 0, liquidityTier: 0, marketType: "CROSS",
 * };
 * ```
 */
export interface PerpetualEvent {
  readonly kind: "perpetual";
  readonly perpetualId: number;
  readonly ticker: string;
  readonly marketId: number;
  readonly atomicResolution: number;
  readonly defaultFundingPpm: number;
  readonly liquidityTier: number;
  readonly marketType: "CROSS" | "ISOLATED";
}

/**
 * A clob pair created or updated (its status is the clob's `ClobPair_Status` name, e.g. `ACTIVE`).
 *
 * @example
 * ```ts
 * const pair: ClobPairEvent = {
 *   kind: "clob_pair", clobPairId: 0, perpetualId: 0, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000,
 *   quantumConversionExponent: -9, status: "ACTIVE",
 * };
 * ```
 */
export interface ClobPairEvent {
  readonly kind: "clob_pair";
  readonly clobPairId: number;
  readonly perpetualId: number;
  readonly stepBaseQuantums: bigint;
  readonly subticksPerTick: number;
  readonly quantumConversionExponent: number;
  readonly status: string;
}

/**
 * A market's new oracle price (`price × 10^exponent` USD, the market's exponent).
 *
 * @example
 * ```ts
 * const update: OraclePriceEvent = { kind: "oracle_price", marketId: 0, price: 6_500_000_000n };
 * ```
 */
export interface OraclePriceEvent {
  readonly kind: "oracle_price";
  readonly marketId: number;
  readonly price: bigint;
}

/**
 * One fill of a taker against a maker at the maker's price: both orders, the amount in base
 * quantums, the quote amount, both fees (quote quantums; negative is a rebate), and each order's
 * total filled amount after it.
 *
 * @example
 * ```ts
 * const onFill = (e: OrderFillEvent) => console.log(e.clobPairId, e.quantums, e.subticks);
 * ```
 */
export interface OrderFillEvent {
  readonly kind: "order_fill";
  readonly clobPairId: number;
  readonly taker: clob.Order;
  readonly maker: clob.Order;
  readonly quantums: bigint;
  readonly subticks: bigint;
  readonly quoteQuantums: bigint;
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  readonly takerTotalFilled: bigint;
  readonly makerTotalFilled: bigint;
  /**
   * The taker's affiliate's revenue share of this fill (the chain's `affiliate_rev_share`; absent
   * is 0, as on a liquidation).
   */
  readonly affiliateRevShare?: bigint;
  /**
   * True when the taker is a liquidation order (built by the proposer, never signed: client id 0,
   * short-term flags, IOC, the fillable price); the indexer books it as LIQUIDATED / LIQUIDATION.
   */
  readonly liquidation?: boolean;
}

/**
 * A deleveraging: part of a position closed against an offsetting subaccount's position at the
 * bankruptcy price (or the oracle price in final settlement). `isBuy` is the deleveraged side.
 *
 * @example
 * ```ts
 * const onDeleveraging = (e: DeleveragingEvent) => console.log(e.liquidated.owner, e.fillAmount);
 * ```
 */
export interface DeleveragingEvent {
  readonly kind: "deleveraging";
  readonly liquidated: { readonly owner: string; readonly number: number };
  readonly offsetting: { readonly owner: string; readonly number: number };
  readonly perpetualId: number;
  readonly clobPairId: number;
  /** Base quantums. */
  readonly fillAmount: bigint;
  /** Quote quantums the deleveraged subaccount receives (sells) or pays (buys). */
  readonly totalQuoteQuantums: bigint;
  /** The price of the fill in subticks of the clob pair (rounded down). */
  readonly subticks: bigint;
  readonly isBuy: boolean;
  readonly isFinalSettlement: boolean;
}

/**
 * A subaccount's state after a change: its USDC (quote quantums, signed) and every perpetual
 * position it holds (base quantums, signed; the funding index it last settled at).
 *
 * @example
 * ```ts
 * const update: SubaccountUpdateEvent = {
 *   kind: "subaccount_update", owner: "perpx1...", number: 0, usdc: 1_000_000_000n, perpetualPositions: [],
 * };
 * ```
 */
export interface SubaccountUpdateEvent {
  readonly kind: "subaccount_update";
  readonly owner: string;
  readonly number: number;
  readonly usdc: bigint;
  readonly perpetualPositions: ReadonlyArray<{
    readonly perpetualId: number;
    readonly quantums: bigint;
    readonly fundingIndex: bigint;
  }>;
}

/**
 * A stateful order (long-term or conditional) stored on chain.
 *
 * @example
 * ```ts
 * const onPlace = (e: StatefulOrderPlacedEvent) => console.log(e.order.orderId?.clientId);
 * ```
 */
export interface StatefulOrderPlacedEvent {
  readonly kind: "stateful_order_placed";
  readonly order: clob.Order;
}

/**
 * A stateful order removed from state: canceled, expired, fully filled or removed by the proposer.
 *
 * @example
 * ```ts
 * const onRemove = (e: StatefulOrderRemovedEvent) => console.log(e.reason); // "user_canceled"
 * ```
 */
export interface StatefulOrderRemovedEvent {
  readonly kind: "stateful_order_removed";
  readonly order: clob.Order;
  readonly reason: string;
}

/**
 * A conditional order whose trigger price the oracle reached (it now rests in the book).
 *
 * @example
 * ```ts
 * const onTrigger = (e: ConditionalOrderTriggeredEvent) => console.log(e.order.orderId?.clientId);
 * ```
 */
export interface ConditionalOrderTriggeredEvent {
  readonly kind: "conditional_order_triggered";
  readonly order: clob.Order;
}

/**
 * A USDC movement of a subaccount: between two subaccounts, or from/to a wallet (a deposit or a
 * withdrawal; the wallet side has no number). Quote quantums.
 *
 * @example
 * ```ts
 * const deposit: TransferEvent = {
 *   kind: "transfer", sender: { owner: "perpx1a..." }, recipient: { owner: "perpx1a...", number: 0 },
 *   assetId: 0, quantums: 5_000_000n,
 * };
 * ```
 */
export interface TransferEvent {
  readonly kind: "transfer";
  readonly sender: { readonly owner: string; readonly number?: number };
  readonly recipient: { readonly owner: string; readonly number?: number };
  readonly assetId: number;
  readonly quantums: bigint;
}

/**
 * Funding of a perpetual: at each `funding-sample` epoch the new premium sample (`sample`: the
 * median of the epoch's votes, zero too, as the real chain's premium-sample `FundingEvent`), and at
 * each funding tick the rate paid and the new funding index (`payment`). Premiums and rates are
 * ppm per 8 hours; the index is 1e-6 quote quantums per base quantum. A chain that starts with a
 * non-zero index (a fork of a live network) also emits, in its genesis block, a
 * {@link FundingIndexEvent} per such perpetual.
 *
 * @example
 * ```ts
 * const onFunding = (e: FundingEvent) => e.phase === "payment" && console.log(e.fundingIndex);
 * ```
 */
export type FundingEvent = FundingRateEvent | FundingIndexEvent;

/**
 * A premium sample (`sample`) or a funding tick (`payment`), see {@link FundingEvent}.
 *
 * @example
 * ```ts
 * const tick: FundingRateEvent = {
 *   kind: "funding", phase: "payment", perpetualId: 0, ratePpm: 100n, oracleSubticks: 6_500_000_000n,
 *   fundingIndex: 12n,
 * };
 * ```
 */
export interface FundingRateEvent {
  readonly kind: "funding";
  readonly phase: "sample" | "payment";
  readonly perpetualId: number;
  /** The premium sample (`sample`) or the rate paid (`payment`), ppm per 8 hours. */
  readonly ratePpm: bigint;
  /** The oracle price in subticks the funding used. */
  readonly oracleSubticks: bigint;
  /** The perpetual's funding index after a payment (the current one for a sample). */
  readonly fundingIndex: bigint;
}

/**
 * A perpetual's funding index as the chain starts with it (`genesis`, only in the genesis block,
 * only for a non-zero index: a fork's live index). No funding was paid: an indexer takes the index
 * (positions' unsettled funding is counted against it) and records no rate or payment, as an
 * indexer started from the live network's snapshot already holds it.
 *
 * @example
 * ```ts
 * const start: FundingIndexEvent = { kind: "funding", phase: "genesis", perpetualId: 0, fundingIndex: 123_457n };
 * ```
 */
export interface FundingIndexEvent {
  readonly kind: "funding";
  readonly phase: "genesis";
  readonly perpetualId: number;
  /** The perpetual's funding index (1e-6 quote quantums per base quantum). */
  readonly fundingIndex: bigint;
}

/**
 * A referral registered (`MsgRegisterAffiliate`): `affiliate` referred `referee`.
 *
 * @example
 * ```ts
 * const referral: AffiliateRegisteredEvent = { kind: "affiliate_registered", referee: "perpx1b...", affiliate: "perpx1a..." };
 * ```
 */
export interface AffiliateRegisteredEvent {
  readonly kind: "affiliate_registered";
  readonly referee: string;
  readonly affiliate: string;
}

/**
 * The trading rewards paid at the end of a block (x/rewards' `TradingRewardsEventV1`): each
 * address and its amount in units of the reward denom (`aperpx`, 18 decimals).
 *
 * @example
 * ```ts
 * const paid: TradingRewardEvent = { kind: "trading_reward", rewards: [{ owner: "perpx1a...", amount: 5n }] };
 * ```
 */
export interface TradingRewardEvent {
  readonly kind: "trading_reward";
  readonly rewards: ReadonlyArray<{ readonly owner: string; readonly amount: bigint }>;
}

/**
 * One on-chain event for the indexer.
 *
 * @example
 * ```ts
 * const describe = (e: IndexerEvent) => e.kind;
 * ```
 */
export type IndexerEvent =
  | LiquidityTierEvent
  | MarketCreateEvent
  | PerpetualEvent
  | ClobPairEvent
  | OraclePriceEvent
  | OrderFillEvent
  | DeleveragingEvent
  | SubaccountUpdateEvent
  | StatefulOrderPlacedEvent
  | StatefulOrderRemovedEvent
  | ConditionalOrderTriggeredEvent
  | TransferEvent
  | FundingEvent
  | AffiliateRegisteredEvent
  | TradingRewardEvent;

/**
 * The block-level indexer events of a committed block: those before its txs (genesis, control
 * operations since the previous block, begin-block hooks, governance proposals) and those after
 * (end-block hooks). A tx's own events are on its {@link TxResult.indexerEvents}.
 *
 * @example
 * ```ts
 * const [block] = devnet.mine(1);
 * block.indexerEvents?.beginBlock.filter((e) => e.kind === "oracle_price").length;
 * ```
 */
export interface BlockIndexerEvents {
  readonly beginBlock: readonly IndexerEvent[];
  readonly endBlock: readonly IndexerEvent[];
}

/**
 * An indexer event in its block: height and time, and the tx it came from (hash in upper-case hex
 * and index in the block) or none for block-level events; `eventIndex` counts the block's events.
 *
 * @example
 * ```ts
 * const located: LocatedIndexerEvent = {
 *   height: 2n, time: new Date(), eventIndex: 0, event: { kind: "oracle_price", marketId: 0, price: 1n },
 * };
 * ```
 */
export interface LocatedIndexerEvent {
  readonly height: bigint;
  readonly time: Date;
  readonly txIndex?: number;
  readonly txHash?: string;
  readonly eventIndex: number;
  readonly event: IndexerEvent;
}
