/**
 * Pure readers that turn the SerializableInt bytes of query answers into bigints; each throws
 * `SerializableIntError` (from `@perpx/proto`) for bytes that are no SerializableInt.
 */
import {
  type affiliates,
  decodeSerializableInt,
  type perpetuals,
  type ratelimit,
  type subaccounts,
} from "@perpx/proto";

/**
 * One perpetual position of a subaccount, in numbers.
 * @example
 * ```ts
 * const position: PerpetualPositionAmounts | undefined = subaccountBalances(await client.getSubaccount(subaccount)).perpetuals[0];
 * position; // undefined: no open position
 * ```
 */
export interface PerpetualPositionAmounts {
  readonly perpetualId: number;
  /** Signed size in base quantums: > 0 long, < 0 short. */
  readonly quantums: bigint;
  /** The perpetual's funding index when the position last settled funding. */
  readonly fundingIndex: bigint;
  /** Quote balance attributed to the position, quote quantums: 0 on the chain (fills book in USDC). */
  readonly quoteBalance: bigint;
}

/**
 * A subaccount's balances, in numbers.
 * @example
 * ```ts
 * const { usdcQuantums, perpetuals } = subaccountBalances(await client.getSubaccount({ owner: wallet.address, number: 0 }));
 * ```
 */
export interface SubaccountBalances {
  /** USDC (asset 0) in quote quantums (1 = 0.000001 USDC); negative when borrowed, 0 when none. */
  readonly usdcQuantums: bigint;
  /** The open perpetual positions, as the chain sorts them (by perpetual id). */
  readonly perpetuals: readonly PerpetualPositionAmounts[];
}

/**
 * Reads a subaccount's USDC and perpetual positions as bigints.
 * @param subaccount - from {@link getSubaccount}; `undefined` (never used) reads as empty.
 * @returns the balances.
 * @example
 * ```ts
 * const balances = subaccountBalances(await client.getSubaccount({ owner: wallet.address, number: 0 }));
 * balances.usdcQuantums > 1_000_000n; // true: more than 1 USDC (quote quantums, 10^6 per USDC)
 * ```
 */
export function subaccountBalances(subaccount: subaccounts.Subaccount | undefined): SubaccountBalances {
  const usdc = subaccount?.assetPositions.find((p) => p.assetId === 0);
  return {
    usdcQuantums: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums),
    perpetuals: (subaccount?.perpetualPositions ?? []).map((p) => ({
      perpetualId: p.perpetualId,
      quantums: decodeSerializableInt(p.quantums),
      fundingIndex: decodeSerializableInt(p.fundingIndex),
      quoteBalance: decodeSerializableInt(p.quoteBalance),
    })),
  };
}

/**
 * A perpetual's funding index and open interest, in numbers.
 * @example
 * ```ts
 * const { fundingIndex, openInterest } = perpetualAmounts(await client.getPerpetual({ id: 0 }));
 * ```
 */
export interface PerpetualAmounts {
  readonly perpetualId: number;
  /** The cumulative funding index. */
  readonly fundingIndex: bigint;
  /** Open interest: the total size of long positions, in base quantums. */
  readonly openInterest: bigint;
}

/**
 * Reads a perpetual's funding index and open interest as bigints.
 * @param perpetual - from `marketQueries.getPerpetual` or `marketQueries.getPerpetuals`.
 * @returns the amounts.
 * @example
 * ```ts
 * perpetualAmounts(await client.getPerpetual({ id: 0 })).openInterest; // 0n
 * ```
 */
export function perpetualAmounts(perpetual: perpetuals.Perpetual): PerpetualAmounts {
  return {
    perpetualId: perpetual.params?.id ?? 0,
    fundingIndex: decodeSerializableInt(perpetual.fundingIndex),
    openInterest: decodeSerializableInt(perpetual.openInterest),
  };
}

/**
 * One IBC rate limiter of a denom and what can still leave under it, in numbers.
 * @example
 * ```ts
 * const [hourly] = limiterCapacities(await ratelimitQueries.getCapacityByDenom(client, { denom: "uusdc" }));
 * ```
 */
export interface LimiterCapacityAmounts {
  /** The limiter's window, in seconds. */
  readonly periodSeconds: bigint;
  /** The smallest baseline, in base units of the denom. */
  readonly baselineMinimum: bigint;
  /** The baseline as a share of the denom's supply, ppm. */
  readonly baselineTvlPpm: number;
  /** What can still leave now, in base units of the denom. */
  readonly capacity: bigint;
}

/**
 * Reads the limiters of a denom and their remaining capacities as bigints.
 * @param list - from `ratelimitQueries.getCapacityByDenom`.
 * @returns one entry per limiter, in the chain's order.
 * @example
 * ```ts
 * const capacities = limiterCapacities(await ratelimitQueries.getCapacityByDenom(client, { denom: "uusdc" }));
 * capacities.map((c) => c.capacity); // [1_000_000_000_000n, 10_000_000_000_000n]
 * ```
 */
export function limiterCapacities(list: readonly ratelimit.LimiterCapacity[]): LimiterCapacityAmounts[] {
  return list.map((entry) => ({
    periodSeconds: entry.limiter?.period?.seconds ?? 0n,
    baselineMinimum: decodeSerializableInt(entry.limiter?.baselineMinimum ?? new Uint8Array()),
    baselineTvlPpm: entry.limiter?.baselineTvlPpm ?? 0,
    capacity: decodeSerializableInt(entry.capacity),
  }));
}

/**
 * An account's affiliate volumes and stake, in numbers.
 * @example
 * ```ts
 * const { referredVolume30d } = affiliateAmounts(await affiliateQueries.getAffiliateInfo(client, { address: wallet.address }));
 * ```
 */
export interface AffiliateAmounts {
  /** All-time referred volume, quote quantums (deprecated by the chain). */
  readonly referredVolume: bigint;
  /** Staked native tokens, whole coins. */
  readonly stakedAmount: bigint;
  /** Referred volume over the last 30 days, quote quantums. */
  readonly referredVolume30d: bigint;
  /** Volume attributed from referees over the last 30 days, quote quantums. */
  readonly attributedVolume30d: bigint;
}

/**
 * Reads the volumes and stake of an affiliate answer as bigints.
 * @param info - from `affiliateQueries.getAffiliateInfo`.
 * @returns the amounts.
 * @example
 * ```ts
 * affiliateAmounts(await affiliateQueries.getAffiliateInfo(client, { address: wallet.address })).referredVolume30d; // 0n
 * ```
 */
export function affiliateAmounts(info: affiliates.AffiliateInfoResponse): AffiliateAmounts {
  return {
    referredVolume: decodeSerializableInt(info.referredVolume),
    stakedAmount: decodeSerializableInt(info.stakedAmount),
    referredVolume30d: decodeSerializableInt(info.referredVolume30dRolling),
    attributedVolume30d: decodeSerializableInt(info.attributedVolume30dRolling),
  };
}
