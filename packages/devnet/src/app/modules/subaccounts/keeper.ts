/**
 * x/subaccounts: USDC and perpetual positions of every subaccount, the collateral checks, and the
 * keeper the clob and sending modules move money through. The USDC of all subaccounts is held by
 * the collateral pool module account (`subaccounts`; an isolated perpetual has its own pool
 * `subaccounts:<perpetual id>`, reported by `CollateralPoolAddress` and `poolOf`; the devnet's genesis
 * perpetuals are all cross-margin, and moving collateral between pools when an isolated position
 * opens, closes or trades against another pool is not implemented yet).
 *
 * Keeper contract (used by the clob): {@link SubaccountsKeeper.canApplyUpdates} and
 * {@link SubaccountsKeeper.applyUpdates} take {@link SubaccountUpdate}s (a USDC delta and position
 * size deltas). As on the reference chain, a fill books its quote amount and its fee in the USDC
 * asset position (`usdcDelta` = ∓ quote − fee) and only the size in the perpetual position, whose
 * `quote_balance` stays 0; `margin_enabled` is never set (false on the wire). An update is allowed
 * when the subaccount meets its initial margin after it, or when it reduces risk (see `margin.ts`);
 * pure USDC credits are always allowed. Applying an update first settles the funding of every
 * position of the subaccount into its USDC (the positions' settlements summed, then rounded down
 * once, as the chain does), then applies the deltas; a position that reaches zero is removed, and
 * a position that flips side keeps its (settled) funding index. Open interest is kept by
 * `applyUpdates` (the clob must not update it for fills). A
 * subaccount holding a position in an isolated perpetual holds no other position (use a child
 * subaccount, number `parent + 128 × k`). Each applied update emits `subaccount_update` (`owner`,
 * `number`, `usdc_delta`, `usdc`, and `perpetual_positions` as JSON) for the indexer.
 *
 * Store slice `subaccounts/` (fixed-width values):
 * - `usdc/<owner hex20>/<number:10>`: 32-byte two's complement USDC quote quantums; present for every
 *   subaccount that ever held anything (it is the list of subaccounts)
 * - `pos/<owner hex20>/<number:10>/<perpetual id:10>`: 96 bytes: quantums, funding index, quote
 *   balance (each 32-byte two's complement)
 */

import { MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
import { USDC_DENOM } from "@perpx/core";
import { perpetuals as perpetualsProto } from "@perpx/proto";
import { subaccountUpdateEvent } from "../../indexer-output/indexer-emit.js";
import type { Context } from "../../kernel/module.js";
import { accAddressProblem, addressFromKey, bech32Of, moduleAddress } from "../../lib/addresses.js";
import { abciError, registerError } from "../../lib/errors.js";
import { ReadMemo } from "../../lib/read-memo.js";
import type { StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import { ownerAddressKey } from "../owner-keys.js";
import type { PerpetualsKeeper, PerpetualView } from "../perpetuals/perpetuals.js";
import type { PricesKeeper } from "../prices/prices.js";
import { padKey } from "../records.js";
import { storeBytes } from "../stored-bytes.js";
import { decodeI256, decodeI256At, encodeI256, putI256 } from "./dtypes.js";
import { isValidTransition, type MarginTotals } from "./margin.js";
import { MarginReads, type MarginSources } from "./margin-reads.js";
import { keysAt, type StoreKeys, storeKeysOf } from "./store-keys.js";
import { isGated } from "./withdrawal-gate.js";

/** The module's name, store prefix, and the cross-margin collateral pool's module account. */
export const SUBACCOUNTS = "subaccounts";

/** Errors of codespace `subaccounts`. */
export const subaccountsErrors = {
  nonUniqueUpdates: registerError(
    SUBACCOUNTS,
    101,
    "multiple updates were specified for the same subaccountId",
  ),
  failedToUpdate: registerError(SUBACCOUNTS, 102, "failed to apply subaccount updates"),
  invalidLeverage: registerError(SUBACCOUNTS, 700, "invalid leverage"),
  leverageExceedsMaximum: registerError(SUBACCOUNTS, 701, "leverage exceeds maximum allowed"),
  initialMarginPpmIsZero: registerError(SUBACCOUNTS, 702, "initial margin ppm cannot be zero"),
  leverageViolatesMargin: registerError(SUBACCOUNTS, 703, "leverage violates margin requirements"),
  invalidNumber: registerError(
    SUBACCOUNTS,
    200,
    `subaccount id number cannot exceed ${MAX_SUBACCOUNT_NUMBER}`,
  ),
  invalidOwner: registerError(SUBACCOUNTS, 201, "subaccount id owner is an invalid address"),
  assetNotSupported: registerError(
    SUBACCOUNTS,
    501,
    "asset transfer (other than USDC) through the bank module is not implemented",
  ),
} as const;

/** A subaccount id: owner (bech32) and number. */
export interface SubaccountRef {
  readonly owner: string;
  readonly number: number;
}

/** A perpetual position, plain. */
export interface PerpetualPositionView {
  readonly perpetualId: number;
  /** Base quantums: > 0 long, < 0 short. */
  readonly quantums: bigint;
  /** The perpetual's funding index when the position last settled funding. */
  readonly fundingIndex: bigint;
  /** Quote quantums attributed to the position: 0 for every position trading opens (fills book their quote amount in USDC). */
  readonly quoteBalance: bigint;
}

/** A subaccount, plain: USDC in quote quantums (signed) and perpetual positions by id. */
export interface SubaccountView {
  readonly id: SubaccountRef;
  readonly usdc: bigint;
  readonly perpetualPositions: readonly PerpetualPositionView[];
}

/** A change of one position's size, in base quantums (signed). */
export interface PerpetualDelta {
  readonly perpetualId: number;
  readonly quantumsDelta: bigint;
}

/**
 * A change of one subaccount. A fill is a size delta and a USDC delta of the quote amount (paid by
 * a buyer, received by a seller) minus the fee.
 */
export interface SubaccountUpdate {
  readonly id: SubaccountRef;
  readonly usdcDelta: bigint;
  readonly perpetualDeltas: readonly PerpetualDelta[];
}

/** A change of a perpetual's open interest (base quantums held long) that an update causes. */
interface OpenInterestChange {
  readonly perpetualId: number;
  readonly delta: bigint;
}

/** The outcome of {@link SubaccountsKeeper.canApplyUpdates}. */
export type UpdateCheck = { ok: true } | { ok: false; reason: string };

const VALID: UpdateCheck = Object.freeze({ ok: true });

/**
 * Checks a subaccount id (owner bech32, number within range).
 *
 * @throws AbciError subaccounts 201 (owner) or 200 (number).
 */
export function validateSubaccountId(id: { owner: string; number: number } | undefined): SubaccountRef {
  if (id === undefined) throw abciError(subaccountsErrors.invalidOwner, "subaccount id is missing");
  // The reference's `SubaccountId.Validate` texts: the owner's error wrapped, the number's bare.
  try {
    ownerAddressKey(id.owner);
  } catch {
    throw abciError(
      subaccountsErrors.invalidOwner,
      `invalid SubaccountId Owner address (${id.owner}). Error: (${accAddressProblem(id.owner)})`,
    );
  }
  if (!Number.isInteger(id.number) || id.number < 0 || id.number > MAX_SUBACCOUNT_NUMBER) {
    throw abciError(subaccountsErrors.invalidNumber);
  }
  return { owner: id.owner, number: id.number };
}

const sameRef = (a: SubaccountRef, b: SubaccountRef) => a.owner === b.owner && a.number === b.number;

/** Whether an update before `updates[i]` names the same subaccount. */
function repeatsEarlier(updates: readonly SubaccountUpdate[], i: number): boolean {
  const id = (updates[i] as SubaccountUpdate).id;
  for (let j = 0; j < i; j++) if (sameRef((updates[j] as SubaccountUpdate).id, id)) return true;
  return false;
}

/** The index of the entry for perpetual `id` in `entries`, or -1. */
function indexOfPerpetual(entries: readonly { readonly perpetualId: number }[], id: number): number {
  for (let i = 0; i < entries.length; i++)
    if ((entries[i] as { perpetualId: number }).perpetualId === id) return i;
  return -1;
}

const byPerpetualId = (a: PerpetualPositionView, b: PerpetualPositionView) => a.perpetualId - b.perpetualId;

function encodePosition(p: PerpetualPositionView): Uint8Array {
  const out = storeBytes(96);
  putI256(out, 0, p.quantums);
  putI256(out, 32, p.fundingIndex);
  putI256(out, 64, p.quoteBalance);
  return out;
}

/** A subaccount's leverage choices: perpetual id → custom initial margin fraction (ppm). */
export type LeverageLookup = (ctx: StoreAccess, id: SubaccountRef) => ReadonlyMap<number, number>;

/** The subaccounts keeper: positions, margin, and the updates the clob and sending apply. */
export class SubaccountsKeeper {
  private leverageOf: LeverageLookup = () => new Map();
  private readonly sources: MarginSources;

  constructor(
    private readonly bank: BankKeeper,
    prices: PricesKeeper,
    private readonly perpetuals: PerpetualsKeeper,
  ) {
    this.sources = {
      perpetuals,
      prices,
      leverageOf: (ctx, id) => this.leverageOf(ctx, id),
      stored: (ctx, id) => this.get(ctx, id),
    };
  }

  /** Installs the lookup of a subaccount's leverage choices (the clob module's); wiring only. */
  setLeverageLookup(lookup: LeverageLookup): void {
    this.leverageOf = lookup;
  }

  /**
   * The real chain's leverage update of a subaccount (`perpetual id → custom_imf_ppm`): each choice
   * may not ask for more leverage than its tier allows (701), and the subaccount must meet its
   * initial margin with the new choices (703). Returns nothing; the caller stores the choices.
   */
  checkLeverage(ctx: StoreAccess, id: SubaccountRef, choices: ReadonlyMap<number, number>): void {
    const reads = this.reads(ctx);
    for (const perpetualId of [...choices.keys()].sort((a, b) => a - b)) {
      const customImfPpm = choices.get(perpetualId) as number;
      const tier = reads.tier(reads.perpetual(perpetualId).params.liquidityTier);
      if (tier.initialMarginPpm === 0) {
        throw abciError(
          subaccountsErrors.invalidLeverage,
          `failed to get max leverage for perpetual ${perpetualId}: initial margin ppm cannot be zero`,
        );
      }
      if (customImfPpm < tier.initialMarginPpm) {
        throw abciError(
          subaccountsErrors.leverageExceedsMaximum,
          `${customImfPpm} is less than minimum allowed imf (${tier.initialMarginPpm}) for perpetual ${perpetualId} resulting in higher than allowed leverage`,
        );
      }
    }
    const merged = new Map([...this.leverageOf(ctx, id), ...choices]);
    const totals = reads.totals(reads.settle(this.get(ctx, id)), merged);
    if (totals.netCollateral < totals.initial) {
      throw abciError(
        subaccountsErrors.leverageViolatesMargin,
        `subaccount ${id.owner}/${id.number} violates margin requirements with new leverage`,
      );
    }
  }

  /** A subaccount as stored (an empty one when it never held anything; funding not settled). */
  get(ctx: StoreAccess, id: SubaccountRef): SubaccountView {
    return this.read(ctx, storeKeysOf(id), id);
  }

  /** The subaccount `id` stored under `keys`. */
  private read(ctx: StoreAccess, keys: StoreKeys, id: SubaccountRef): SubaccountView {
    const store = ctx.store(SUBACCOUNTS);
    const positions: PerpetualPositionView[] = [];
    for (const [key, bytes] of store.entries(keys.positions)) {
      positions.push({
        perpetualId: Number(key.slice(key.lastIndexOf("/") + 1)),
        quantums: decodeI256At(bytes, 0),
        fundingIndex: decodeI256At(bytes, 32),
        quoteBalance: decodeI256At(bytes, 64),
      });
    }
    return {
      id: { owner: id.owner, number: id.number },
      usdc: decodeI256(store.get(keys.usdc)),
      perpetualPositions: positions,
    };
  }

  /** Whether a subaccount was ever written. */
  exists(ctx: StoreAccess, id: SubaccountRef): boolean {
    return ctx.store(SUBACCOUNTS).get(storeKeysOf(id).usdc) !== undefined;
  }

  /** Every subaccount ever written, ordered by owner bytes then number. */
  all(ctx: StoreAccess): SubaccountView[] {
    return [...ctx.store(SUBACCOUNTS).entries("usdc/")].map(([key]) => {
      const [, hex = "", number = "0"] = key.split("/");
      return this.read(ctx, keysAt(key.slice("usdc/".length)), {
        owner: bech32Of(addressFromKey(hex)),
        number: Number(number),
      });
    });
  }

  /**
   * Every subaccount holding a perpetual position, in the order of {@link all}: read from the
   * position keys alone, so a chain of many funded subaccounts without positions costs nothing here
   * (the liquidation and deleveraging scans run every block).
   */
  withPositions(ctx: StoreAccess): SubaccountView[] {
    const keys = new Set<string>();
    for (const [key] of ctx.store(SUBACCOUNTS).entries("pos/")) keys.add(key.slice(4, key.lastIndexOf("/")));
    return [...keys].map((k) => {
      const [hex = "", number = "0"] = k.split("/");
      return this.read(ctx, keysAt(k), { owner: bech32Of(addressFromKey(hex)), number: Number(number) });
    });
  }

  /** The subaccount with its funding settled as it would be when next touched (nothing is written). */
  settled(ctx: StoreAccess, id: SubaccountRef): SubaccountView {
    return this.reads(ctx).settle(this.get(ctx, id));
  }

  /** Reads of margin records over `ctx`, each once (see `margin-reads.ts`): a span that writes none of them. */
  private reads(ctx: StoreAccess): MarginReads {
    return new MarginReads(ctx, new ReadMemo(ctx), this.sources);
  }

  /** Net collateral and margin requirements (quote quantums) at oracle prices, funding settled. */
  risk(ctx: StoreAccess, id: SubaccountRef): MarginTotals {
    const reads = this.reads(ctx);
    return reads.totals(reads.settle(this.get(ctx, id)));
  }

  /** Net collateral (equity) in quote quantums: USDC + Σ notional at the oracle price (+ quote balances, 0 from trading), funding settled. */
  netCollateral(ctx: StoreAccess, id: SubaccountRef): bigint {
    return this.risk(ctx, id).netCollateral;
  }

  /** Initial margin requirement in quote quantums. */
  initialMarginRequirement(ctx: StoreAccess, id: SubaccountRef): bigint {
    return this.risk(ctx, id).initial;
  }

  /** Maintenance margin requirement in quote quantums. */
  maintenanceMarginRequirement(ctx: StoreAccess, id: SubaccountRef): bigint {
    return this.risk(ctx, id).maintenance;
  }

  /** Free collateral: net collateral minus the initial margin requirement (may be negative). */
  freeCollateral(ctx: StoreAccess, id: SubaccountRef): bigint {
    const risk = this.risk(ctx, id);
    return risk.netCollateral - risk.initial;
  }

  /**
   * A settled view with an update's deltas applied; the open-interest changes it causes are added
   * to `openInterest` when given (one per perpetual, in the order the deltas first name them).
   */
  private applied(
    reads: MarginReads,
    settled: SubaccountView,
    update: SubaccountUpdate,
    openInterest?: OpenInterestChange[],
  ): SubaccountView {
    const usdc = settled.usdc + update.usdcDelta;
    const positions = settled.perpetualPositions.slice();
    for (const delta of update.perpetualDeltas) {
      const id = delta.perpetualId;
      const perpetual = reads.perpetual(id);
      const at = indexOfPerpetual(positions, id);
      const before = at >= 0 ? (positions[at] as PerpetualPositionView) : undefined;
      const was = before?.quantums ?? 0n;
      const quantums = was + delta.quantumsDelta;
      if (openInterest !== undefined) {
        const change = (quantums > 0n ? quantums : 0n) - (was > 0n ? was : 0n);
        const seen = indexOfPerpetual(openInterest, id);
        const earlier = seen >= 0 ? (openInterest[seen] as OpenInterestChange).delta : 0n;
        openInterest[seen >= 0 ? seen : openInterest.length] = { perpetualId: id, delta: earlier + change };
      }
      if (quantums === 0n && (before?.quoteBalance ?? 0n) === 0n) {
        if (at >= 0) positions.splice(at, 1);
      } else if (before !== undefined) {
        positions[at] = { ...before, quantums };
      } else {
        positions.push({ perpetualId: id, quantums, fundingIndex: perpetual.fundingIndex, quoteBalance: 0n });
      }
    }
    positions.sort(byPerpetualId);
    return { id: settled.id, usdc, perpetualPositions: positions };
  }

  private checkOne(reads: MarginReads, update: SubaccountUpdate): UpdateCheck {
    const settled = reads.settle(reads.subaccount(update.id));
    if (update.perpetualDeltas.length === 0 && update.usdcDelta >= 0n) return { ok: true };
    const view = this.applied(reads, settled, update);
    // Every position's perpetual is looked up (each lookup is a read the gas meter sees).
    let isolated: number | undefined;
    for (const p of view.perpetualPositions) {
      const pool = this.poolName(reads.findPerpetual(p.perpetualId), p.perpetualId);
      if (pool !== SUBACCOUNTS && isolated === undefined) isolated = p.perpetualId;
    }
    if (isolated !== undefined && view.perpetualPositions.length > 1) {
      return {
        ok: false,
        reason: `a subaccount with a position in isolated perpetual ${isolated} cannot hold other positions`,
      };
    }
    // The totals before the update matter only when the subaccount misses its initial margin after it.
    const before = reads.deferredTotals(settled);
    const after = reads.totals(view);
    return after.netCollateral >= after.initial ? VALID : isValidTransition(before(), after);
  }

  /**
   * Whether every update may be applied (each subaccount at most once).
   *
   * @example
   * ```ts
   * const id = { owner: "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe", number: 0 }; // a new subaccount
   * // a buy of 1e6 base quantums (0.0001 BTC) for 6.5 USDC with a fee of 0.00325 USDC
   * const buy = [{ id, usdcDelta: -6_500_000n - 3_250n, perpetualDeltas: [{ perpetualId: 0, quantumsDelta: 1_000_000n }] }];
   * const checks: UpdateCheck[] = [];
   * // The keepers run inside a block's context: here a control operation of an extra module.
   * const app = ChainApplication.create(
   *   { profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") },
   *   {
   *     extraModules: (keepers) => [
   *       {
   *         name: "example",
   *         control: {
   *           buy: (ctx) => {
   *             checks.push(keepers.subaccounts.canApplyUpdates(ctx, buy));
   *             keepers.subaccounts.mintInto(ctx, id, 100_000_000n); // 100 USDC of collateral
   *             checks.push(keepers.subaccounts.canApplyUpdates(ctx, buy));
   *             return {};
   *           },
   *         },
   *       },
   *     ],
   *   },
   * );
   * app.control.moduleControl("example", "buy", {});
   * checks.map((check) => check.ok); // [false, true]: without collateral it is under initial margin
   * ```
   */
  canApplyUpdates(ctx: StoreAccess, updates: readonly SubaccountUpdate[]): UpdateCheck {
    return this.canApply(this.reads(ctx), updates);
  }

  /** {@link canApplyUpdates} with the reads of the span it runs in (it writes nothing). */
  private canApply(reads: MarginReads, updates: readonly SubaccountUpdate[]): UpdateCheck {
    for (let i = 0; i < updates.length; i++) {
      const update = updates[i] as SubaccountUpdate;
      if (repeatsEarlier(updates, i)) {
        return {
          ok: false,
          reason: `multiple updates for subaccount ${update.id.owner}/${update.id.number}`,
        };
      }
      let check: UpdateCheck;
      try {
        validateSubaccountId(update.id);
        check = this.checkOne(reads, update);
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
      if (!check.ok)
        return { ok: false, reason: `subaccount ${update.id.owner}/${update.id.number}: ${check.reason}` };
    }
    return { ok: true };
  }

  /**
   * Checks, then applies the updates: settles funding, applies deltas, removes closed positions,
   * keeps open interest, emits `subaccount_update` per subaccount. Bank coins do not
   * move (the caller moves them between the pool and accounts when money enters or leaves).
   *
   * @throws AbciError subaccounts 102 (with the reason) when {@link canApplyUpdates} refuses.
   */
  applyUpdates(ctx: Context, updates: readonly SubaccountUpdate[]): void {
    const reads = this.reads(ctx);
    const check = this.canApply(reads, updates);
    if (!check.ok) throw abciError(subaccountsErrors.failedToUpdate, check.reason);
    this.applyChecked(ctx, reads, updates);
  }

  /**
   * Checks each update alone ({@link canApplyUpdates} of `[update]`, in order) and, when every one
   * passes, applies them together: the same state, events and gas as those checks followed by
   * `applyUpdates(ctx, updates)`, without running the checks a second time (a fill checks its taker
   * and its maker, then applies both).
   *
   * The second check would read the same keys of the same state (the checks write nothing), so it
   * would cost the gas the first ones cost: that gas is charged again, in one go, when it fits the
   * meter's limit (then no read of the second check could have run out of gas); otherwise, or when
   * two updates name one subaccount, the second check runs as `applyUpdates` runs it.
   *
   * @returns the index of the first update refused (nothing applied), or -1 when all were applied.
   */
  tryApplyEach(ctx: Context, updates: readonly SubaccountUpdate[]): number {
    const meter = ctx.gasMeter;
    const before = meter.consumed;
    // The checks write nothing: they share their reads (a fill's taker and maker read one perpetual).
    const reads = this.reads(ctx);
    for (let i = 0; i < updates.length; i++) {
      if (!this.canApply(reads, [updates[i] as SubaccountUpdate]).ok) return i;
    }
    const spent = meter.consumed - before;
    let distinct = true;
    for (let i = 1; i < updates.length && distinct; i++) distinct = !repeatsEarlier(updates, i);
    if (distinct && (meter.limit === undefined || meter.consumed + spent <= meter.limit)) {
      meter.consume(spent, "ReadFlat");
      this.applyChecked(ctx, reads, updates);
    } else {
      this.applyUpdates(ctx, updates);
    }
    return -1;
  }

  /**
   * Applies updates that passed {@link canApplyUpdates} (see {@link applyUpdates}); `checks` are the
   * checks' reads (nothing was written since). They serve the perpetuals of the first update only (each
   * update writes open interest), and every update's subaccount (the updates name distinct
   * subaccounts, and only its own update writes one).
   */
  private applyChecked(ctx: Context, checks: MarginReads, updates: readonly SubaccountUpdate[]): void {
    let reads = checks;
    for (const [i, update] of updates.entries()) {
      // Each update writes: the next one reads perpetuals afresh.
      if (i > 0) reads = this.reads(ctx);
      const stored = checks.subaccount(update.id);
      const openInterest: OpenInterestChange[] = [];
      const view = this.applied(reads, reads.settle(stored), update, openInterest);
      // `updateOpenInterest`, reading the perpetuals as this update read them (nothing wrote them
      // since; each id is written once here).
      for (const { perpetualId, delta } of openInterest) {
        if (delta !== 0n) this.perpetuals.addOpenInterest(ctx, reads.perpetual(perpetualId), delta);
      }
      this.write(ctx, stored, view);
      if (!ctx.events.recording) continue;
      ctx.events.indexer(subaccountUpdateEvent(view));
      ctx.events.emitEvent("subaccount_update", [
        ["owner", view.id.owner],
        ["number", view.id.number.toString()],
        ["usdc_delta", update.usdcDelta.toString()],
        ["usdc", view.usdc.toString()],
        [
          "perpetual_positions",
          JSON.stringify(
            view.perpetualPositions.map((p) => ({
              perpetual_id: p.perpetualId,
              quantums: p.quantums.toString(),
              funding_index: p.fundingIndex.toString(),
              quote_balance: p.quoteBalance.toString(),
            })),
          ),
        ],
      ]);
    }
  }

  /**
   * Writes a subaccount as another chain holds it (a fork's start): its USDC and positions, each
   * with its own funding index, replacing what is stored; keeps open interest and emits the
   * indexer's `subaccount_update`. Moves no coins (the caller funds the collateral pool).
   */
  restore(ctx: Context, view: SubaccountView): void {
    const stored = this.get(ctx, view.id);
    const longOf = (positions: readonly PerpetualPositionView[], id: number) => {
      const quantums = positions.find((p) => p.perpetualId === id)?.quantums ?? 0n;
      return quantums > 0n ? quantums : 0n;
    };
    const ids = new Set([...stored.perpetualPositions, ...view.perpetualPositions].map((p) => p.perpetualId));
    for (const id of ids) {
      const delta = longOf(view.perpetualPositions, id) - longOf(stored.perpetualPositions, id);
      if (delta !== 0n) this.perpetuals.updateOpenInterest(ctx, id, delta);
    }
    this.write(ctx, stored, view);
    ctx.events.indexer(subaccountUpdateEvent(view));
  }

  private write(ctx: Context, before: SubaccountView, after: SubaccountView): void {
    const store = ctx.store(SUBACCOUNTS);
    const keys = storeKeysOf(after.id);
    store.set(keys.usdc, encodeI256(after.usdc));
    for (const p of before.perpetualPositions) {
      if (indexOfPerpetual(after.perpetualPositions, p.perpetualId) < 0) {
        store.delete(`${keys.positions}${padKey(p.perpetualId, 10)}`);
      }
    }
    for (const p of after.perpetualPositions)
      store.set(`${keys.positions}${padKey(p.perpetualId, 10)}`, encodePosition(p));
  }

  /** The name of the collateral pool module account of a perpetual (`subaccounts` unless isolated). */
  collateralPoolName(ctx: StoreAccess, perpetualId: number): string {
    return this.poolName(this.perpetuals.find(ctx, perpetualId), perpetualId);
  }

  /** The collateral pool of perpetual `perpetualId`, found (or not) as `perpetual`. */
  private poolName(perpetual: PerpetualView | undefined, perpetualId: number): string {
    return perpetual?.params.marketType === perpetualsProto.PerpetualMarketType.ISOLATED
      ? `${SUBACCOUNTS}:${perpetualId}`
      : SUBACCOUNTS;
  }

  /** The collateral pool module account of a subaccount (its isolated position's pool, else the cross pool). */
  poolOf(ctx: StoreAccess, id: SubaccountRef): string {
    for (const p of this.get(ctx, id).perpetualPositions) {
      const pool = this.collateralPoolName(ctx, p.perpetualId);
      if (pool !== SUBACCOUNTS) return pool;
    }
    return SUBACCOUNTS;
  }

  /** Moves `quantums` uusdc from an account into a subaccount (bank: account -> pool). */
  deposit(ctx: Context, from: Uint8Array, to: SubaccountRef, quantums: bigint): void {
    this.bank.sendCoinsFromAccountToModule(ctx, from, this.poolOf(ctx, to), [
      { denom: USDC_DENOM, amount: quantums },
    ]);
    this.applyUpdates(ctx, [{ id: to, usdcDelta: quantums, perpetualDeltas: [] }]);
    ctx.events.indexer({
      kind: "transfer",
      sender: { owner: bech32Of(from) },
      recipient: to,
      assetId: 0,
      quantums,
    });
  }

  /**
   * Moves `quantums` uusdc from a subaccount to an account (bank: pool -> account).
   *
   * @throws AbciError subaccounts 102 when the subaccount would fall below its initial margin, or
   * while withdrawals are gated (`withdrawal-gate.ts`).
   */
  withdraw(ctx: Context, from: SubaccountRef, to: Uint8Array, quantums: bigint): void {
    if (isGated(ctx, this, [from]))
      throw abciError(subaccountsErrors.failedToUpdate, "WithdrawalsAndTransfersBlocked");
    const pool = this.poolOf(ctx, from);
    this.applyUpdates(ctx, [{ id: from, usdcDelta: -quantums, perpetualDeltas: [] }]);
    this.bank.sendCoinsFromModuleToAccount(ctx, pool, to, [{ denom: USDC_DENOM, amount: quantums }]);
    ctx.events.indexer({
      kind: "transfer",
      sender: from,
      recipient: { owner: bech32Of(to) },
      assetId: 0,
      quantums,
    });
  }

  /**
   * Moves `quantums` of USDC between subaccounts (bank coins move only between different pools).
   *
   * @throws AbciError subaccounts 102 when the sender would fall below its initial margin, or while
   * transfers are gated (`withdrawal-gate.ts`).
   */
  transfer(ctx: Context, from: SubaccountRef, to: SubaccountRef, quantums: bigint): void {
    if (isGated(ctx, this, [from, to])) {
      throw abciError(subaccountsErrors.failedToUpdate, "WithdrawalsAndTransfersBlocked");
    }
    const fromPool = this.poolOf(ctx, from);
    const toPool = this.poolOf(ctx, to);
    this.applyUpdates(ctx, [
      { id: from, usdcDelta: -quantums, perpetualDeltas: [] },
      { id: to, usdcDelta: quantums, perpetualDeltas: [] },
    ]);
    if (fromPool !== toPool) {
      this.bank.sendCoinsFromModuleToModule(ctx, fromPool, toPool, [{ denom: USDC_DENOM, amount: quantums }]);
    }
    ctx.events.indexer({ kind: "transfer", sender: from, recipient: to, assetId: 0, quantums });
  }

  /** Mints `quantums` uusdc into a subaccount (the devnet faucet): faucet module -> pool. */
  mintInto(ctx: Context, to: SubaccountRef, quantums: bigint): void {
    const coins = [{ denom: USDC_DENOM, amount: quantums }];
    this.bank.mintCoins(ctx, "devnet_faucet", coins);
    this.bank.sendCoinsFromModuleToModule(ctx, "devnet_faucet", this.poolOf(ctx, to), coins);
    this.applyUpdates(ctx, [{ id: to, usdcDelta: quantums, perpetualDeltas: [] }]);
    const faucet = bech32Of(moduleAddress("devnet_faucet"));
    ctx.events.indexer({ kind: "transfer", sender: { owner: faucet }, recipient: to, assetId: 0, quantums });
  }

  /**
   * Genesis: subaccount 0 of each owner gets `quantums` of USDC, minted at once into the cross
   * collateral pool (new subaccounts hold no position, so they all draw on that pool).
   */
  fundAtGenesis(ctx: Context, owners: readonly string[], quantums: bigint): void {
    if (owners.length === 0) return;
    const coins = [{ denom: USDC_DENOM, amount: quantums * BigInt(owners.length) }];
    this.bank.mintCoins(ctx, "devnet_faucet", coins);
    this.bank.sendCoinsFromModuleToModule(ctx, "devnet_faucet", SUBACCOUNTS, coins);
    for (const owner of owners) {
      this.applyUpdates(ctx, [{ id: { owner, number: 0 }, usdcDelta: quantums, perpetualDeltas: [] }]);
    }
  }
}
