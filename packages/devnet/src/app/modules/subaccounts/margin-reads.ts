/**
 * The records a subaccount's margin is computed from (stored subaccounts, perpetuals, oracle
 * prices, liquidity tiers, leverage choices), each read once per {@link ReadMemo}: a repeated read
 * charges the gas the first one charged, so gas used is what every read would have cost. Over them,
 * the margin math of a view: its funding settled, and its margin totals.
 */
import type { perpetuals as perpetualsProto } from "@perpx/proto";
import type { ReadMemo } from "../../lib/read-memo.js";
import type { StoreAccess } from "../auth/auth.js";
import { idKey, ownerKey } from "../memo-keys.js";
import type { PerpetualsKeeper, PerpetualView } from "../perpetuals/perpetuals.js";
import type { OraclePrice, PricesKeeper } from "../prices/prices.js";
import { absBig, floorDiv } from "./dtypes.js";
import type { LeverageLookup, PerpetualPositionView, SubaccountRef, SubaccountView } from "./keeper.js";
import {
  effectiveInitialMarginPpm,
  fundingSettlementPpm,
  type MarginTotals,
  marginRequirementsOfNotional,
  netNotional,
  type PositionPricing,
} from "./margin.js";

/** Where the reads come from: the keepers, the leverage lookup and the subaccount store. */
export interface MarginSources {
  readonly perpetuals: PerpetualsKeeper;
  readonly prices: PricesKeeper;
  readonly leverageOf: LeverageLookup;
  /** A subaccount as stored. */
  readonly stored: (ctx: StoreAccess, id: SubaccountRef) => SubaccountView;
}

/** The margin records of one context, read through one memo (drop it when any of them may change). */
export class MarginReads {
  /** The terms of the perpetual priced last (see {@link market}). */
  private last: MarketTerms | undefined;

  constructor(
    readonly ctx: StoreAccess,
    readonly memo: ReadMemo,
    private readonly sources: MarginSources,
  ) {}

  /** A subaccount as stored. */
  subaccount(id: SubaccountRef): SubaccountView {
    return this.memo.read(ownerKey("sub", id.owner, id.number), () => this.sources.stored(this.ctx, id));
  }

  /** A perpetual, or undefined. */
  findPerpetual(id: number): PerpetualView | undefined {
    return this.memo.read(idKey("perp", id), () => this.sources.perpetuals.find(this.ctx, id));
  }

  /** A perpetual. @throws AbciError (perpetuals 1) when it does not exist. */
  perpetual(id: number): PerpetualView {
    return this.sources.perpetuals.required(id, this.findPerpetual(id));
  }

  /** A liquidity tier. @throws AbciError (perpetuals 13) when it does not exist. */
  tier(id: number): perpetualsProto.LiquidityTier {
    return this.memo.read(idKey("tier", id), () => this.sources.perpetuals.liquidityTier(this.ctx, id));
  }

  /** A subaccount's stored leverage choices. */
  leverage(id: SubaccountRef): ReadonlyMap<number, number> {
    return this.memo.read(ownerKey("lev", id.owner, id.number), () => this.sources.leverageOf(this.ctx, id));
  }

  /**
   * The view with the funding of every position settled into its USDC (rounded down once): the
   * view itself when no position's funding index moved (nothing to settle).
   */
  settle(view: SubaccountView): SubaccountView {
    let settlementPpm = 0n;
    let positions: PerpetualPositionView[] | undefined;
    const stored = view.perpetualPositions;
    for (let i = 0; i < stored.length; i++) {
      const p = stored[i] as PerpetualPositionView;
      const index = this.perpetual(p.perpetualId).fundingIndex;
      if (index === p.fundingIndex) continue;
      settlementPpm += fundingSettlementPpm(p.quantums, p.fundingIndex, index);
      positions ??= stored.slice();
      positions[i] = { ...p, fundingIndex: index };
    }
    if (positions === undefined) return view;
    return {
      id: view.id,
      usdc: view.usdc + floorDiv(settlementPpm, 1_000_000n),
      perpetualPositions: positions,
    };
  }

  /**
   * Net collateral, initial and maintenance margin requirements of a (settled) view; the initial
   * margin of each position at its effective fraction (open-interest scaling, and the
   * subaccount's leverage choice: `leverage`, or the stored one).
   */
  totals(view: SubaccountView, leverage?: ReadonlyMap<number, number>): MarginTotals {
    const choices = leverage ?? this.leverage(view.id);
    const sums = startSums(view);
    for (const p of view.perpetualPositions) addPosition(sums, p, this.terms(p), choices);
    return sums;
  }

  /**
   * {@link totals} with the records read now, in the same order, and the math done only when the
   * returned function is called (once at most; it reads nothing): a check that may not need a
   * view's totals still reads, and is charged, what computing them reads.
   */
  deferredTotals(view: SubaccountView): () => MarginTotals {
    const choices = this.leverage(view.id);
    const positions = view.perpetualPositions;
    const terms: MarketTerms[] = [];
    for (let i = 0; i < positions.length; i++) terms.push(this.terms(positions[i] as PerpetualPositionView));
    return () => {
      const sums = startSums(view);
      for (let i = 0; i < positions.length; i++) {
        addPosition(sums, positions[i] as PerpetualPositionView, terms[i] as MarketTerms, choices);
      }
      return sums;
    };
  }

  /** The terms of a position's perpetual: the perpetual, its market's oracle price and its tier, read. */
  private terms(p: PerpetualPositionView): MarketTerms {
    const perpetual = this.perpetual(p.perpetualId);
    const marketId = perpetual.params.marketId;
    const oracle = this.memo.read(idKey("price", marketId), () =>
      this.sources.prices.oraclePrice(this.ctx, marketId),
    );
    return this.market(perpetual, oracle, this.tier(perpetual.params.liquidityTier));
  }

  /**
   * The terms of a perpetual derived from its records as read: those of the last one priced when
   * they come from the very same records (a fill's checks price one perpetual again and again).
   */
  private market(
    perpetual: PerpetualView,
    oracle: OraclePrice,
    tier: perpetualsProto.LiquidityTier,
  ): MarketTerms {
    const last = this.last;
    if (last !== undefined && last.perpetual === perpetual && last.oracle === oracle && last.tier === tier) {
      return last;
    }
    this.last = new MarketTerms(perpetual, oracle, tier);
    return this.last;
  }
}

/** Margin totals being summed. */
type Sums = { -readonly [K in keyof MarginTotals]: MarginTotals[K] };

/** The sums of a view's totals before its positions: its USDC. */
const startSums = (view: SubaccountView): Sums => ({
  netCollateral: view.usdc,
  initial: 0n,
  maintenance: 0n,
});

/** Adds position `p`, priced by `market`, to `sums` (its leverage choice among `choices`). */
function addPosition(
  sums: Sums,
  p: PerpetualPositionView,
  market: MarketTerms,
  choices: ReadonlyMap<number, number>,
): void {
  const imf = market.initialMarginPpm(choices.get(p.perpetualId) ?? 0);
  const notional = netNotional(p.quantums, market.pricing);
  // Truncation is symmetric: at a non-negative price the size's absolute notional is |notional|.
  const absolute =
    market.oracle.price >= 0n ? absBig(notional) : netNotional(absBig(p.quantums), market.pricing);
  const margins = marginRequirementsOfNotional(absolute, market.tier, imf);
  sums.netCollateral += p.quoteBalance + notional;
  sums.initial += margins.initial;
  sums.maintenance += margins.maintenance;
}

/**
 * What prices positions in a perpetual, from its records: its pricing, and the initial margin
 * fraction of a leverage choice (open-interest scaling and the choice, pure in the records; the
 * last choice's kept).
 */
class MarketTerms {
  readonly pricing: PositionPricing;
  private readonly openInterestQuote: bigint;
  private lastChoice: number | undefined;
  private lastImf = 0n;

  constructor(
    readonly perpetual: PerpetualView,
    readonly oracle: OraclePrice,
    readonly tier: perpetualsProto.LiquidityTier,
  ) {
    this.pricing = {
      atomicResolution: perpetual.params.atomicResolution,
      price: oracle.price,
      exponent: oracle.exponent,
    };
    // Without an upper cap the open interest does not scale the margin: not priced then.
    const quote = tier.openInterestUpperCap === 0n ? 0n : netNotional(perpetual.openInterest, this.pricing);
    this.openInterestQuote = quote < 0n ? 0n : quote;
  }

  /** The effective initial margin fraction (ppm) of a position with leverage choice `customImfPpm` (0: none). */
  initialMarginPpm(customImfPpm: number): bigint {
    if (customImfPpm !== this.lastChoice) {
      this.lastImf = effectiveInitialMarginPpm(
        this.tier.initialMarginPpm,
        this.tier,
        this.openInterestQuote,
        customImfPpm,
      );
      this.lastChoice = customImfPpm;
    }
    return this.lastImf;
  }
}
