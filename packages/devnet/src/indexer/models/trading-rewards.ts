/**
 * The trading-rewards read model, as the reference indexer keeps it:
 * - `trading_reward` events (ender's handler): one reward row per address and block, and the
 *   address's wallet total (`totalTradingRewards`);
 * - wallets (ender's transfer handler): an address has one once a transfer paid it or it sent from
 *   its wallet; `/v4/addresses` prints `"0"` for an address without one;
 * - aggregations (roundtable's `aggregate-trading-rewards`, for DAILY, WEEKLY and MONTHLY): the
 *   rewards of blocks before the start of the latest block's minute are summed per address and
 *   period (UTC days, ISO weeks from Monday, months); a period starts at its first instant and at
 *   the first block at or after it, and once the latest block's minute is past its end every row
 *   of it gets that end and the height of the last block before it.
 *
 * Amounts are the reward denom's units (`aperpx`, 18 decimals); the reference stores them as
 * `numeric(27, 18)`, so every amount it prints has 18 decimals (`"0.000030030000000000"`).
 */
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";

/** An aggregation period. */
export type RewardPeriod = "DAILY" | "WEEKLY" | "MONTHLY";

/** The periods, in the reference's order. */
export const REWARD_PERIODS: readonly RewardPeriod[] = ["DAILY", "WEEKLY", "MONTHLY"];

/** The reward paid to one address in one block. */
export interface BlockReward {
  readonly address: string;
  readonly amount: bigint;
  readonly height: bigint;
  readonly time: Date;
}

/** One address's rewards over one period (its end set once the period is over). */
export interface RewardAggregation {
  readonly address: string;
  readonly period: RewardPeriod;
  readonly startedAt: Date;
  readonly startedAtHeight: bigint;
  amount: bigint;
  endedAt?: Date;
  endedAtHeight?: bigint;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DECIMALS = 18;

/**
 * A reward amount as the reference prints it: whole tokens with exactly 18 decimals.
 *
 * @param units - units of the reward denom (10^-18 tokens).
 * @returns the decimal text.
 * @example
 * ```ts
 * rewardAmount(30_030_000_000_000n); // "0.000030030000000000"
 * rewardAmount(2n * 10n ** 18n); // "2.000000000000000000"
 * ```
 */
export function rewardAmount(units: bigint): string {
  const digits = units.toString().padStart(DECIMALS + 1, "0");
  return `${digits.slice(0, -DECIMALS)}.${digits.slice(-DECIMALS)}`;
}

/**
 * The start of the period holding `timeMs` (UTC; a week starts on Monday, as luxon's ISO weeks).
 *
 * @param period - the period.
 * @param timeMs - a moment, unix milliseconds.
 * @returns the period's first instant, unix milliseconds.
 * @example
 * ```ts
 * // 2026-11-28 is a Saturday.
 * const t = Date.parse("2026-11-28T08:30:00Z");
 * new Date(periodStart("DAILY", t)).toISOString(); // "2026-11-28T00:00:00.000Z"
 * new Date(periodStart("WEEKLY", t)).toISOString(); // "2026-11-23T00:00:00.000Z"
 * new Date(periodStart("MONTHLY", t)).toISOString(); // "2026-11-01T00:00:00.000Z"
 * ```
 */
export function periodStart(period: RewardPeriod, timeMs: number): number {
  const day = Math.floor(timeMs / DAY_MS) * DAY_MS;
  if (period === "DAILY") return day;
  if (period === "WEEKLY") return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the period after the one starting at `startMs`. */
function nextPeriodStart(period: RewardPeriod, startMs: number): number {
  if (period === "DAILY") return startMs + DAY_MS;
  if (period === "WEEKLY") return startMs + 7 * DAY_MS;
  const date = new Date(startMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** A period that has started and is not yet closed: its first block and its rows. */
interface OpenPeriod {
  readonly firstHeight: bigint;
  readonly rows: Map<string, RewardAggregation>;
}

/** The trading-rewards model (see the module comment). */
export class TradingRewardsModel {
  private readonly rewards = new Map<string, BlockReward[]>();
  private readonly totals = new Map<string, bigint>();
  private readonly wallets = new Set<string>();
  private readonly aggregations = new Map<string, RewardAggregation[]>();
  private readonly open = new Map<RewardPeriod, Map<number, OpenPeriod>>(
    REWARD_PERIODS.map((p) => [p, new Map()]),
  );
  private pending: BlockReward[] = [];

  /** Applies one event; returns the rewards it paid (each goes to the address's subaccount 0 feed). */
  apply(located: LocatedIndexerEvent): BlockReward[] {
    const e = located.event;
    if (e.kind === "transfer") {
      this.wallets.add(e.recipient.owner);
      if (e.sender.number === undefined) this.wallets.add(e.sender.owner);
      return [];
    }
    if (e.kind !== "trading_reward") return [];
    return e.rewards.map(({ owner, amount }) => {
      const reward = { address: owner, amount, height: located.height, time: located.time };
      const list = this.rewards.get(owner);
      if (list === undefined) this.rewards.set(owner, [reward]);
      else list.push(reward);
      this.totals.set(owner, (this.totals.get(owner) ?? 0n) + amount);
      this.wallets.add(owner);
      this.pending.push(reward);
      return reward;
    });
  }

  /**
   * After a block's events: the block opens the periods it is the first block of, the rewards of
   * blocks before the start of its minute are aggregated, and the periods that ended before it are
   * closed (their last block is the one before it).
   */
  block(height: bigint, time: Date): void {
    const timeMs = time.getTime();
    for (const period of REWARD_PERIODS) {
      const periods = this.open.get(period) as Map<number, OpenPeriod>;
      const start = periodStart(period, timeMs);
      if (!periods.has(start)) periods.set(start, { firstHeight: height, rows: new Map() });
    }
    const processedTo = Math.floor(timeMs / MINUTE_MS) * MINUTE_MS;
    const later: BlockReward[] = [];
    for (const reward of this.pending) {
      if (reward.time.getTime() < processedTo) this.aggregate(reward);
      else later.push(reward);
    }
    this.pending = later;
    for (const period of REWARD_PERIODS) {
      const periods = this.open.get(period) as Map<number, OpenPeriod>;
      for (const [start, open] of periods) {
        const end = nextPeriodStart(period, start);
        if (end > processedTo) continue;
        for (const row of open.rows.values()) {
          row.endedAt = new Date(end);
          row.endedAtHeight = height - 1n;
        }
        periods.delete(start);
      }
    }
  }

  private aggregate(reward: BlockReward): void {
    for (const period of REWARD_PERIODS) {
      const start = periodStart(period, reward.time.getTime());
      const open = this.open.get(period)?.get(start);
      if (open === undefined) continue;
      let row = open.rows.get(reward.address);
      if (row === undefined) {
        row = {
          address: reward.address,
          period,
          startedAt: new Date(start),
          startedAtHeight: open.firstHeight,
          amount: 0n,
        };
        open.rows.set(reward.address, row);
        const key = `${reward.address}/${period}`;
        const list = this.aggregations.get(key);
        if (list === undefined) this.aggregations.set(key, [row]);
        else list.push(row);
      }
      row.amount += reward.amount;
    }
  }

  /** Drops the block rewards of blocks below `oldest` (the node's pruning; totals and aggregations stay). */
  prune(oldest: bigint): void {
    for (const [address, list] of this.rewards) {
      const kept = list.filter((r) => r.height >= oldest);
      if (kept.length === 0) this.rewards.delete(address);
      else if (kept.length < list.length) this.rewards.set(address, kept);
    }
  }

  /** An address's block rewards, newest first. */
  blockRewards(address: string): BlockReward[] {
    return [...(this.rewards.get(address) ?? [])].reverse();
  }

  /** An address's aggregations of one period, newest first. */
  aggregationsOf(address: string, period: RewardPeriod): RewardAggregation[] {
    return [...(this.aggregations.get(`${address}/${period}`) ?? [])].reverse();
  }

  /** `totalTradingRewards` of `/v4/addresses`: the wallet's total, or `"0"` without a wallet. */
  totalOf(address: string): string {
    return this.wallets.has(address) ? rewardAmount(this.totals.get(address) ?? 0n) : "0";
  }
}
