/**
 * The liquidation daemon, as the reference chain runs it: a process beside the node that reads the
 * last committed block's state (every subaccount, oracle prices, perpetuals, liquidity tiers),
 * checks each subaccount with a position as the app would (funding settled, net collateral against
 * the maintenance margin), and hands the app three lists: the liquidatable subaccounts, those at
 * negative equity, and per perpetual the subaccounts with a long and with a short position. The
 * app's liquidation pass after the next commit works from these lists, so a subaccount that
 * became liquidatable in block N is liquidated by the pass after block N + 1 (its fills in block
 * N + 2): the daemon cannot read block N + 1 before that block is committed.
 *
 * The devnet takes the daemon's reading just before each block starts, from the committed state
 * as it stands then (so a control operation between two blocks counts as part of the earlier one,
 * as a daemon running between them would see it). The lists are in the order the daemon receives
 * the subaccounts: the store order of the chain's subaccount key, the protobuf bytes of the
 * `SubaccountId` (owner string, then number; number 0 has no bytes).
 */
import type { StoreAccess } from "../auth/auth.js";
import { floorDiv } from "../subaccounts/dtypes.js";
import type { SubaccountRef, SubaccountView } from "../subaccounts/keeper.js";
import {
  fundingSettlementPpm,
  marginRequirements,
  netNotional,
  type PositionPricing,
} from "../subaccounts/margin.js";
import type { ClobKeepers } from "./engine.js";
import { pricingOf } from "./liquidation-fill.js";
import { isLiquidatable } from "./liquidation-math.js";

/** The subaccounts with a long and with a short position in one perpetual, in daemon order. */
interface OpenPositions {
  readonly long: readonly SubaccountRef[];
  readonly short: readonly SubaccountRef[];
}

/** What the daemon last handed the app (the reference chain's `DaemonLiquidationInfo`). */
export interface DaemonLiquidationInfo {
  /** Subaccounts whose net collateral was below their maintenance margin. */
  readonly liquidatable: readonly SubaccountRef[];
  /** Subaccounts whose net collateral was negative. */
  readonly negativeTnc: readonly SubaccountRef[];
  /** Per perpetual, the subaccounts holding a position in it. */
  readonly openPositions: ReadonlyMap<number, OpenPositions>;
}

/** The daemon's lists before its first reading (a node that just started). */
export const NO_DAEMON_INFO: DaemonLiquidationInfo = {
  liquidatable: [],
  negativeTnc: [],
  openPositions: new Map(),
};

/** A protobuf varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

/** A uint32 protobuf field 2 (tag 0x10): no bytes for 0, as proto3 leaves a zero out. */
function uint32Field2(n: number): number[] {
  return n === 0 ? [] : [0x10, ...varint(n)];
}

/** A length-delimited protobuf field 1 (tag 0x0a). */
function bytesField1(bytes: readonly number[]): number[] {
  return [0x0a, ...varint(bytes.length), ...bytes];
}

/**
 * The protobuf bytes of the chain's `PerpetualLiquidationInfo` (subaccount id, perpetual id), whose
 * SHA-256 is a liquidation order's hash.
 */
export function perpetualLiquidationInfoBytes(ref: SubaccountRef, perpetualId: number): Uint8Array {
  const owner = [...new TextEncoder().encode(ref.owner)];
  const subaccountId = [...bytesField1(owner), ...uint32Field2(ref.number)];
  return Uint8Array.from([...bytesField1(subaccountId), ...uint32Field2(perpetualId)]);
}

/**
 * Compares two subaccounts by the chain's store key, the protobuf bytes of their `SubaccountId`:
 * the owner's length and string (ASCII), then the number's bytes.
 */
function compareSubaccountKeys(a: SubaccountRef, b: SubaccountRef): number {
  if (a.owner.length !== b.owner.length) return a.owner.length - b.owner.length;
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1;
  const ka = uint32Field2(a.number);
  const kb = uint32Field2(b.number);
  for (let i = 0; i < ka.length && i < kb.length; i++) {
    if (ka[i] !== kb[i]) return (ka[i] as number) - (kb[i] as number);
  }
  return ka.length - kb.length;
}

/** The daemon's reading of the state `ctx` sees (see the module comment). */
export function readDaemonInfo(ctx: StoreAccess, keepers: ClobKeepers): DaemonLiquidationInfo {
  const perpetuals = new Map<
    number,
    {
      pricing: PositionPricing;
      fractions: { initialMarginPpm: number; maintenanceFractionPpm: number };
      index: bigint;
    }
  >();
  const perpetualOf = (id: number) => {
    let found = perpetuals.get(id);
    if (found === undefined) {
      const tier = keepers.perpetuals.liquidityTierOf(ctx, id);
      found = {
        pricing: pricingOf(ctx, keepers, id),
        fractions: {
          initialMarginPpm: tier.initialMarginPpm,
          maintenanceFractionPpm: tier.maintenanceFractionPpm,
        },
        index: keepers.perpetuals.perpetual(ctx, id).fundingIndex,
      };
      perpetuals.set(id, found);
    }
    return found;
  };
  const views: SubaccountView[] = keepers.subaccounts
    .withPositions(ctx)
    .filter((view) => view.perpetualPositions.length > 0)
    .sort((a, b) => compareSubaccountKeys(a.id, b.id));
  const liquidatable: SubaccountRef[] = [];
  const negativeTnc: SubaccountRef[] = [];
  const openPositions = new Map<number, { long: SubaccountRef[]; short: SubaccountRef[] }>();
  for (const view of views) {
    let fundingPpm = 0n;
    let netCollateral = 0n;
    let maintenance = 0n;
    for (const p of view.perpetualPositions) {
      const { pricing, fractions, index } = perpetualOf(p.perpetualId);
      fundingPpm += fundingSettlementPpm(p.quantums, p.fundingIndex, index);
      netCollateral += p.quoteBalance + netNotional(p.quantums, pricing);
      maintenance += marginRequirements(p.quantums, pricing, fractions).maintenance;
      let sides = openPositions.get(p.perpetualId);
      if (sides === undefined) {
        sides = { long: [], short: [] };
        openPositions.set(p.perpetualId, sides);
      }
      (p.quantums > 0n ? sides.long : sides.short).push(view.id);
    }
    netCollateral += view.usdc + floorDiv(fundingPpm, 1_000_000n);
    if (isLiquidatable({ netCollateral, maintenance })) liquidatable.push(view.id);
    if (netCollateral < 0n) negativeTnc.push(view.id);
  }
  return { liquidatable, negativeTnc, openPositions };
}

/** The subaccounts the daemon saw holding a position in a perpetual: the longs, then the shorts. */
export function holdersOf(info: DaemonLiquidationInfo, perpetualId: number): SubaccountRef[] {
  const sides = info.openPositions.get(perpetualId);
  return sides === undefined ? [] : [...sides.long, ...sides.short];
}
