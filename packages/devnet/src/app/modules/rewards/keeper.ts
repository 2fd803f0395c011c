/**
 * x/rewards' keeper: the parameters, the reward shares of the block being delivered (recorded at
 * every fill, as the real chain's `AddRewardSharesForFill`), and their payment at the end of the
 * block (`ProcessRewardsForBlock`); the arithmetic is in `formula.ts`.
 *
 * Store slice `rewards/`:
 * - `params`: `perpx.rewards.v1.Params`;
 * - `shares/<bech32>`: `perpx.rewards.v1.RewardShare` of the block being delivered, all removed by
 *   its end (the real chain keeps them in a transient store: never in a committed state).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { NATIVE_DECIMALS, NATIVE_DENOM } from "@perpx/core";
import { decodeSerializableInt, encodeSerializableInt, rewards } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { accAddressBytes, moduleAddress } from "../../lib/addresses.js";
import { isAbciError } from "../../lib/errors.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import { wireCreate, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import type { FeeTiersKeeper } from "../feetiers/feetiers.js";
import { userNotional } from "../feetiers/feetiers-volume.js";
import type { PricesKeeper } from "../prices/prices.js";
import { type RewardFillRevShares, rewardTokens, rewardWeights, splitRewards } from "./formula.js";

/** The module's name and store prefix. */
export const REWARDS = "rewards";
/** The module account rewards are paid from, whose balance caps them (`TreasuryAccountName`). */
export const REWARDS_TREASURY = "rewards_treasury";

/**
 * The reference genesis's parameters (`sample_pregenesis.json`: the native token priced by market
 * 1, multiplier 0, so nothing is paid), with the devnet's native denom.
 *
 * @returns the parameters.
 * @example
 * ```ts
 * referenceRewardParams().denom; // "aperpx"
 * referenceRewardParams().feeMultiplierPpm; // 0
 * ```
 */
export function referenceRewardParams(): rewards.Params {
  return wireCreate(wire.perpx_rewards_v1_Params, {
    treasuryAccount: REWARDS_TREASURY,
    denom: NATIVE_DENOM,
    denomExponent: -NATIVE_DECIMALS,
    marketId: 1,
    feeMultiplierPpm: 0,
  });
}

/** One fill as the reward shares see it: its two traders, their fees, its notional, its rev shares. */
export interface RewardFill {
  readonly taker: string;
  readonly maker: string;
  /** Quote quantums, signed (a maker rebate is negative). */
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  readonly fillQuote: bigint;
  readonly revShares: RewardFillRevShares;
}

/** The keepers x/rewards reads and pays through. */
export interface RewardsDeps {
  readonly bank: BankKeeper;
  readonly prices: PricesKeeper;
  readonly feeTiers: FeeTiersKeeper;
}

/** The rewards keeper (see the module comment). */
export class RewardsKeeper {
  constructor(private readonly deps: RewardsDeps) {}

  /** The parameters (the reference's until genesis writes them). */
  params(ctx: StoreAccess): rewards.Params {
    const bytes = ctx.store(REWARDS).get("params");
    return bytes === undefined
      ? referenceRewardParams()
      : wireDecodeCached(wire.perpx_rewards_v1_Params, bytes);
  }

  /** Stores the parameters (validated by the caller). */
  setParams(ctx: StoreAccess, params: rewards.Params): void {
    ctx.store(REWARDS).set("params", wireEncode(wire.perpx_rewards_v1_Params, params));
  }

  /**
   * Adds a fill's reward weights to its traders' shares of the block (delivery only: CheckTx's
   * matches are settled again when the block delivers them). With a zero multiplier the shares
   * could pay nothing, so none are kept.
   */
  addRewardSharesForFill(ctx: Context, fill: RewardFill): void {
    if (ctx.mode !== "deliver" || this.params(ctx).feeMultiplierPpm === 0) return;
    const lowestMakerFee = Math.min(...this.deps.feeTiers.params(ctx).tiers.map((t) => t.makerFeePpm));
    const takerAddress = accAddressBytes(fill.taker);
    // x/stats' taker notional of the 30-day window (fills of earlier blocks).
    const takerVolume30d = userNotional(ctx, takerAddress).takerNotional;
    const weights = rewardWeights({ ...fill, takerVolume30d }, fill.revShares, lowestMakerFee);
    this.addShare(ctx, fill.taker, weights.taker);
    this.addShare(ctx, fill.maker, weights.maker);
  }

  private addShare(ctx: Context, address: string, weight: bigint): void {
    if (weight <= 0n) return;
    const store = ctx.store(REWARDS);
    const key = `shares/${address}`;
    const bytes = store.get(key);
    const before =
      bytes === undefined ? 0n : decodeSerializableInt(fromBinary(rewards.RewardShareSchema, bytes).weight);
    const share = create(rewards.RewardShareSchema, {
      address,
      weight: encodeSerializableInt(before + weight),
    });
    store.set(key, toBinary(rewards.RewardShareSchema, share));
  }

  /**
   * End of block: takes the block's shares out of the store and pays them `min(F, T)` reward tokens
   * pro rata (`F` the weights' worth at the params' market price, `T` the treasury's balance), from
   * the params' treasury account; a payment the bank refuses is skipped, as the chain logs and
   * skips it. Emits the indexer's `trading_reward` event whenever something was to be paid.
   */
  processRewardsForBlock(ctx: Context): void {
    const store = ctx.store(REWARDS);
    const shares = [...store.entries("shares/")].map(([key, bytes]) => {
      store.delete(key);
      const share = fromBinary(rewards.RewardShareSchema, bytes);
      return { address: share.address, weight: decodeSerializableInt(share.weight) };
    });
    if (shares.length === 0) return;
    const params = this.params(ctx);
    const price = this.deps.prices.marketPrice(ctx, params.marketId);
    if (price === undefined) return;
    const totalWeight = shares.reduce((sum, s) => sum + s.weight, 0n);
    const worth = rewardTokens(totalWeight, {
      feeMultiplierPpm: params.feeMultiplierPpm,
      denomExponent: params.denomExponent,
      price: price.price,
      priceExponent: price.exponent,
    });
    const treasury = this.deps.bank.balance(ctx, moduleAddress(REWARDS_TREASURY), params.denom);
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
    const tokens = worth < treasury ? worth : treasury;
    if (tokens === 0n) return;
    const paid: Array<{ owner: string; amount: bigint }> = [];
    for (const { address, amount } of splitRewards(tokens, shares)) {
      try {
        this.deps.bank.sendCoinsFromModuleToAccount(ctx, params.treasuryAccount, accAddressBytes(address), [
          { denom: params.denom, amount },
        ]);
        paid.push({ owner: address, amount });
      } catch (error) {
        if (!isAbciError(error)) throw error;
      }
    }
    ctx.events.indexer({ kind: "trading_reward", rewards: paid });
  }
}
