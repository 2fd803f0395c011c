/**
 * The liquidation pass the proposer's memclob runs after every block commits (after the new
 * stateful orders enter the book), as the reference chain's PrepareCheckState does:
 *
 * 1. the candidates are the liquidation daemon's list (`liquidation-daemon.ts`: the subaccounts
 *    liquidatable in the state of the block before); up to
 *    {@link MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK} of them, from a pseudo-random offset
 *    (`pseudo-rand.ts`: Go's `math/rand` seeded with the committed block's Unix time), that are
 *    still liquidatable get a liquidation order for one position not liquidated yet this block
 *    (chosen from its positions at a pseudo-random offset too): the size the position and
 *    subaccount block limits allow, at the fillable price, IOC;
 * 2. the orders are sorted (furthest fillable price from the oracle first, then the larger
 *    notional, then the order hash: SHA-256 of the `PerpetualLiquidationInfo` bytes) and each,
 *    built again on the state the earlier ones left, is matched against the book as a taker
 *    (`liquidation-fill.ts` settles each fill; a fill refused by the insurance fund or the block
 *    limits stops the order; a market that is not active fills nothing); the fills become one
 *    `MatchPerpetualLiquidation` of the next block;
 * 3. every order that filled nothing, then every position the daemon saw in a market in final
 *    settlement, is a deleveraging entry; the first {@link MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK}
 *    entries are attempted, whether or not they can be deleveraged (`deleveraging.ts`: at the
 *    bankruptcy price for negative equity, at the oracle's in final settlement, else nothing);
 * 4. the first subaccount of the daemon's negative-equity list still at negative equity gets a
 *    zero-fill deleveraging, which gates withdrawals.
 *
 * The delivery of both match kinds on the committed state is here too ({@link deliverLiquidation}).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { isAbciError } from "../../lib/errors.js";
import { absBig } from "../subaccounts/dtypes.js";
import type { SubaccountRef } from "../subaccounts/keeper.js";
import { netNotional } from "../subaccounts/margin.js";
import { deleverage, deleveragingMode, pairOfPerpetual } from "./deleveraging.js";
import { type ClobKeepers, Engine, perpetualOf } from "./engine.js";
import {
  type DaemonLiquidationInfo,
  holdersOf,
  perpetualLiquidationInfoBytes,
} from "./liquidation-daemon.js";
import {
  type LiquidationOrder,
  liquidatedPosition,
  liquidationInfo,
  liquidationsConfig,
  markPerpetualLiquidated,
  settleLiquidationFill,
} from "./liquidation-fill.js";
import { fillablePrice, fillableSubticks, isLiquidatable, liquidationSizeDelta } from "./liquidation-math.js";
import { applyMatch, type FillDecision, matchOrder, opposite } from "./matching.js";
import { queueDeleveraging, queueLiquidationMatch } from "./operations-queue.js";
import { blockIntn } from "./pseudo-rand.js";
import { allPairs, CLOB, getOrder } from "./state.js";

/** Liquidation orders placed per block at most (the reference chain's default flag). */
export const MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK = 50;
/** Deleveragings attempted per block at most (the reference chain's default flag). */
export const MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK = 10;

/**
 * The next liquidation order of a subaccount, or undefined when it is not liquidatable or every
 * position was already liquidated this block. The position is the first not yet liquidated from
 * a pseudo-random offset into the stored positions (by perpetual id), as the chain's
 * `GetPerpetualPositionToLiquidate` picks it; its market need not be active (placing the order then
 * fills nothing).
 */
export function liquidationOrderFor(
  ctx: Context,
  keepers: ClobKeepers,
  ref: SubaccountRef,
): LiquidationOrder | undefined {
  if (!isLiquidatable(keepers.subaccounts.risk(ctx, ref))) return undefined;
  const info = liquidationInfo(ctx, ref);
  const positions = keepers.subaccounts.get(ctx, ref).perpetualPositions;
  if (positions.length === 0) return undefined;
  const start = blockIntn(ctx.block.timeMs, positions.length);
  let perpetualId: number | undefined;
  for (let i = 0; i < positions.length && perpetualId === undefined; i++) {
    const held = positions[(start + i) % positions.length];
    if (held !== undefined && !info.perpetualsLiquidated.includes(held.perpetualId)) {
      perpetualId = held.perpetualId;
    }
  }
  if (perpetualId === undefined) return undefined;
  const pair = pairOfPerpetual(ctx, perpetualId);
  const { position } = liquidatedPosition(ctx, keepers, ref, perpetualId);
  if (pair === undefined || position === undefined) return undefined;
  const config = liquidationsConfig(ctx);
  const delta = liquidationSizeDelta(position.quantums, position.pricing, pair.stepBaseQuantums, {
    minPositionNotionalLiquidated: config.positionBlockLimits?.minPositionNotionalLiquidated ?? 0n,
    maxPositionPortionLiquidatedPpm: config.positionBlockLimits?.maxPositionPortionLiquidatedPpm ?? 0,
    subaccountNotionalLeft:
      (config.subaccountBlockLimits?.maxNotionalLiquidated ?? 0n) - info.notionalLiquidated,
  });
  return {
    liquidated: ref,
    pair,
    perpetualId,
    isBuy: delta > 0n,
    totalSize: absBig(delta),
    subticks: fillableSubticksOf(ctx, keepers, ref, pair, perpetualId),
  };
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
  return {
    diff: absBig(order.subticks - oracle),
    oracle: oracle === 0n ? 1n : oracle,
    notional,
    hash: sha256(perpetualLiquidationInfoBytes(order.liquidated, order.perpetualId)),
  };
}

type Priority = ReturnType<typeof priority>;

/** The chain's `SortLiquidationOrders`: larger distance from the oracle, larger notional, smaller hash. */
function byPriority(a: Priority, b: Priority): number {
  const left = a.diff * b.oracle;
  const right = b.diff * a.oracle;
  if (left !== right) return left > right ? -1 : 1;
  if (a.notional !== b.notional) return a.notional > b.notional ? -1 : 1;
  for (let i = 0; i < a.hash.length; i++) {
    if (a.hash[i] !== b.hash[i]) return (a.hash[i] as number) - (b.hash[i] as number);
  }
  return 0;
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
 * context's state and queueing the match; answers the base quantums filled (none in a market that
 * is not active).
 */
export function placeLiquidation(ctx: Context, keepers: ClobKeepers, order: LiquidationOrder): bigint {
  // The chain refuses a liquidation in a market that is not active before it marks anything.
  if (order.pair.status !== clob.ClobPair_Status.ACTIVE) return 0n;
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

/**
 * Runs the whole pass (see the module comment) on the memclob's state after a block commits, from
 * the daemon's lists of the state before it.
 */
export function runLiquidations(ctx: Context, keepers: ClobKeepers, daemon: DaemonLiquidationInfo): void {
  const candidates = daemon.liquidatable;
  const toDeleverage: { ref: SubaccountRef; perpetualId: number }[] = [];
  if (candidates.length > 0) {
    const count = Math.min(candidates.length, MAX_LIQUIDATION_ATTEMPTS_PER_BLOCK);
    const start = blockIntn(ctx.block.timeMs, candidates.length);
    const orders: { order: LiquidationOrder; key: Priority }[] = [];
    for (let i = 0; i < count; i++) {
      const ref = candidates[(start + i) % candidates.length] as SubaccountRef;
      const order = liquidationOrderFor(ctx, keepers, ref);
      if (order !== undefined) orders.push({ order, key: priority(ctx, keepers, order) });
    }
    orders.sort((a, b) => byPriority(a.key, b.key));
    for (const { order: first } of orders) {
      // State moved since the order was built (earlier liquidations): build it again.
      const order = liquidationOrderFor(ctx, keepers, first.liquidated);
      if (order === undefined) continue;
      if (placeLiquidation(ctx, keepers, order) === 0n) {
        toDeleverage.push({ ref: order.liquidated, perpetualId: order.perpetualId });
      }
    }
  }
  toDeleverage.push(...finalSettlementPositions(ctx, daemon));
  // The chain counts entries, not deleveragings: one that cannot be deleveraged uses its turn too.
  for (const { ref, perpetualId } of toDeleverage.slice(0, MAX_DELEVERAGING_ATTEMPTS_PER_BLOCK)) {
    const mode = deleveragingMode(ctx, keepers, ref, perpetualId);
    if (mode === undefined) continue;
    const fills = deleverage(ctx, keepers, { ref, perpetualId, mode }, daemon);
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
  gateIfNegativeEquity(ctx, keepers, daemon.negativeTnc);
}

/** The positions the daemon saw in markets in final settlement (pairs by id; longs, then shorts). */
function finalSettlementPositions(
  ctx: Context,
  daemon: DaemonLiquidationInfo,
): { ref: SubaccountRef; perpetualId: number }[] {
  return allPairs(ctx.store(CLOB))
    .filter((pair) => pair.status === clob.ClobPair_Status.FINAL_SETTLEMENT)
    .map(perpetualOf)
    .flatMap((perpetualId) => holdersOf(daemon, perpetualId).map((ref) => ({ ref, perpetualId })));
}

/** Queues a zero-fill deleveraging for the first subaccount of the list still at negative equity. */
function gateIfNegativeEquity(
  ctx: Context,
  keepers: ClobKeepers,
  negativeTnc: readonly SubaccountRef[],
): void {
  for (const ref of negativeTnc) {
    if (keepers.subaccounts.risk(ctx, ref).netCollateral >= 0n) continue;
    const held = keepers.subaccounts.get(ctx, ref).perpetualPositions[0];
    if (held === undefined) return;
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
