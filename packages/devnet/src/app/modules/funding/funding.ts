/**
 * Funding as the real chain's x/perpetuals runs it, on the epochs of x/epochs:
 * - every block, a premium vote per perpetual from the book (the clob's impact bid/ask prices of
 *   the liquidity tier's impact notional against the oracle price, clamped to the premium vote
 *   clamp); non-zero votes are recorded, every block counts a round;
 * - at each `funding-sample` epoch (every minute), the votes of every perpetual padded with zeros
 *   to `max(rounds, min_num_votes_per_sample)` give a sample, their median; non-zero samples are
 *   recorded, every sample epoch counts a round; the indexer gets every perpetual's new sample
 *   (zeros too), as the real chain's `FundingEvent` of type premium sample;
 * - at each `funding-tick` epoch (every hour), the samples padded with zeros to
 *   `max(rounds, tick duration / sample duration)` (tails trimmed by the removal rate, 0) give
 *   the premium, their mean; the rate is premium + default funding, clamped to
 *   `funding_rate_clamp_factor × (IMF − MMF)`; a non-zero rate moves the funding index by the rate
 *   over the tick's duration (an 8-hour rate); the indexer gets every perpetual's rate and index.
 * Subaccounts settle the index change the next time their positions are touched (`subaccounts.ts`).
 *
 * Store (slice `perpetuals/`): `premium_votes`, `premium_samples`: `perpx.perpetuals.v1.PremiumStore`.
 */
import type { perpetuals } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { wireCreate } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { EPOCH_NAMES, type EpochsKeeper } from "../epochs/epochs.js";
import { type PerpetualsKeeper, PREMIUM_KEYS } from "../perpetuals/perpetuals.js";
import type { PricesKeeper } from "../prices/prices.js";
import {
  clampAbs,
  fundingIndexDelta,
  maxAbsClampPpm,
  meanTowardZero,
  medianAwayFromZero,
  padWithZeros,
} from "./funding-math.js";

/** The share of samples trimmed from each tail before averaging, ppm (the real chain's is 0). */
export const REMOVED_TAIL_SAMPLE_RATIO_PPM = 0n;

/** A perpetual to vote a premium for: its impact notional (quote quantums) and vote clamp (ppm). */
export interface PremiumVoteRequest {
  readonly perpetualId: number;
  readonly impactNotional: bigint;
  readonly maxAbsPpm: bigint;
}

/** What funding needs from the order book (the clob provides it). */
export interface FundingBook {
  /**
   * The premium votes of perpetuals at the current book, ppm, by perpetual id (0 or absent when
   * the book cannot absorb the impact notional on the side that matters, or without an oracle price).
   */
  premiumVotes(ctx: Context, requests: readonly PremiumVoteRequest[]): Map<number, bigint>;
  /** The oracle price of a perpetual in its clob pair's subticks (rounded down), if it has one. */
  oracleSubticks(ctx: Context, perpetualId: number): bigint | undefined;
}

/** Appends one round of premiums (non-zero ones by perpetual) to a record; the round counts even when empty. */
function addRound(
  ctx: StoreAccess,
  keeper: PerpetualsKeeper,
  key: string,
  premiums: ReadonlyMap<number, bigint>,
): void {
  const store = keeper.premiumStore(ctx, key);
  const byPerpetual = new Map(store.allMarketPremiums.map((m) => [m.perpetualId, [...m.premiums]]));
  for (const [perpetualId, premium] of premiums) {
    if (premium === 0n) continue;
    const list = byPerpetual.get(perpetualId) ?? [];
    list.push(Number(premium));
    byPerpetual.set(perpetualId, list);
  }
  keeper.setPremiumStore(
    ctx,
    key,
    wireCreate(wire.perpx_perpetuals_v1_PremiumStore, {
      allMarketPremiums: [...byPerpetual.entries()]
        .sort(([a], [b]) => a - b)
        .map(([perpetualId, list]) => ({ perpetualId, premiums: list })),
      numPremiums: store.numPremiums + 1,
    }),
  );
}

/** Removes `REMOVED_TAIL_SAMPLE_RATIO_PPM` of the samples from each end, after sorting. */
function removeTails(values: bigint[]): bigint[] {
  const total = (BigInt(values.length) * REMOVED_TAIL_SAMPLE_RATIO_PPM * 2n) / 1_000_000n;
  if (total === 0n || total >= BigInt(values.length)) return values;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const bottom = Number(total / 2n);
  return sorted.slice(bottom, sorted.length - (Number(total) - bottom));
}

/** Every perpetual's combined premium of a record (absent perpetuals: 0). */
function combine(
  record: perpetuals.PremiumStore,
  minimum: number,
  combineFn: (values: readonly bigint[]) => bigint,
  filter: (values: bigint[]) => bigint[] = (values) => values,
): Map<number, bigint> {
  const out = new Map<number, bigint>();
  for (const market of record.allMarketPremiums) {
    const padded = padWithZeros(market.premiums.map(BigInt), record.numPremiums, minimum);
    out.set(market.perpetualId, combineFn(filter(padded)));
  }
  return out;
}

/** The keepers funding reads. */
export interface FundingKeepers {
  readonly perpetuals: PerpetualsKeeper;
  readonly prices: PricesKeeper;
  readonly epochs: EpochsKeeper;
  /** The order books (the clob's). */
  readonly book: FundingBook;
}

function recordVotes(ctx: Context, keepers: FundingKeepers): void {
  const book = keepers.book;
  const params = keepers.perpetuals.params(ctx);
  const tiers = new Map(keepers.perpetuals.allLiquidityTiers(ctx).map((t) => [t.id, t]));
  const requests: PremiumVoteRequest[] = [];
  for (const perpetual of keepers.perpetuals.allPerpetualParams(ctx)) {
    const tier = tiers.get(perpetual.liquidityTier);
    if (tier === undefined) continue;
    requests.push({
      perpetualId: perpetual.id,
      impactNotional: tier.impactNotional,
      maxAbsPpm: maxAbsClampPpm(tier, params.premiumVoteClampFactorPpm),
    });
  }
  addRound(ctx, keepers.perpetuals, PREMIUM_KEYS.votes, book.premiumVotes(ctx, requests));
}

function processSampleEpoch(ctx: Context, keepers: FundingKeepers): void {
  const params = keepers.perpetuals.params(ctx);
  const votes = keepers.perpetuals.premiumStore(ctx, PREMIUM_KEYS.votes);
  const medians = combine(votes, params.minNumVotesPerSample, medianAwayFromZero);
  addRound(ctx, keepers.perpetuals, PREMIUM_KEYS.samples, medians);
  keepers.perpetuals.setPremiumStore(
    ctx,
    PREMIUM_KEYS.votes,
    wireCreate(wire.perpx_perpetuals_v1_PremiumStore),
  );
  const book = keepers.book;
  for (const perpetual of keepers.perpetuals.allPerpetuals(ctx)) {
    ctx.events.indexer({
      kind: "funding",
      phase: "sample",
      perpetualId: perpetual.params.id,
      ratePpm: medians.get(perpetual.params.id) ?? 0n,
      oracleSubticks: book.oracleSubticks(ctx, perpetual.params.id) ?? 0n,
      fundingIndex: perpetual.fundingIndex,
    });
  }
}

function processTickEpoch(ctx: Context, keepers: FundingKeepers): void {
  const params = keepers.perpetuals.params(ctx);
  const tick = keepers.epochs.get(ctx, EPOCH_NAMES.fundingTick);
  const sample = keepers.epochs.get(ctx, EPOCH_NAMES.fundingSample);
  const minimum = Math.ceil(tick.duration / sample.duration);
  const premiums = combine(
    keepers.perpetuals.premiumStore(ctx, PREMIUM_KEYS.samples),
    minimum,
    meanTowardZero,
    removeTails,
  );
  const book = keepers.book;
  for (const perpetual of keepers.perpetuals.allPerpetualParams(ctx)) {
    const tier = keepers.perpetuals.liquidityTier(ctx, perpetual.liquidityTier);
    const clamp = maxAbsClampPpm(tier, params.fundingRateClampFactorPpm);
    const rate = clampAbs((premiums.get(perpetual.id) ?? 0n) + BigInt(perpetual.defaultFundingPpm), clamp);
    if (rate !== 0n) {
      const price = keepers.prices.marketPrice(ctx, perpetual.marketId);
      const delta = fundingIndexDelta(
        rate,
        BigInt(tick.duration),
        perpetual.atomicResolution,
        price?.price ?? 0n,
        price?.exponent ?? 0,
      );
      keepers.perpetuals.addFundingIndex(ctx, perpetual.id, delta);
    }
    ctx.events.indexer({
      kind: "funding",
      phase: "payment",
      perpetualId: perpetual.id,
      ratePpm: rate,
      oracleSubticks: book.oracleSubticks(ctx, perpetual.id) ?? 0n,
      fundingIndex: keepers.perpetuals.perpetual(ctx, perpetual.id).fundingIndex,
    });
  }
  keepers.perpetuals.setPremiumStore(
    ctx,
    PREMIUM_KEYS.samples,
    wireCreate(wire.perpx_perpetuals_v1_PremiumStore),
  );
}

/**
 * Funding's end-block work (see the module comment): this block's premium votes, then a new
 * `funding-sample` epoch's samples, then a new `funding-tick` epoch's rates and indexes.
 */
export function fundingEndBlock(ctx: Context, keepers: FundingKeepers): void {
  recordVotes(ctx, keepers);
  if (keepers.epochs.blocksSinceEpochStart(ctx, EPOCH_NAMES.fundingSample) === 0n) {
    processSampleEpoch(ctx, keepers);
  }
  if (keepers.epochs.blocksSinceEpochStart(ctx, EPOCH_NAMES.fundingTick) === 0n) {
    processTickEpoch(ctx, keepers);
  }
}
