/**
 * x/feetiers: the perpetual fee tiers (the real chain's 9 default tiers, with absolute volume,
 * total-volume share and maker-volume share requirements), each user's tier from the 30-day volumes
 * the clob records on every fill (`feetiers-volume.ts`, the real chain's x/stats: counted from the
 * next block, expired hourly 30 days later), the affiliates' referee floor, per-market fee
 * discounts, and the staking queries (no staking tiers on the devnet).
 *
 * Store slice `feetiers/`:
 * - `params`: `perpx.feetiers.v1.PerpetualFeeParams`
 * - `discount/<clob pair id:10>`: `PerMarketFeeDiscountParams`
 * and the stats of `feetiers-volume.ts` (slice `stats/`).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { encodeSerializableInt, feetiers } from "@perpx/proto";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  type Context,
  emptyResponse,
  genesisJson,
  invalidArgument,
  type Module,
  msgHandler,
  notFound,
  queryHandler,
} from "../../kernel/module.js";
import { accAddressBytes, addressKey } from "../../lib/addresses.js";
import { abciError, registerError } from "../../lib/errors.js";
import { fromBinaryCached, wireDecodeCached } from "../../lib/proto-cache.js";
import { ReadMemo } from "../../lib/read-memo.js";
import { wireCreate, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { EPOCH_NAMES, type EpochsKeeper } from "../epochs/epochs.js";
import { idKey } from "../memo-keys.js";
import { ownerAddressKey } from "../owner-keys.js";
import { idStoreKey } from "../records.js";
import {
  expireOldStats,
  globalNotional,
  processBlockStats,
  recordBlockFill,
  userNotionalAt,
} from "./feetiers-volume.js";

/** The module's name and store prefix. */
export const FEETIERS = "feetiers";

/** Errors of codespace `feetiers`: the real chain's codes and texts. */
export const feeTiersErrors = {
  noTiers: registerError(FEETIERS, 400, "Must have at least one fee tier"),
  invalidFirstTier: registerError(FEETIERS, 401, "First fee tier must not have volume requirements"),
  tiersOutOfOrder: registerError(FEETIERS, 402, "Fee tiers must have ascending requirements"),
  invalidFee: registerError(
    FEETIERS,
    403,
    "No maker and taker fee combination should result in a net rebate",
  ),
  invalidAuthority: registerError(FEETIERS, 404, "Authority is invalid"),
  invalidTimeRange: registerError(FEETIERS, 406, "Invalid time range for market fee discount"),
  discountNotFound: registerError(FEETIERS, 407, "Market fee discount not found for the specified CLOB pair"),
  invalidChargePpm: registerError(FEETIERS, 408, "Invalid charge PPM value"),
} as const;

/** The full fee share of a market without a discount (ppm). */
export const MAX_CHARGE_PPM = 1_000_000;
/** The longest a per-market fee discount may last, in seconds (90 days). */
export const MAX_FEE_DISCOUNT_SECONDS = 90n * 86_400n;

/**
 * The real chain's checks of fee params: at least one tier (400), a first tier without any
 * requirement (401), every requirement non-decreasing (402), and no net rebate between the lowest
 * maker and the lowest taker fee (403).
 */
export function validateFeeParams(
  params: feetiers.PerpetualFeeParams | undefined,
): feetiers.PerpetualFeeParams {
  const tiers = params?.tiers ?? [];
  if (params === undefined || tiers.length === 0) throw abciError(feeTiersErrors.noTiers);
  const first = tiers[0] as feetiers.PerpetualFeeTier;
  if (
    first.absoluteVolumeRequirement !== 0n ||
    first.totalVolumeShareRequirementPpm !== 0 ||
    first.makerVolumeShareRequirementPpm !== 0
  ) {
    throw abciError(feeTiersErrors.invalidFirstTier);
  }
  for (let i = 1; i < tiers.length; i++) {
    const previous = tiers[i - 1] as feetiers.PerpetualFeeTier;
    const current = tiers[i] as feetiers.PerpetualFeeTier;
    if (
      previous.absoluteVolumeRequirement > current.absoluteVolumeRequirement ||
      previous.totalVolumeShareRequirementPpm > current.totalVolumeShareRequirementPpm ||
      previous.makerVolumeShareRequirementPpm > current.makerVolumeShareRequirementPpm
    ) {
      throw abciError(feeTiersErrors.tiersOutOfOrder);
    }
  }
  const lowestMaker = Math.min(...tiers.map((t) => t.makerFeePpm));
  const lowestTaker = Math.min(...tiers.map((t) => t.takerFeePpm));
  if (lowestMaker + lowestTaker < 0) throw abciError(feeTiersErrors.invalidFee);
  return params;
}

/** The real chain's checks of a per-market fee discount at block time `nowMs`. */
export function validateMarketDiscount(params: feetiers.PerMarketFeeDiscountParams, nowMs: bigint): void {
  const start = timestampMs(params.startTime);
  const end = timestampMs(params.endTime);
  if (!(start < end)) throw abciError(feeTiersErrors.invalidTimeRange);
  if ((end - start) / 1000n > MAX_FEE_DISCOUNT_SECONDS) throw abciError(feeTiersErrors.invalidTimeRange);
  if (params.chargePpm > MAX_CHARGE_PPM) throw abciError(feeTiersErrors.invalidChargePpm);
  if (!(end > nowMs)) throw abciError(feeTiersErrors.invalidTimeRange);
}

function timestampMs(t: Timestamp | undefined): bigint {
  return t === undefined ? 0n : t.seconds * 1000n + BigInt(t.nanos) / 1_000_000n;
}

/**
 * Who may claim a referee's fee tier floor (the affiliates module's referrals and parameters), by
 * the store-key spelling of the referee's address (`addressKey`).
 */
export type RefereeFloor = (ctx: StoreAccess, addressKey: string, memo?: ReadMemo) => number | undefined;

/**
 * The fee tiers keeper: tiers, per-market discounts, and the 30-day volumes they are chosen by
 * (`feetiers-volume.ts`: each user's total and maker notional, and the whole chain's).
 */
export class FeeTiersKeeper {
  private refereeFloor: RefereeFloor = () => undefined;

  /** Installs the lookup of a referee's minimum tier (the affiliates module's); wiring only. */
  setRefereeFloor(lookup: RefereeFloor): void {
    this.refereeFloor = lookup;
  }

  /** The fee params (tiers in order of increasing requirements). */
  params(ctx: StoreAccess): feetiers.PerpetualFeeParams {
    const bytes = ctx.store(FEETIERS).get("params");
    return bytes === undefined
      ? wireCreate(wire.perpx_feetiers_v1_PerpetualFeeParams)
      : wireDecodeCached(wire.perpx_feetiers_v1_PerpetualFeeParams, bytes);
  }

  /** Stores the fee params. */
  setParams(ctx: StoreAccess, params: feetiers.PerpetualFeeParams): void {
    ctx.store(FEETIERS).set("params", wireEncode(wire.perpx_feetiers_v1_PerpetualFeeParams, params));
  }

  /** The fee discount of a clob pair, or undefined. */
  marketDiscount(ctx: StoreAccess, clobPairId: number): feetiers.PerMarketFeeDiscountParams | undefined {
    const bytes = ctx.store(FEETIERS).get(discountKey(clobPairId));
    return bytes === undefined
      ? undefined
      : fromBinaryCached(feetiers.PerMarketFeeDiscountParamsSchema, bytes);
  }

  /** Every per-market fee discount, by clob pair id. */
  allMarketDiscounts(ctx: StoreAccess): feetiers.PerMarketFeeDiscountParams[] {
    return [...ctx.store(FEETIERS).entries("discount/")].map(([, bytes]) =>
      fromBinary(feetiers.PerMarketFeeDiscountParamsSchema, bytes),
    );
  }

  /**
   * The share of the fee a clob pair charges at `nowMs` (ppm): its discount's while it runs.
   *
   * @param memo - reads shared with other lookups while the discount is not written (see {@link feePpm}).
   */
  chargePpm(ctx: StoreAccess, clobPairId: number, nowMs: bigint, memo = new ReadMemo(ctx)): number {
    const discount = memo.read(idKey("feetiers/discount", clobPairId), () =>
      this.marketDiscount(ctx, clobPairId),
    );
    if (discount === undefined) return MAX_CHARGE_PPM;
    const running = nowMs >= timestampMs(discount.startTime) && nowMs < timestampMs(discount.endTime);
    return running ? discount.chargePpm : MAX_CHARGE_PPM;
  }

  /**
   * Records a fill worth `quoteQuantums` in the block's stats: the taker's taker notional and the
   * maker's maker notional (and, once per fill, the chain's), counted from the next block on.
   */
  recordFill(ctx: Context, taker: string, maker: string, quoteQuantums: bigint): void {
    if (quoteQuantums <= 0n) return;
    recordBlockFill(ctx, ownerAddressKey(taker), ownerAddressKey(maker), quoteQuantums);
  }

  /**
   * The end of a block (the real chain's x/stats end blocker): the block's fills join the 30-day
   * volumes and the current stats epoch, then the trailing stats epoch expires if its 30 days ran.
   */
  endBlock(ctx: Context, epochs: EpochsKeeper): void {
    const statsEpoch = epochs.get(ctx, EPOCH_NAMES.stats);
    processBlockStats(ctx, statsEpoch);
    expireOldStats(ctx, statsEpoch.currentEpoch, ctx.block.timeMs);
  }

  /**
   * A user's tier index and tier as the real chain picks it: tiers are walked in order and the
   * walk stops at the first whose absolute volume, total-volume share or maker-volume share (of the
   * chain's 30-day notional, in ppm, rounded down) the user does not meet; then a referred user is
   * lifted to the affiliates' referee floor (capped to the last tier).
   *
   * @param memo - reads shared with other lookups (see {@link feePpm}).
   */
  userTier(
    ctx: StoreAccess,
    address: Uint8Array,
    memo = new ReadMemo(ctx),
  ): { index: number; tier: feetiers.PerpetualFeeTier } {
    return this.tierAt(ctx, addressKey(address), memo);
  }

  /** {@link userTier} of the address spelled `key` in store keys (`addressKey`). */
  private tierAt(
    ctx: StoreAccess,
    key: string,
    memo: ReadMemo,
  ): { index: number; tier: feetiers.PerpetualFeeTier } {
    const tiers = memo.read("feetiers/params", () => this.params(ctx)).tiers;
    const { takerNotional, makerNotional: maker } = userNotionalAt(ctx, key);
    const total = takerNotional + maker;
    const global = memo.read("stats/global", () => globalNotional(ctx));
    let index = 0;
    for (let i = 0; i < tiers.length; i++) {
      const tier = tiers[i] as feetiers.PerpetualFeeTier;
      if (
        total < tier.absoluteVolumeRequirement ||
        total < (global * BigInt(tier.totalVolumeShareRequirementPpm)) / 1_000_000n ||
        maker < (global * BigInt(tier.makerVolumeShareRequirementPpm)) / 1_000_000n
      ) {
        break;
      }
      index = i;
    }
    const floor = this.refereeFloor(ctx, key, memo);
    if (floor !== undefined && tiers.length > 0) {
      const capped = Math.min(floor, tiers.length - 1);
      if (index < capped) index = capped;
    }
    return { index, tier: tiers[index] ?? wireCreate(wire.perpx_feetiers_v1_PerpetualFeeTier) };
  }

  /**
   * The fee rate of a user on a clob pair in ppm of the notional (negative: a maker rebate): the
   * tier's fee times the pair's charge share (rounded toward zero, as Go's integer division).
   *
   * @param memo - reads shared by the fees of one fill (its two sides): the fee params, the chain's
   * 30-day notional and the pair's discount are read once (repeats charge the same gas); nothing
   * may write those in between. A fresh one by default.
   * @returns the fee rate in ppm.
   * @example
   * ```ts
   * const time = new Date("2026-01-01T00:00:00Z");
   * const ctx = createContext({
   *   mode: "deliver",
   *   block: { chainId: "perpx-local-1", height: 2n, time, timeMs: BigInt(time.getTime()) },
   *   gasMeter: createGasMeter(undefined),
   *   gasConfig: defaultGasConfig,
   *   events: new EventManager(),
   *   kv: new RootStore(),
   * });
   * const epochs = new EpochsKeeper();
   * for (const info of defaultEpochs()) epochs.create(ctx, info);
   * const feeTiers = new FeeTiersKeeper();
   * feeTiers.setParams(ctx, feeTiersGenesis().params);
   * const owner = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";
   * const other = "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe";
   * feeTiers.feePpm(ctx, owner, true, 0); // 500: a new user's taker fee (tier 1)
   * feeTiers.feePpm(ctx, owner, false, 0); // -110: a maker rebate
   * feeTiers.recordFill(ctx, owner, other, 1_000_000n * 1_000_000n); // 1M USDC traded in this block
   * feeTiers.feePpm(ctx, owner, true, 0); // 500: the block's fills count from the next block
   * feeTiers.endBlock(ctx, epochs);
   * feeTiers.feePpm(ctx, owner, true, 0); // 450: tier 2
   * ```
   */
  feePpm(
    ctx: Context,
    user: string | Uint8Array,
    isTaker: boolean,
    clobPairId: number,
    memo = new ReadMemo(ctx),
  ): number {
    const key = typeof user === "string" ? ownerAddressKey(user) : addressKey(user);
    const { tier } = this.tierAt(ctx, key, memo);
    const base = BigInt(isTaker ? tier.takerFeePpm : tier.makerFeePpm);
    const charge = BigInt(this.chargePpm(ctx, clobPairId, ctx.block.timeMs, memo));
    return Number((base * charge) / BigInt(MAX_CHARGE_PPM));
  }
}

function discountKey(clobPairId: number): string {
  return idStoreKey("discount", clobPairId);
}

/**
 * The feetiers module: genesis, the queries, the governance message `MsgUpdatePerpetualFeeParams`,
 * and at the end of each block the 30-day volumes' update on the `stats-epoch` timer of `epochs`.
 */
export function createFeeTiersModule(
  keeper: FeeTiersKeeper,
  genesis: { params: feetiers.PerpetualFeeParams },
  epochs: EpochsKeeper,
): Module {
  return {
    name: FEETIERS,
    endBlock(ctx) {
      keeper.endBlock(ctx, epochs);
    },
    msgs: [
      msgHandler({
        typeUrl: "/perpx.feetiers.v1.MsgUpdatePerpetualFeeParams",
        schema: () => feetiers.MsgUpdatePerpetualFeeParamsSchema,
        signers: (msg) => [msg.authority],
        validate: (msg) => void validateFeeParams(msg.params),
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, feeTiersErrors.invalidAuthority);
          keeper.setParams(ctx, validateFeeParams(msg.params));
          return emptyResponse(feetiers.MsgUpdatePerpetualFeeParamsResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.feetiers.v1.MsgSetMarketFeeDiscountParams",
        schema: () => feetiers.MsgSetMarketFeeDiscountParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, feeTiersErrors.invalidAuthority);
          for (const params of msg.params) {
            validateMarketDiscount(params, ctx.block.timeMs);
            ctx
              .store(FEETIERS)
              .set(
                discountKey(params.clobPairId),
                toBinary(feetiers.PerMarketFeeDiscountParamsSchema, params),
              );
          }
          return emptyResponse(feetiers.MsgSetMarketFeeDiscountParamsResponseSchema);
        },
      }),
    ],
    initGenesis(ctx) {
      keeper.setParams(ctx, genesis.params);
    },
    exportGenesis(ctx) {
      return {
        params: genesisJson(feetiers.PerpetualFeeParamsSchema, keeper.params(ctx)),
      };
    },
    queries: {
      "/perpx.feetiers.v1.Query/PerpetualFeeParams": queryHandler(
        () => feetiers.QueryPerpetualFeeParamsRequestSchema,
        () => feetiers.QueryPerpetualFeeParamsResponseSchema,
        (ctx) => create(feetiers.QueryPerpetualFeeParamsResponseSchema, { params: keeper.params(ctx) }),
      ),
      "/perpx.feetiers.v1.Query/UserFeeTier": queryHandler(
        () => feetiers.QueryUserFeeTierRequestSchema,
        () => feetiers.QueryUserFeeTierResponseSchema,
        (ctx, req) => {
          let address: Uint8Array;
          try {
            address = accAddressBytes(req.user);
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          const { index, tier } = keeper.userTier(ctx, address);
          return create(feetiers.QueryUserFeeTierResponseSchema, { index, tier });
        },
      ),
      "/perpx.feetiers.v1.Query/PerMarketFeeDiscountParams": queryHandler(
        () => feetiers.QueryPerMarketFeeDiscountParamsRequestSchema,
        () => feetiers.QueryPerMarketFeeDiscountParamsResponseSchema,
        (ctx, req) => {
          const params = keeper.marketDiscount(ctx, req.clobPairId);
          if (params === undefined)
            throw notFound("fee discount not found for the specified market/CLOB pair");
          return create(feetiers.QueryPerMarketFeeDiscountParamsResponseSchema, { params });
        },
      ),
      "/perpx.feetiers.v1.Query/AllMarketFeeDiscountParams": queryHandler(
        () => feetiers.QueryAllMarketFeeDiscountParamsRequestSchema,
        () => feetiers.QueryAllMarketFeeDiscountParamsResponseSchema,
        (ctx) =>
          create(feetiers.QueryAllMarketFeeDiscountParamsResponseSchema, {
            params: keeper.allMarketDiscounts(ctx),
          }),
      ),
      "/perpx.feetiers.v1.Query/StakingTiers": queryHandler(
        () => feetiers.QueryStakingTiersRequestSchema,
        () => feetiers.QueryStakingTiersResponseSchema,
        () => create(feetiers.QueryStakingTiersResponseSchema, { stakingTiers: [] }),
      ),
      "/perpx.feetiers.v1.Query/UserStakingTier": queryHandler(
        () => feetiers.QueryUserStakingTierRequestSchema,
        () => feetiers.QueryUserStakingTierResponseSchema,
        (ctx, req) => {
          let address: Uint8Array;
          try {
            address = accAddressBytes(req.address);
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          return create(feetiers.QueryUserStakingTierResponseSchema, {
            feeTierName: keeper.userTier(ctx, address).tier.name,
            stakedBaseTokens: encodeSerializableInt(0n),
            discountPpm: 0,
          });
        },
      ),
    },
  };
}
