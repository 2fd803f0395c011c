/**
 * x/rewards: genesis parameters (the reference's, the multiplier overridable), the governance
 * message `MsgUpdateParams` with the real chain's checks and errors, the `Params` query, and the
 * end-of-block payment of the block's reward shares (`keeper.ts`).
 */
import { create } from "@bufbuild/protobuf";
import { rewards, toCosmosJson } from "@perpx/proto";
import { GOV_AUTHORITY } from "../../kernel/governance.js";
import { emptyResponse, type Module, msgHandler, queryHandler } from "../../kernel/module.js";
import { accAddressBytes } from "../../lib/addresses.js";
import { AbciError, abciError, type ErrorKind, isAbciError, registerError } from "../../lib/errors.js";
import { REWARDS, type RewardsKeeper, referenceRewardParams } from "./keeper.js";

/** Errors of codespace `rewards`, as the real chain registers them. */
const rewardsErrors = {
  invalidTreasuryAccount: registerError(REWARDS, 1001, "invalid treasury account"),
  invalidFeeMultiplierPpm: registerError(REWARDS, 1002, "invalid FeeMultiplierPpm"),
  invalidAuthority: registerError(REWARDS, 1003, "Authority is invalid"),
} as const;

/** x/gov's error for a governance message whose authority is not the gov module. */
const govInvalidSigner = registerError("gov", 5, "expected gov account as only signer for proposal message");
/** A plain Go error (no registered code), as the chain answers `sdk.ValidateDenom`'s. */
const PLAIN_ERROR: ErrorKind = { codespace: "undefined", code: 1, description: "internal" };
/** The SDK's denom rule (`sdk.ValidateDenom`). */
const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

/**
 * The parameters' checks (the real chain's `Params.Validate`): rewards 1001 without a treasury
 * account, 1002 for a multiplier above 1,000,000, a plain error for an invalid denom.
 */
function validateRewardParams(params: rewards.Params): rewards.Params {
  if (params.treasuryAccount === "") {
    throw abciError(rewardsErrors.invalidTreasuryAccount, "treasury account cannot have empty name");
  }
  if (params.feeMultiplierPpm > 1_000_000) {
    throw abciError(
      rewardsErrors.invalidFeeMultiplierPpm,
      "FeeMultiplierPpm cannot be greater than 1_000_000 (100%)",
    );
  }
  if (!DENOM.test(params.denom)) throw new AbciError(PLAIN_ERROR, `invalid denom: ${params.denom}`);
  return params;
}

/**
 * The genesis parameters: the reference's (multiplier 0), with `feeMultiplierPpm` when given.
 *
 * @param feeMultiplierPpm - the share of fees paid back, ppm (the devnet's `rewardsFeeMultiplierPpm`).
 * @returns the parameters.
 * @example
 * ```ts
 * rewardsGenesis(undefined).feeMultiplierPpm; // 0
 * rewardsGenesis(990_000).feeMultiplierPpm; // 990000
 * ```
 */
export function rewardsGenesis(feeMultiplierPpm: number | undefined): rewards.Params {
  const params = referenceRewardParams();
  return feeMultiplierPpm === undefined ? params : { ...params, feeMultiplierPpm };
}

/** The authority of `MsgUpdateParams` (`ValidateBasic`): a bech32 address. */
function checkAuthority(authority: string): void {
  try {
    accAddressBytes(authority, "authority");
  } catch (error) {
    if (!isAbciError(error)) throw error;
    const reason = error.log.replace(/^authority: /, "").replace(/: invalid address$/, "");
    throw abciError(
      rewardsErrors.invalidAuthority,
      `authority '${authority}' must be a valid bech32 address, but got error '${reason}'`,
    );
  }
}

/** The rewards module around its keeper, with its genesis parameters. */
export function createRewardsModule(keeper: RewardsKeeper, genesis: rewards.Params): Module {
  return {
    name: REWARDS,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.rewards.v1.MsgUpdateParams",
        schema: () => rewards.MsgUpdateParamsSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          checkAuthority(msg.authority);
          validateRewardParams(msg.params ?? create(rewards.ParamsSchema));
        },
        execute(ctx, msg) {
          if (msg.authority !== GOV_AUTHORITY) {
            throw abciError(govInvalidSigner, `invalid authority ${msg.authority}`);
          }
          keeper.setParams(ctx, validateRewardParams(msg.params ?? create(rewards.ParamsSchema)));
          return emptyResponse(rewards.MsgUpdateParamsResponseSchema);
        },
      }),
    ],
    initGenesis(ctx) {
      keeper.setParams(ctx, validateRewardParams(genesis));
    },
    exportGenesis(ctx) {
      return { params: toCosmosJson(rewards.ParamsSchema, keeper.params(ctx)) };
    },
    endBlock(ctx) {
      keeper.processRewardsForBlock(ctx);
    },
    queries: {
      "/perpx.rewards.v1.Query/Params": queryHandler(
        () => rewards.QueryParamsRequestSchema,
        () => rewards.QueryParamsResponseSchema,
        (ctx) => create(rewards.QueryParamsResponseSchema, { params: keeper.params(ctx) }),
      ),
    },
  };
}
