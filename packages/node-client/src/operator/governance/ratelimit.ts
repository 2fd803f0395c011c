/**
 * Governance messages of rate limits: the limiters of a denom's outflow, and the withdrawal
 * configuration (large-withdrawal timelock and fee, per-chain daily limit) of an asset.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { ratelimit } from "@perpx/proto";
import type { CoinInput } from "../../messages/transfers.js";
import { sortedCoins } from "../../messages/transfers.js";
import { checkParams, nonEmpty, uint32, uint64 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import {
  authorityOf,
  decimalAmount,
  durationOf,
  type GovernanceParams,
  list,
  object,
  ppm,
  serializableUint,
} from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * One limiter: over `periodSeconds`, outflow may not exceed the larger of `baselineMinimum` and
 * `baselineTvlPpm` of the denom's supply.
 *
 * @example
 * ```ts
 * const limiter: LimiterInput = { periodSeconds: 3_600, baselineMinimum: 1_000_000_000_000n, baselineTvlPpm: 10_000 };
 * ```
 */
export interface LimiterInput {
  /** The window, in whole seconds, > 0. */
  periodSeconds: number;
  /** The capacity floor, in base units. */
  baselineMinimum: IntegerInput;
  /** The capacity as a share of the supply, in ppm. */
  baselineTvlPpm: number;
}

/**
 * Parameters of {@link setLimitParamsMsg}.
 *
 * @example
 * ```ts
 * const params: SetLimitParamsParams = { denom: "uusdc", limiters: [{ periodSeconds: 3_600, baselineMinimum: 10n ** 12n, baselineTvlPpm: 10_000 }] };
 * ```
 */
export interface SetLimitParamsParams extends GovernanceParams {
  /** The denom limited. */
  denom: string;
  /** Its limiters; none removes the denom's limits. */
  limiters: readonly LimiterInput[];
}

/**
 * Builds a `MsgSetLimitParams` (governance).
 *
 * @param params - the message's fields in chain units (`SetLimitParamsParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setLimitParamsMsg({ denom: "uusdc", limiters: [{ periodSeconds: 3_600, baselineMinimum: 10n ** 12n, baselineTvlPpm: 10_000 }] });
 * ```
 */
export function setLimitParamsMsg(
  params: SetLimitParamsParams,
): TxMessage<typeof ratelimit.MsgSetLimitParamsSchema> {
  checkParams(params, "setLimitParamsMsg");
  const limiters = list(params.limiters, "limiters").map((limiter, i) => {
    const at = `limiters[${i}]`;
    object(limiter, at);
    const period = durationOf(limiter.periodSeconds, `${at}.periodSeconds`);
    if (period.seconds === 0n)
      throw new InvalidArgumentError(`${at}.periodSeconds`, "must be greater than zero");
    return {
      period,
      baselineMinimum: serializableUint(limiter.baselineMinimum, `${at}.baselineMinimum`),
      baselineTvlPpm: ppm(limiter.baselineTvlPpm, `${at}.baselineTvlPpm`),
    };
  });
  return govMsg(ratelimit.MsgSetLimitParamsSchema, {
    authority: authorityOf(params),
    limitParams: { denom: nonEmpty(params.denom, "denom"), limiters },
  });
}

/**
 * Parameters of {@link setAssetWithdrawalConfigMsg}.
 *
 * @example
 * ```ts
 * const params: SetAssetWithdrawalConfigParams = { assetId: 0, largeWithdrawalThreshold: 1_000_000_000_000n, timelockBlocks: 100n, withdrawalFee: [{ denom: "uusdc", amount: 1_000_000n }] };
 * ```
 */
export interface SetAssetWithdrawalConfigParams extends GovernanceParams {
  /** The asset (USDC is 0). */
  assetId: number;
  /** Withdrawals at least this large (base units, >= 0) wait `timelockBlocks`. */
  largeWithdrawalThreshold: IntegerInput;
  /** The wait of a large withdrawal, in blocks. */
  timelockBlocks: IntegerInput;
  /**
   * The fee of a withdrawal.
   * @default []
   */
  withdrawalFee?: readonly CoinInput[];
}

/**
 * Builds a `MsgSetAssetWithdrawalConfig` (governance).
 *
 * @param params - the message's fields in chain units (`SetAssetWithdrawalConfigParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setAssetWithdrawalConfigMsg({ assetId: 0, largeWithdrawalThreshold: 10n ** 12n, timelockBlocks: 100n });
 * ```
 */
export function setAssetWithdrawalConfigMsg(
  params: SetAssetWithdrawalConfigParams,
): TxMessage<typeof ratelimit.MsgSetAssetWithdrawalConfigSchema> {
  checkParams(params, "setAssetWithdrawalConfigMsg");
  return govMsg(ratelimit.MsgSetAssetWithdrawalConfigSchema, {
    authority: authorityOf(params),
    config: {
      assetId: uint32(params.assetId, "assetId"),
      largeWithdrawalThreshold: decimalAmount(params.largeWithdrawalThreshold, "largeWithdrawalThreshold"),
      timelockBlocks: uint64(params.timelockBlocks, "timelockBlocks"),
      withdrawalFee: sortedCoins(list(params.withdrawalFee ?? [], "withdrawalFee"), "withdrawalFee"),
    },
  });
}

/**
 * Parameters of {@link setAssetChainDailyLimitMsg}.
 *
 * @example
 * ```ts
 * const params: SetAssetChainDailyLimitParams = { chainId: 11155111n, assetId: 0, dailyLimit: 10n ** 13n };
 * ```
 */
export interface SetAssetChainDailyLimitParams extends GovernanceParams {
  /** The destination chain id (an Ethereum chain id for bridge withdrawals). */
  chainId: IntegerInput;
  /** The asset (USDC is 0). */
  assetId: number;
  /** The most withdrawn to that chain per day, in base units (0: none allowed). */
  dailyLimit: IntegerInput;
}

/**
 * Builds a `MsgSetAssetChainDailyLimit` (governance).
 *
 * @param params - the message's fields in chain units (`SetAssetChainDailyLimitParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setAssetChainDailyLimitMsg({ chainId: 11155111n, assetId: 0, dailyLimit: 10n ** 13n });
 * ```
 */
export function setAssetChainDailyLimitMsg(
  params: SetAssetChainDailyLimitParams,
): TxMessage<typeof ratelimit.MsgSetAssetChainDailyLimitSchema> {
  checkParams(params, "setAssetChainDailyLimitMsg");
  return govMsg(ratelimit.MsgSetAssetChainDailyLimitSchema, {
    authority: authorityOf(params),
    config: {
      chainId: uint64(params.chainId, "chainId"),
      assetId: uint32(params.assetId, "assetId"),
      dailyLimit: decimalAmount(params.dailyLimit, "dailyLimit"),
    },
  });
}
