/**
 * The liquidation pass the proposer's memclob runs after every block commits (after the new
 * stateful orders enter the book), as the reference chain's PrepareCheckState does:
 *
 * 1. every subaccount whose net collateral is below its maintenance margin is liquidatable; up to
 *    {@link MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK} of them (from an offset that turns with the height)
 *    get a liquidation order for one position not liquidated yet this block: the size the position
 *    and subaccount block limits allow, at the fillable price, IOC;
 * 2. the orders are sorted (furthest fillable price from the oracle first, then the larger
 *    notional, then the subaccount) and each is matched against the book as a taker
 *    (`liquidation-fill.ts` settles each fill; a fill refused by the insurance fund or the block
 *    limits stops the order); the fills become one `MatchPerpetualLiquidation` of the next block;
 * 3. a liquidation that filled nothing is deleveraged (`deleveraging.ts`) when the subaccount's
 *    equity is negative, up to {@link MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK} per block; positions in
 *    markets in final settlement are closed at the oracle price the same way;
 * 4. a subaccount still at negative equity gets a zero-fill deleveraging, which gates withdrawals.
 *
 * The delivery of both match kinds on the committed state is here too ({@link deliverLiquidation}).
 */
import { clob } from "@perpx/proto";
import { isAbciError } from "../../errors.js";
import type { Context } from "../../module.js";
import { absBig, floorDiv } from "../dtypes.js";
import { fundingSettlementPpm, marginRequirements, netNotional } from "../margin.js";
import type { SubaccountRef } from "../subaccounts.js";
import { deleverage, deleveragingMode, pairOfPerpetual } from "./deleveraging.js";
import { type ClobKeepers, Engine, perpetualOf } from "./engine.js";
import {
  type LiquidationOrder,
  liquidatedPosition,
  liquidationInfo,
  liquidationsConfig,
  markPerpetualLiquidated,
  pricingOf,
  settleLiquidationFill,
} from "./liquidation-fill.js";
import {
  fillablePrice,
  fillableSubticks,
  isLiquidatable,
  type LiquidatedPosition,
  liquidationSizeDelta,
} from "./liquidation-math.js";
import { applyMatch, type FillDecision, matchOrder, opposite } from "./matching.js";
import { queueDeleveraging, queueLiquidationMatch } from "./operations-queue.js";
import { allPairs, CLOB, getOrder } from "./state.js";

/** Liquidation orders placed per block at most (the reference chain's default flag). */
export const MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK = 50;
/** Deleveragings attempted per block at most (the reference chain's default flag). */
export const MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK = 10;

/**
 * The subaccounts that are liquidatable now, in store order. One pass over every subaccount, so
 * each perpetual's pricing, margin fractions and funding index are read once: net collateral is
 * USDC with funding settled plus the positions' notional, the maintenance margin their sum (the
 * same figures as the subaccounts keeper's `risk`, without its initial margin).
 */
export function liquidatableSubaccounts(ctx: Context, keepers: ClobKeepers): SubaccountRef[] {
  const perpetuals = new Map<number, { position: Omit<LiquidatedPosition, "quantums">; index: bigint }>();
  const perpetualOfId = (id: number) => {
    let found = perpetuals.get(id);
    if (found === undefined) {
      const tier = keepers.perpetuals.liquidityTierOf(ctx, id);
      found = {
        position: {
          pricing: pricingOf(ctx, keepers, id),
          fractions: {
            initialMarginPpm: tier.initialMarginPpm,
            maintenanceFractionPpm: tier.maintenanceFractionPpm,
          },
        },
        index: keepers.perpetuals.perpetual(ctx, id).fundingIndex,
      };
      perpetuals.set(id, found);
    }
    return found;
  };
  const found: SubaccountRef[] = [];
  for (const view of keepers.subaccounts.withPositions(ctx)) {
    if (view.perpetualPositions.length === 0) continue;
    let fundingPpm = 0n;
    let netCollateral = 0n;
    let maintenance = 0n;
    for (const p of view.perpetualPositions) {
      const { position, index } = perpetualOfId(p.perpetualId);
      fundingPpm += fundingSettlementPpm(p.quantums, p.fundingIndex, index);
      netCollateral += p.quoteBalance + netNotional(p.quantums, position.pricing);
      maintenance += marginRequirements(p.quantums, position.pricing, position.fractions).maintenance;
    }
    netCollateral += view.usdc + floorDiv(fundingPpm, 1_000_000n);
    if (isLiquidatable({ netCollateral, maintenance })) found.push(view.id);
  }
  return found;
}

/**
 * The next liquidation order of a subaccount, or undefined when it is not liquidatable or every
 * position was already liquidated this block (or its market does not take liquidations).
 */
export function liquidationOrderFor(
  ctx: Context,
  keepers: ClobKeepers,
  ref: SubaccountRef,
): LiquidationOrder | undefined {
  if (!isLiquidatable(keepers.subaccounts.risk(ctx, ref))) return undefined;
  const info = liquidationInfo(ctx, ref);
  const positions = keepers.subaccounts.settled(ctx, ref).perpetualPositions.filter((p) => p.quantums !== 0n);
  if (positions.length === 0) return undefined;
  const start = Number(ctx.block.height % BigInt(positions.length));
  for (let i = 0; i < positions.length; i++) {
    const held = positions[(start + i) % positions.length];
    if (held === undefined || info.perpetualsLiquidated.includes(held.perpetualId)) continue;
    const pair = pairOfPerpetual(ctx, held.perpetualId);
    if (pair === undefined || pair.status !== clob.ClobPair_Status.ACTIVE) return undefined;
    const { position } = liquidatedPosition(ctx, keepers, ref, held.perpetualId);
    if (position === undefined) return undefined;
    const config = liquidationsConfig(ctx);
    const delta = liquidationSizeDelta(position.quantums, position.pricing, pair.stepBaseQuantums, {
      minPositionNotionalLiquidated: config.positionBlockLimits?.minPositionNotionalLiquidated ?? 0n,
      maxPositionPortionLiquidatedPpm: config.positionBlockLimits?.maxPositionPortionLiquidatedPpm ?? 0,
      subaccountNotionalLeft:
        (config.subaccountBlockLimits?.maxNotionalLiquidated ?? 0n) - info.notionalLiquidated,
    });
    const liquidatingLong = delta < 0n;
    return {
      liquidated: ref,
      pair,
      perpetualId: held.perpetualId,
      isBuy: !liquidatingLong,
      totalSize: absBig(delta),
      subticks: fillableSubticksOf(ctx, keepers, ref, pair, held.perpetualId),
    };
  }
  return undefined;
}

/**
 * The fillable price of a subaccount's position as subticks of its pair (what a liquidation order
 * of it is limited to; the delivery computes it again for the fill events).
 */
export function fillableSubticksOf(
  ctx: Context,
  keepers: ClobKeepers,
  ref: SubaccountRef,
  pair: clob.ClobPair,
  perpetualId: number,
): bigint {
  const { risk, position } = liquidatedPosition(ctx, keepers, ref, perpetualId);
  if (position === undefined || risk.maintenance === 0n) return 0n;
  const config = liquidationsConfig(ctx).fillablePriceConfig;
  const price = fillablePrice(risk, position, {
    bankruptcyAdjustmentPpm: config?.bankruptcyAdjustmentPpm ?? 0,
    spreadToMaintenanceMarginRatioPpm: config?.spreadToMaintenanceMarginRatioPpm ?? 0,
  });
  return fillableSubticks(price, position.quantums > 0n, pair);
}

/** The sort key of a liquidation order (see the module comment). */
function priority(ctx: Context, keepers: ClobKeepers, order: LiquidationOrder) {
  const pricing = liquidatedPosition(ctx, keepers, order.liquidated, order.perpetualId).position?.pricing;
  const notional = pricing === undefined ? 0n : absBig(netNotional(order.totalSize, pricing));
  const oracle = oracleSubticksOf(pricing, order.pair);
  // |fillable - oracle| / oracle, compared as cross products
  return { diff: absBig(order.subticks - oracle), oracle: oracle === 0n ? 1n : oracle, notional };
}

function oracleSubticksOf(
  pricing: { price: bigint; exponent: number; atomicResolution: number } | undefined,
  pair: clob.ClobPair,
): bigint {
  if (pricing === undefined) return 0n;
  const shift = pricing.exponent - pair.quantumConversionExponent + pricing.atomicResolution + 6;
  return shift >= 0 ? pricing.price * 10n ** BigInt(shift) : pricing.price / 10n ** BigInt(-shift);
}

/**
 * Matches one liquidation order against the book in the memclob, settling each fill on this
 * context's state and queueing the match; answers the base quantums filled.
 */
export function placeLiquidation(ctx: Context, keepers: ClobKeepers, order: LiquidationOrder): bigint {
  const engine = new Engine(ctx, keepers);
  const side = order.isBuy ? "buy" : "sell";
  let filled = 0n;
  const makerFills: { makerId: clob.OrderId; quantums: bigint }[] = [];
  const tryFill = (maker: { key: string }, quantums: bigint): FillDecision => {
    const makerStored = getOrder(engine.store, maker.key);
    if (makerStored === undefined) return "skip";
    const makerFilled = makerStored.filled + quantums;
    let decision: FillDecision;
    try {
      decision = settleLiquidationFill(
        engine,
        keepers,
        order,
        makerStored.order,
        quantums,
        makerFilled,
        filled + quantums,
      );
    } catch (error) {
      if (isAbciError(error)) return "taker-fails";
      throw error;
    }
    if (decision !== "ok") return decision;
    filled += quantums;
    makerFills.push({ makerId: makerStored.order.orderId as clob.OrderId, quantums });
    engine.recordMakerFill(maker.key, makerStored, makerFilled);
    return "ok";
  };
  const result = matchOrder(
    {
      side,
      subticks: order.subticks,
      quantums: order.totalSize,
      owner: order.liquidated.owner,
      number: order.liquidated.number,
    },
    engine.book.orders(order.pair.id, opposite(side)),
    tryFill,
  );
  applyMatch(engine.book, order.pair.id, result);
  for (const { maker, reason } of result.removed) {
    const stored = getOrder(engine.store, maker.key);
    if (stored !== undefined) {
      engine.removeFromMemclob(stored, reason === "self-trade" ? "self_trade" : "undercollateralized");
    }
  }
  markPerpetualLiquidated(ctx, order.liquidated, order.perpetualId);
  if (makerFills.length > 0) {
    queueLiquidationMatch(
      engine.store,
      {
        liquidated: { $typeName: "perpx.subaccounts.v1.SubaccountId", ...order.liquidated },
        clobPairId: order.pair.id,
        perpetualId: order.perpetualId,
        totalSize: order.totalSize,
        isBuy: order.isBuy,
      },
      makerFills,
    );
  }
  return filled;
}

/** Runs the whole pass (see the module comment) on the memclob's state after a block commits. */
export function runLiquidations(ctx: Context, keepers: ClobKeepers): void {
  const candidates = liquidatableSubaccounts(ctx, keepers);
  const toDeleverage: { ref: SubaccountRef; perpetualId: number }[] = [];
  if (candidates.length > 0) {
    const count = Math.min(candidates.length, MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK);
    const start = Number(ctx.block.height % BigInt(candidates.length));
    const orders: { order: LiquidationOrder; key: ReturnType<typeof priority> }[] = [];
    for (let i = 0; i < count; i++) {
      const ref = candidates[(start + i) % candidates.length] as SubaccountRef;
      const order = liquidationOrderFor(ctx, keepers, ref);
      if (order !== undefined) orders.push({ order, key: priority(ctx, keepers, order) });
    }
    orders.sort((a, b) => {
      const left = a.key.diff * b.key.oracle;
      const right = b.key.diff * a.key.oracle;
      if (left !== right) return left > right ? -1 : 1;
      if (a.key.notional !== b.key.notional) return a.key.notional > b.key.notional ? -1 : 1;
      const ka = `${a.order.liquidated.owner}/${a.order.liquidated.number}`;
      const kb = `${b.order.liquidated.owner}/${b.order.liquidated.number}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    for (const { order: first } of orders) {
      // State moved since the order was built (earlier liquidations): build it again.
      const order = liquidationOrderFor(ctx, keepers, first.liquidated);
      if (order === undefined) continue;
      if (placeLiquidation(ctx, keepers, order) === 0n) {
        toDeleverage.push({ ref: order.liquidated, perpetualId: order.perpetualId });
      }
    }
  }
  for (const settling of finalSettlementPositions(ctx, keepers)) toDeleverage.push(settling);
  let attempts = 0;
  for (const { ref, perpetualId } of toDeleverage) {
    if (attempts >= MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK) break;
    const mode = deleveragingMode(ctx, keepers, ref, perpetualId);
    if (mode === undefined) continue;
    attempts++;
    const fills = deleverage(ctx, keepers, ref, perpetualId, mode);
    if (fills.length === 0) continue;
    queueDeleveraging(ctx.store(CLOB), {
      liquidated: { $typeName: "perpx.subaccounts.v1.SubaccountId", ...ref },
      perpetualId,
      fills: fills.map((f) => ({
        $typeName: "perpx.clob.v1.MatchPerpetualDeleveraging.Fill",
        offsettingSubaccountId: { $typeName: "perpx.subaccounts.v1.SubaccountId", ...f.offsetting },
        fillAmount: f.fillAmount,
      })),
      isFinalSettlement: mode === "final-settlement",
    });
  }
  gateIfNegativeEquity(ctx, keepers, candidates);
}

/** The positions held in markets in final settlement (closed at the oracle price). */
function finalSettlementPositions(
  ctx: Context,
  keepers: ClobKeepers,
): { ref: SubaccountRef; perpetualId: number }[] {
  const settling = new Set(
    allPairs(ctx.store(CLOB))
      .filter((pair) => pair.status === clob.ClobPair_Status.FINAL_SETTLEMENT)
      .map(perpetualOf),
  );
  if (settling.size === 0) return [];
  const found: { ref: SubaccountRef; perpetualId: number }[] = [];
  for (const view of keepers.subaccounts.withPositions(ctx)) {
    for (const p of view.perpetualPositions) {
      if (p.quantums !== 0n && settling.has(p.perpetualId))
        found.push({ ref: view.id, perpetualId: p.perpetualId });
    }
  }
  return found;
}

/** Queues a zero-fill deleveraging for the first candidate still at negative equity. */
function gateIfNegativeEquity(
  ctx: Context,
  keepers: ClobKeepers,
  candidates: readonly SubaccountRef[],
): void {
  for (const ref of candidates) {
    if (keepers.subaccounts.risk(ctx, ref).netCollateral >= 0n) continue;
    const held = keepers.subaccounts.get(ctx, ref).perpetualPositions[0];
    if (held === undefined) continue;
    queueDeleveraging(ctx.store(CLOB), {
      liquidated: { $typeName: "perpx.subaccounts.v1.SubaccountId", ...ref },
      perpetualId: held.perpetualId,
      fills: [],
      isFinalSettlement: false,
    });
    return;
  }
}

/** The order a delivered operation names, its stored record when stateful, and its fill amount. */
export type OrderLookup = (id: clob.OrderId | undefined) => { order: clob.Order; filled: bigint };

/**
 * Delivers a `MatchPerpetualLiquidation` on the committed state: each fill settled again
 * (`recordMaker` books the maker's new fill amount); a fill the committed state refuses (the
 * subaccount is no longer liquidatable, a block limit, the insurance fund) is skipped, as the devnet
 * skips any fill refused there. The perpetual counts as liquidated this block afterwards.
 */
export function deliverLiquidation(
  ctx: Context,
  keepers: ClobKeepers,
  match: clob.MatchPerpetualLiquidation,
  orderOf: OrderLookup,
  recordMaker: (maker: clob.Order, makerFilled: bigint) => void,
): void {
  const engine = new Engine(ctx, keepers);
  const pair = pairOfPerpetual(ctx, match.perpetualId);
  if (pair === undefined || pair.id !== match.clobPairId) return;
  const liquidated = { owner: match.liquidated?.owner ?? "", number: match.liquidated?.number ?? 0 };
  const order: LiquidationOrder = {
    liquidated,
    pair,
    perpetualId: match.perpetualId,
    isBuy: match.isBuy,
    totalSize: match.totalSize,
    subticks: fillableSubticksOf(ctx, keepers, liquidated, pair, match.perpetualId),
  };
  let filled = 0n;
  for (const fill of match.fills) {
    const maker = orderOf(fill.makerOrderId);
    const makerFilled = maker.filled + fill.fillAmount;
    let decision: FillDecision;
    try {
      decision = settleLiquidationFill(
        engine,
        keepers,
        order,
        maker.order,
        fill.fillAmount,
        makerFilled,
        filled + fill.fillAmount,
      );
    } catch (error) {
      if (isAbciError(error)) continue;
      throw error;
    }
    if (decision !== "ok") continue;
    filled += fill.fillAmount;
    recordMaker(maker.order, makerFilled);
  }
  markPerpetualLiquidated(ctx, liquidated, match.perpetualId);
}
