/**
 * Governance messages of fees: perpetual fee tiers, per-market fee discounts and staking tiers.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { feetiers } from "@perpx/proto";
import { checkParams, nonEmpty, uint32, uint64 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import {
  authorityOf,
  decimalAmount,
  type GovernanceParams,
  int32,
  list,
  object,
  ppm,
  serializableUint,
  timestampOf,
} from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * One perpetual fee tier.
 *
 * @example
 * ```ts
 * const tier: PerpetualFeeTierInput = { name: "1", absoluteVolumeRequirement: 0n, totalVolumeShareRequirementPpm: 0, makerVolumeShareRequirementPpm: 0, makerFeePpm: 100, takerFeePpm: 500 };
 * ```
 */
export interface PerpetualFeeTierInput {
  /** The tier's name. */
  name: string;
  /** 30-day volume required, in quote quantums (the first tier: 0). */
  absoluteVolumeRequirement: IntegerInput;
  /** Share of the exchange's volume required, in ppm. */
  totalVolumeShareRequirementPpm: number;
  /** Share of maker volume required, in ppm. */
  makerVolumeShareRequirementPpm: number;
  /** Maker fee in ppm (negative: a rebate); the rebate may not exceed the taker fee. */
  makerFeePpm: number;
  /** Taker fee in ppm. */
  takerFeePpm: number;
}

/**
 * Parameters of {@link updatePerpetualFeeParamsMsg}.
 *
 * @example
 * ```ts
 * const params: UpdatePerpetualFeeParamsParams = { tiers: [{ name: "1", absoluteVolumeRequirement: 0n, totalVolumeShareRequirementPpm: 0, makerVolumeShareRequirementPpm: 0, makerFeePpm: 100, takerFeePpm: 500 }] };
 * ```
 */
export interface UpdatePerpetualFeeParamsParams extends GovernanceParams {
  /** The tiers, from the lowest: at least one, the first with no volume requirement, requirements not decreasing. */
  tiers: readonly PerpetualFeeTierInput[];
}

/**
 * Builds a `MsgUpdatePerpetualFeeParams` (governance): replaces the fee tiers.
 *
 * @param params - the message's fields in chain units (`UpdatePerpetualFeeParamsParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (no tier, a first tier with a requirement, decreasing requirements, a rebate above the taker fee) before anything is built.
 *
 * @example
 * ```ts
 * const msg = updatePerpetualFeeParamsMsg({ tiers: [{ name: "1", absoluteVolumeRequirement: 0n, totalVolumeShareRequirementPpm: 0, makerVolumeShareRequirementPpm: 0, makerFeePpm: 100, takerFeePpm: 500 }] });
 * ```
 */
export function updatePerpetualFeeParamsMsg(
  params: UpdatePerpetualFeeParamsParams,
): TxMessage<typeof feetiers.MsgUpdatePerpetualFeeParamsSchema> {
  checkParams(params, "updatePerpetualFeeParamsMsg");
  const tiers = list(params.tiers, "tiers").map((tier, i) => {
    const at = `tiers[${i}]`;
    object(tier, at);
    const makerFeePpm = int32(tier.makerFeePpm, `${at}.makerFeePpm`);
    const takerFeePpm = int32(tier.takerFeePpm, `${at}.takerFeePpm`);
    if (makerFeePpm + takerFeePpm < 0) {
      throw new InvalidArgumentError(
        `${at}.makerFeePpm`,
        `the maker rebate ${-makerFeePpm} exceeds the taker fee ${takerFeePpm}`,
      );
    }
    return {
      name: nonEmpty(tier.name, `${at}.name`),
      absoluteVolumeRequirement: uint64(tier.absoluteVolumeRequirement, `${at}.absoluteVolumeRequirement`),
      totalVolumeShareRequirementPpm: ppm(
        tier.totalVolumeShareRequirementPpm,
        `${at}.totalVolumeShareRequirementPpm`,
      ),
      makerVolumeShareRequirementPpm: ppm(
        tier.makerVolumeShareRequirementPpm,
        `${at}.makerVolumeShareRequirementPpm`,
      ),
      makerFeePpm,
      takerFeePpm,
    };
  });
  if (tiers.length === 0) throw new InvalidArgumentError("tiers", "needs at least one tier");
  if (tiers[0]!.absoluteVolumeRequirement !== 0n) {
    throw new InvalidArgumentError(
      "tiers[0].absoluteVolumeRequirement",
      "the first tier must have no volume requirement (0)",
    );
  }
  for (let i = 1; i < tiers.length; i++) {
    if (tiers[i]!.absoluteVolumeRequirement < tiers[i - 1]!.absoluteVolumeRequirement) {
      throw new InvalidArgumentError(
        `tiers[${i}].absoluteVolumeRequirement`,
        "volume requirements must not decrease",
      );
    }
  }
  return govMsg(feetiers.MsgUpdatePerpetualFeeParamsSchema, {
    authority: authorityOf(params),
    params: { tiers },
  });
}

/**
 * A fee discount on one market for a time window.
 *
 * @example
 * ```ts
 * const discount: MarketFeeDiscountInput = { clobPairId: 0, startTime: new Date("2026-12-01"), endTime: new Date("2026-12-31"), chargePpm: 500_000 };
 * ```
 */
export interface MarketFeeDiscountInput {
  /** The clob pair. */
  clobPairId: number;
  /** When the discount starts. */
  startTime: Date;
  /** When it ends (after the start). */
  endTime: Date;
  /** The share of the normal fee charged, in ppm (500,000: half). */
  chargePpm: number;
}

/**
 * Parameters of {@link setMarketFeeDiscountParamsMsg}.
 *
 * @example
 * ```ts
 * const params: SetMarketFeeDiscountParamsParams = { discounts: [{ clobPairId: 0, startTime: new Date("2026-12-01"), endTime: new Date("2026-12-31"), chargePpm: 500_000 }] };
 * ```
 */
export interface SetMarketFeeDiscountParamsParams extends GovernanceParams {
  /** The discounts, one per clob pair. */
  discounts: readonly MarketFeeDiscountInput[];
}

/**
 * Builds a `MsgSetMarketFeeDiscountParams` (governance).
 *
 * @param params - the message's fields in chain units (`SetMarketFeeDiscountParamsParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (an end not after the start, a pair twice) before anything is built.
 *
 * @example
 * ```ts
 * const msg = setMarketFeeDiscountParamsMsg({ discounts: [{ clobPairId: 0, startTime: new Date("2026-12-01"), endTime: new Date("2026-12-31"), chargePpm: 500_000 }] });
 * ```
 */
export function setMarketFeeDiscountParamsMsg(
  params: SetMarketFeeDiscountParamsParams,
): TxMessage<typeof feetiers.MsgSetMarketFeeDiscountParamsSchema> {
  checkParams(params, "setMarketFeeDiscountParamsMsg");
  const seen = new Set<number>();
  const discounts = list(params.discounts, "discounts").map((d, i) => {
    const at = `discounts[${i}]`;
    object(d, at);
    const clobPairId = uint32(d.clobPairId, `${at}.clobPairId`);
    if (seen.has(clobPairId))
      throw new InvalidArgumentError(`${at}.clobPairId`, `clob pair ${clobPairId} appears twice`);
    seen.add(clobPairId);
    const startTime = timestampOf(d.startTime, `${at}.startTime`);
    const endTime = timestampOf(d.endTime, `${at}.endTime`);
    if (d.endTime.getTime() <= d.startTime.getTime()) {
      throw new InvalidArgumentError(`${at}.endTime`, "must be after startTime");
    }
    return { clobPairId, startTime, endTime, chargePpm: ppm(d.chargePpm, `${at}.chargePpm`) };
  });
  return govMsg(feetiers.MsgSetMarketFeeDiscountParamsSchema, {
    authority: authorityOf(params),
    params: discounts,
  });
}

/**
 * The staking discounts of one fee tier.
 *
 * @example
 * ```ts
 * const tier: StakingTierInput = { feeTierName: "1", levels: [{ minStakedBaseTokens: 10n ** 21n, feeDiscountPpm: 50_000 }] };
 * ```
 */
export interface StakingTierInput {
  /** The fee tier these levels apply to. */
  feeTierName: string;
  /** The levels, by rising stake. */
  levels: readonly { minStakedBaseTokens: IntegerInput; feeDiscountPpm: number }[];
}

/**
 * Parameters of {@link setStakingTiersMsg}.
 *
 * @example
 * ```ts
 * const params: SetStakingTiersParams = { stakingTiers: [{ feeTierName: "1", levels: [{ minStakedBaseTokens: 10n ** 21n, feeDiscountPpm: 50_000 }] }] };
 * ```
 */
export interface SetStakingTiersParams extends GovernanceParams {
  /** The staking tiers, one per fee tier. */
  stakingTiers: readonly StakingTierInput[];
}

/**
 * Builds a `MsgSetStakingTiers` (governance).
 *
 * @param params - the message's fields in chain units (`SetStakingTiersParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (levels whose stake does not rise) before anything is built.
 *
 * @example
 * ```ts
 * const msg = setStakingTiersMsg({ stakingTiers: [{ feeTierName: "1", levels: [{ minStakedBaseTokens: 10n ** 21n, feeDiscountPpm: 50_000 }] }] });
 * ```
 */
export function setStakingTiersMsg(
  params: SetStakingTiersParams,
): TxMessage<typeof feetiers.MsgSetStakingTiersSchema> {
  checkParams(params, "setStakingTiersMsg");
  const stakingTiers = list(params.stakingTiers, "stakingTiers").map((tier, i) => {
    const at = `stakingTiers[${i}]`;
    object(tier, at);
    let previous = -1n;
    const levels = list(tier.levels, `${at}.levels`).map((level, j) => {
      object(level, `${at}.levels[${j}]`);
      const min = BigInt(decimalAmount(level.minStakedBaseTokens, `${at}.levels[${j}].minStakedBaseTokens`));
      if (min <= previous) {
        throw new InvalidArgumentError(
          `${at}.levels[${j}].minStakedBaseTokens`,
          "must rise from level to level",
        );
      }
      previous = min;
      return {
        minStakedBaseTokens: serializableUint(min, `${at}.levels[${j}].minStakedBaseTokens`),
        feeDiscountPpm: ppm(level.feeDiscountPpm, `${at}.levels[${j}].feeDiscountPpm`),
      };
    });
    return { feeTierName: nonEmpty(tier.feeTierName, `${at}.feeTierName`), levels };
  });
  return govMsg(feetiers.MsgSetStakingTiersSchema, { authority: authorityOf(params), stakingTiers });
}
