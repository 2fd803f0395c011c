/**
 * Deleveraging, as the reference chain does it when a liquidation order finds nothing to fill and
 * the subaccount's equity is negative (or its market is in final settlement): the position is closed
 * against positions on the other side, subaccount by subaccount from the liquidation daemon's list
 * of that side (`liquidation-daemon.ts`), starting at a pseudo-random offset (`pseudo-rand.ts`, as
 * the chain's `OffsetSubaccountPerpetualPosition` does), at most
 * {@link MAX_DELEVERAGING_SUBACCOUNTS_TO_ITERATE} of them, skipping those no longer on that side,
 * each part at the bankruptcy price (at the oracle price in final settlement). Each part is one
 * fill of a `MatchPerpetualDeleveraging` in the next block's operations, redone on the committed
 * state when the block is delivered, with its `deleveraging` event (ABCI and indexer). A match
 * with no fill marks a subaccount left at negative equity: its delivery records the block in the
 * subaccounts module, which gates withdrawals and transfers (`withdrawal-gate.ts`).
 */
import type { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { abciError, isAbciError } from "../../lib/errors.js";
import type { SubaccountRef } from "../subaccounts/keeper.js";
import { netNotional } from "../subaccounts/margin.js";
import { markNegativeTncSeen } from "../subaccounts/withdrawal-gate.js";
import { type ClobKeepers, perpetualOf } from "./engine.js";
import { clobErrors } from "./errors.js";
import type { DaemonLiquidationInfo } from "./liquidation-daemon.js";
import { liquidatedPosition } from "./liquidation-fill.js";
import { bankruptcyQuoteQuantums } from "./liquidation-math.js";
import { blockIntn } from "./pseudo-rand.js";
import { allPairs, CLOB } from "./state.js";

/** The most subaccounts one deleveraging looks at (the reference chain's default flag). */
export const MAX_DELEVERAGING_SUBACCOUNTS_TO_ITERATE = 500;

/** The event type of a deleveraging fill. */
export const DELEVERAGING_EVENT = "perpx.clob.deleveraging";

/** How a subaccount may be deleveraged in a perpetual: at the bankruptcy price, the oracle's, or not. */
export type DeleveragingMode = "bankruptcy" | "final-settlement" | undefined;

/** The clob pair of a perpetual. */
export function pairOfPerpetual(ctx: Context, perpetualId: number): clob.ClobPair | undefined {
  return allPairs(ctx.store(CLOB)).find((p) => perpetualOf(p) === perpetualId);
}

/** Negative equity deleverages at the bankruptcy price; a final-settlement market at the oracle's. */
export function deleveragingMode(
  ctx: Context,
  keepers: ClobKeepers,
  ref: SubaccountRef,
  perpetualId: number,
): DeleveragingMode {
  if (keepers.subaccounts.risk(ctx, ref).netCollateral < 0n) return "bankruptcy";
  const pair = pairOfPerpetual(ctx, perpetualId);
  return pair?.status === 6 ? "final-settlement" : undefined;
}

/**
 * Closes `delta` of the deleveraged position against `offsetting` (quote at the bankruptcy or the
 * oracle price), with its events.
 *
 * @throws AbciError clob 1014 (InvalidPerpetualPositionSizeDelta) when the
 * delta does not reduce both positions, subaccounts 102 when a collateral check refuses it.
 */
function offset(
  ctx: Context,
  keepers: ClobKeepers,
  liquidated: SubaccountRef,
  offsetting: SubaccountRef,
  perpetualId: number,
  delta: bigint,
  finalSettlement: boolean,
): void {
  const { risk, position } = liquidatedPosition(ctx, keepers, liquidated, perpetualId);
  if (position === undefined) {
    throw abciError(clobErrors.noOpenPositionForPerpetual, `no position in perpetual ${perpetualId}`);
  }
  const held =
    keepers.subaccounts.get(ctx, offsetting).perpetualPositions.find((p) => p.perpetualId === perpetualId)
      ?.quantums ?? 0n;
  const fits = (position: bigint, change: bigint) =>
    (position < 0n ? -position : position) >= (change < 0n ? -change : change);
  if (
    position.quantums > 0n === delta > 0n ||
    !fits(position.quantums, delta) ||
    held > 0n !== delta > 0n ||
    held === 0n ||
    !fits(held, delta)
  ) {
    throw abciError(
      clobErrors.invalidPerpetualPositionSizeDelta,
      `delta ${delta} against positions ${position.quantums} and ${held} in perpetual ${perpetualId}`,
    );
  }
  const quote = finalSettlement
    ? netNotional(-delta, position.pricing)
    : bankruptcyQuoteQuantums(risk, position, delta);
  keepers.subaccounts.applyUpdates(ctx, [
    { id: liquidated, usdcDelta: quote, perpetualDeltas: [{ perpetualId, quantumsDelta: delta }] },
    { id: offsetting, usdcDelta: -quote, perpetualDeltas: [{ perpetualId, quantumsDelta: -delta }] },
  ]);
  const fillAmount = delta < 0n ? -delta : delta;
  const totalQuote = quote < 0n ? -quote : quote;
  const pair = pairOfPerpetual(ctx, perpetualId);
  const exponent = pair?.quantumConversionExponent ?? 0;
  // quote = subticks × quantums × 10^exponent
  const subticks =
    exponent < 0
      ? (totalQuote * 10n ** BigInt(-exponent)) / fillAmount
      : totalQuote / (fillAmount * 10n ** BigInt(exponent));
  ctx.events.emitEvent(DELEVERAGING_EVENT, [
    ["liquidated_owner", liquidated.owner],
    ["liquidated_subaccount_number", String(liquidated.number)],
    ["offsetting_owner", offsetting.owner],
    ["offsetting_subaccount_number", String(offsetting.number)],
    ["perpetual_id", String(perpetualId)],
    ["fill_amount", fillAmount.toString()],
    ["total_quote_quantums", totalQuote.toString()],
    ["is_buy", String(delta > 0n)],
    ["is_final_settlement", String(finalSettlement)],
  ]);
  ctx.events.indexer({
    kind: "deleveraging",
    liquidated,
    offsetting,
    perpetualId,
    clobPairId: pair?.id ?? 0,
    fillAmount,
    totalQuoteQuantums: totalQuote,
    subticks,
    isBuy: delta > 0n,
    isFinalSettlement: finalSettlement,
  });
}

/** One offsetting subaccount's part of a deleveraging. */
export interface DeleveragingFill {
  readonly offsetting: SubaccountRef;
  readonly fillAmount: bigint;
}

/** A position to deleverage: the subaccount, the perpetual, and at which price. */
interface DeleveragingTarget {
  readonly ref: SubaccountRef;
  readonly perpetualId: number;
  readonly mode: Exclude<DeleveragingMode, undefined>;
}

/**
 * Deleverages a subaccount's whole position in a perpetual on this context's state (the memclob's
 * pass after a block commits) against the subaccounts the daemon saw on the other side, and
 * answers the fills it made (none when nothing could offset it).
 */
export function deleverage(
  ctx: Context,
  keepers: ClobKeepers,
  target: DeleveragingTarget,
  daemon: DaemonLiquidationInfo,
): DeleveragingFill[] {
  const { ref: liquidated, perpetualId } = target;
  const { position } = liquidatedPosition(ctx, keepers, liquidated, perpetualId);
  if (position === undefined) return [];
  let remaining = -position.quantums;
  const sides = daemon.openPositions.get(perpetualId);
  const candidates = (remaining > 0n ? sides?.long : sides?.short) ?? [];
  const fills: DeleveragingFill[] = [];
  if (candidates.length === 0) return fills;
  const count = Math.min(candidates.length, MAX_DELEVERAGING_SUBACCOUNTS_TO_ITERATE);
  const start = blockIntn(ctx.block.timeMs, candidates.length);
  for (let i = 0; i < count && remaining !== 0n; i++) {
    const offsetting = candidates[(start + i) % candidates.length] as SubaccountRef;
    const held = keepers.subaccounts
      .get(ctx, offsetting)
      .perpetualPositions.find((p) => p.perpetualId === perpetualId)?.quantums;
    if (held === undefined || held === 0n || held > 0n !== remaining > 0n) continue;
    const absHeld = held < 0n ? -held : held;
    const absRemaining = remaining < 0n ? -remaining : remaining;
    const size = absHeld < absRemaining ? absHeld : absRemaining;
    const delta = remaining > 0n ? size : -size;
    try {
      offset(ctx, keepers, liquidated, offsetting, perpetualId, delta, target.mode === "final-settlement");
    } catch (error) {
      if (!isAbciError(error)) throw error;
      continue; // refused by a collateral check (the bankruptcy prices do not overlap): the next one
    }
    remaining -= delta;
    fills.push({ offsetting, fillAmount: size });
  }
  return fills;
}

/**
 * Delivers a `MatchPerpetualDeleveraging` of the block's proposed operations on the committed state.
 * A match no longer valid there (the subaccount may not be deleveraged, the final-settlement flag
 * does not match, a zero-fill match for non-negative equity) is skipped, as the devnet skips
 * any fill that the committed state refuses.
 */
export function deliverDeleveraging(
  ctx: Context,
  keepers: ClobKeepers,
  match: clob.MatchPerpetualDeleveraging,
): void {
  const liquidated = { owner: match.liquidated?.owner ?? "", number: match.liquidated?.number ?? 0 };
  const mode = deleveragingMode(ctx, keepers, liquidated, match.perpetualId);
  if (mode === undefined) return;
  if (match.isFinalSettlement !== (mode === "final-settlement")) return;
  const { position } = liquidatedPosition(ctx, keepers, liquidated, match.perpetualId);
  if (position === undefined) return;
  if (match.fills.length === 0) {
    if (mode === "bankruptcy") markNegativeTncSeen(ctx, keepers.subaccounts, match.perpetualId);
    return;
  }
  const sign = position.quantums > 0n ? -1n : 1n;
  for (const fill of match.fills) {
    const offsetting = {
      owner: fill.offsettingSubaccountId?.owner ?? "",
      number: fill.offsettingSubaccountId?.number ?? 0,
    };
    try {
      offset(
        ctx,
        keepers,
        liquidated,
        offsetting,
        match.perpetualId,
        sign * fill.fillAmount,
        match.isFinalSettlement,
      );
    } catch (error) {
      if (!isAbciError(error)) throw error; // refused on the committed state: skipped (see above)
    }
  }
}
