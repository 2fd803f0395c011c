/**
 * Builders of the block-event stream's records (`indexer-events.ts`) from the modules' state
 * objects, shared by the call sites that emit them and by genesis (`indexer-genesis.ts`).
 */
import { clob, perpetuals } from "@perpx/proto";
import type { SubaccountView } from "../modules/subaccounts/keeper.js";
import type {
  ClobPairEvent,
  LiquidityTierEvent,
  PerpetualEvent,
  SubaccountUpdateEvent,
} from "./indexer-events.js";

/** The event of a liquidity tier. */
export function liquidityTierEvent(tier: perpetuals.LiquidityTier): LiquidityTierEvent {
  return {
    kind: "liquidity_tier",
    id: tier.id,
    name: tier.name,
    initialMarginPpm: tier.initialMarginPpm,
    maintenanceFractionPpm: tier.maintenanceFractionPpm,
    openInterestLowerCap: tier.openInterestLowerCap,
    openInterestUpperCap: tier.openInterestUpperCap,
  };
}

/** The event of a perpetual's parameters. */
export function perpetualEvent(params: perpetuals.PerpetualParams): PerpetualEvent {
  return {
    kind: "perpetual",
    perpetualId: params.id,
    ticker: params.ticker,
    marketId: params.marketId,
    atomicResolution: params.atomicResolution,
    defaultFundingPpm: params.defaultFundingPpm,
    liquidityTier: params.liquidityTier,
    marketType: params.marketType === perpetuals.PerpetualMarketType.ISOLATED ? "ISOLATED" : "CROSS",
  };
}

/** The event of a clob pair (perpetual pairs only; undefined for others). */
export function clobPairEvent(pair: clob.ClobPair): ClobPairEvent | undefined {
  if (pair.metadata.case !== "perpetualClobMetadata") return undefined;
  return {
    kind: "clob_pair",
    clobPairId: pair.id,
    perpetualId: pair.metadata.value.perpetualId,
    stepBaseQuantums: pair.stepBaseQuantums,
    subticksPerTick: pair.subticksPerTick,
    quantumConversionExponent: pair.quantumConversionExponent,
    status: clob.ClobPair_Status[pair.status] ?? "UNSPECIFIED",
  };
}

/** The event of a subaccount's state. */
export function subaccountUpdateEvent(view: SubaccountView): SubaccountUpdateEvent {
  return {
    kind: "subaccount_update",
    owner: view.id.owner,
    number: view.id.number,
    usdc: view.usdc,
    perpetualPositions: view.perpetualPositions.map((p) => ({
      perpetualId: p.perpetualId,
      quantums: p.quantums,
      fundingIndex: p.fundingIndex,
    })),
  };
}
