/**
 * Governance message of trading rewards: the parameters x/rewards pays by (treasury, token,
 * pricing market and the share of fees paid back).
 */
import { rewards } from "@perpx/proto";
import { checkParams, nonEmpty, uint32 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, type GovernanceParams, int32, ppm } from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * Parameters of {@link updateRewardParamsMsg}: every field of x/rewards' params (the message
 * replaces them all).
 *
 * @example
 * ```ts
 * const params: UpdateRewardParamsParams = {
 *   treasuryAccount: "rewards_treasury", denom: "aperpx", denomExponent: -18, marketId: 1, feeMultiplierPpm: 990_000,
 * };
 * ```
 */
export interface UpdateRewardParamsParams extends GovernanceParams {
  /** The module account rewards are paid from, by name (`rewards_treasury`). */
  treasuryAccount: string;
  /** The reward token's denom. */
  denom: string;
  /** Units of `denom` per whole token as a power of ten (`aperpx`: -18). */
  denomExponent: number;
  /** The oracle market that prices a whole reward token. */
  marketId: number;
  /** The share of trading fees paid back in rewards, ppm (0 pays nothing; at most 1,000,000). */
  feeMultiplierPpm: number;
}

/**
 * Builds an x/rewards `MsgUpdateParams` (governance).
 *
 * @param params - the new parameters, and the authority.
 * @returns the message.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const params = { treasuryAccount: "rewards_treasury", denom: "aperpx", denomExponent: -18, marketId: 1 };
 * const msg = updateRewardParamsMsg({ ...params, feeMultiplierPpm: 990_000 });
 * msg.typeUrl; // "/perpx.rewards.v1.MsgUpdateParams"
 * msg.value.params?.feeMultiplierPpm; // 990000
 * updateRewardParamsMsg({ ...params, feeMultiplierPpm: 1_000_001 }); // throws InvalidArgumentError
 * ```
 */
export function updateRewardParamsMsg(
  params: UpdateRewardParamsParams,
): TxMessage<typeof rewards.MsgUpdateParamsSchema> {
  checkParams(params, "updateRewardParamsMsg");
  return govMsg(rewards.MsgUpdateParamsSchema, {
    authority: authorityOf(params),
    params: {
      treasuryAccount: nonEmpty(params.treasuryAccount, "treasuryAccount"),
      denom: nonEmpty(params.denom, "denom"),
      denomExponent: int32(params.denomExponent, "denomExponent"),
      marketId: uint32(params.marketId, "marketId"),
      feeMultiplierPpm: ppm(params.feeMultiplierPpm, "feeMultiplierPpm"),
    },
  });
}
