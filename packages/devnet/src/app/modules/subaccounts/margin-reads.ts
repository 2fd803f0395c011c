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
import type { PricesKeeper } from "../prices/prices.js";
import { absBig, floorDiv } from "./dtypes.js";
import type { LeverageLookup, SubaccountRef, SubaccountView } from "./keeper.js";
import {
  effectiveInitialMarginPpm,
  fundingSettlementPpm,
  type MarginTotals,
  marginRequirementsOfNotional,
  netNotional,
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

  /** The view with the funding of every position settled into its USDC (rounded down once). */
  settle(view: SubaccountView): SubaccountView {
    let settlementPpm = 0n;
    const perpetualPositions = view.perpetualPositions.map((p) => {
      const index = this.perpetual(p.perpetualId).fundingIndex;
      settlementPpm += fundingSettlementPpm(p.quantums, p.fundingIndex, index);
      return { ...p, fundingIndex: index };
    });
    return { id: view.id, usdc: view.usdc + floorDiv(settlementPpm, 1_000_000n), perpetualPositions };
  }

  /**
   * Net collateral, initial and maintenance margin requirements of a (settled) view; the initial
   * margin of each position at its effective fraction (open-interest scaling, and the
   * subaccount's leverage choice: `leverage`, or the stored one).
   */
  totals(view: SubaccountView, leverage?: ReadonlyMap<number, number>): MarginTotals {
    const choices = leverage ?? this.leverage(view.id);
    let netCollateral = view.usdc;
    let initial = 0n;
    let maintenance = 0n;
    for (const p of view.perpetualPositions) {
      const perpetual = this.perpetual(p.perpetualId);
      const marketId = perpetual.params.marketId;
      const oracle = this.memo.read(idKey("price", marketId), () =>
        this.sources.prices.oraclePrice(this.ctx, marketId),
      );
      const pricing = {
        atomicResolution: perpetual.params.atomicResolution,
        price: oracle.price,
        exponent: oracle.exponent,
      };
      const tier = this.tier(perpetual.params.liquidityTier);
      // Without an upper cap the open interest does not scale the margin: not priced then.
      const openInterestQuote =
        tier.openInterestUpperCap === 0n ? 0n : netNotional(perpetual.openInterest, pricing);
      const imf = effectiveInitialMarginPpm(
        tier.initialMarginPpm,
        tier,
        openInterestQuote < 0n ? 0n : openInterestQuote,
        choices.get(p.perpetualId) ?? 0,
      );
      const notional = netNotional(p.quantums, pricing);
      // Truncation is symmetric: at a non-negative price the size's absolute notional is |notional|.
      const absolute = oracle.price >= 0n ? absBig(notional) : netNotional(absBig(p.quantums), pricing);
      const margins = marginRequirementsOfNotional(
        absolute,
        { initialMarginPpm: tier.initialMarginPpm, maintenanceFractionPpm: tier.maintenanceFractionPpm },
        imf,
      );
      netCollateral += p.quoteBalance + notional;
      initial += margins.initial;
      maintenance += margins.maintenance;
    }
    return { netCollateral, initial, maintenance };
  }
}
