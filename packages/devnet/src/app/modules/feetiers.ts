/**
 * x/feetiers: the perpetual fee tiers, each user's tier from the trading volume of the last 30 days
 * (recorded by the clob on every fill), and the fee-discount and staking queries (empty on the devnet).
 *
 * Store slice `feetiers/`:
 * - `params`: `perpx.feetiers.v1.PerpetualFeeParams`
 * - `vol/<hex20>`: 248 bytes: the day number (u64) of the last recorded fill, then 30 u64 daily
 *   volumes in quote quantums (a ring indexed by day mod 30), fixed width so gas never depends on it
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { encodeSerializableInt, feetiers } from "@perpx/proto";
import { accAddressBytes, addressKey } from "../addresses.js";
import { encodeU64 } from "../codec.js";
import { abciError, registerError } from "../errors.js";
import { requireGovAuthority } from "../governance.js";
import {
  type Context,
  emptyResponse,
  genesisJson,
  invalidArgument,
  type Module,
  msgHandler,
  queryHandler,
} from "../module.js";
import { fromBinaryCached } from "../proto-cache.js";
import type { StoreAccess } from "./auth.js";

/** The module's name and store prefix. */
export const FEETIERS = "feetiers";

/** Errors of codespace `feetiers`. */
export const feeTiersErrors = {
  invalidFeeParams: registerError(FEETIERS, 400, "invalid fee tier params"),
  invalidAuthority: registerError(FEETIERS, 401, "invalid authority"),
} as const;

/** Stateless checks of fee params: at least one tier, the first with no requirement, requirements rising. */
export function validateFeeParams(
  params: feetiers.PerpetualFeeParams | undefined,
): feetiers.PerpetualFeeParams {
  const tiers = params?.tiers ?? [];
  if (params === undefined || tiers.length === 0)
    throw abciError(feeTiersErrors.invalidFeeParams, "no tiers");
  if ((tiers[0] as feetiers.PerpetualFeeTier).absoluteVolumeRequirement !== 0n) {
    throw abciError(feeTiersErrors.invalidFeeParams, "the first tier must have no volume requirement");
  }
  for (let i = 1; i < tiers.length; i++) {
    if (
      (tiers[i] as feetiers.PerpetualFeeTier).absoluteVolumeRequirement <
      (tiers[i - 1] as feetiers.PerpetualFeeTier).absoluteVolumeRequirement
    ) {
      throw abciError(feeTiersErrors.invalidFeeParams, "volume requirements must not decrease");
    }
  }
  for (const tier of tiers) {
    if (tier.makerFeePpm + tier.takerFeePpm < 0) {
      throw abciError(
        feeTiersErrors.invalidFeeParams,
        `tier ${tier.name}: the maker rebate exceeds the taker fee`,
      );
    }
  }
  return params;
}

/** Days of volume a user's tier looks at. */
export const VOLUME_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000n;
const VOLUME_BYTES = 8 + VOLUME_WINDOW_DAYS * 8;
const U64 = (1n << 64n) - 1n;

/** The fee tiers keeper: tiers, fees in ppm, and each user's 30-day volume. */
export class FeeTiersKeeper {
  /** The fee params (tiers in order of increasing requirements). */
  params(ctx: StoreAccess): feetiers.PerpetualFeeParams {
    const bytes = ctx.store(FEETIERS).get("params");
    return bytes === undefined
      ? create(feetiers.PerpetualFeeParamsSchema)
      : fromBinaryCached(feetiers.PerpetualFeeParamsSchema, bytes);
  }

  /** Stores the fee params. */
  setParams(ctx: StoreAccess, params: feetiers.PerpetualFeeParams): void {
    ctx.store(FEETIERS).set("params", toBinary(feetiers.PerpetualFeeParamsSchema, params));
  }

  /** A user's volume (quote quantums) over the last {@link VOLUME_WINDOW_DAYS} days at `nowMs`. */
  volume30d(ctx: StoreAccess, address: Uint8Array, nowMs: bigint): bigint {
    const ring = this.readRing(ctx, address, nowMs / DAY_MS);
    return ring.reduce((sum, v) => sum + v, 0n);
  }

  /** The ring of daily volumes, with days older than the window zeroed, as of `today`. */
  private readRing(ctx: StoreAccess, address: Uint8Array, today: bigint): bigint[] {
    const bytes = ctx.store(FEETIERS).get(`vol/${addressKey(address)}`);
    const ring = new Array<bigint>(VOLUME_WINDOW_DAYS).fill(0n);
    if (bytes === undefined) return ring;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const last = view.getBigUint64(0);
    for (let i = 0; i < VOLUME_WINDOW_DAYS; i++) ring[i] = view.getBigUint64(8 + i * 8);
    // Zero the slots of days after `last` up to `today` (they hold volumes of 30+ days ago).
    const gap = today - last;
    if (gap >= BigInt(VOLUME_WINDOW_DAYS)) return ring.fill(0n);
    for (let d = last + 1n; d <= today; d++) ring[Number(d % BigInt(VOLUME_WINDOW_DAYS))] = 0n;
    return ring;
  }

  /** Adds `quoteQuantums` of traded notional to a user's (bech32 or bytes) volume of the block's day. */
  recordVolume(ctx: Context, user: string | Uint8Array, quoteQuantums: bigint): void {
    if (quoteQuantums <= 0n) return;
    const address = typeof user === "string" ? accAddressBytes(user) : user;
    const today = ctx.block.timeMs / DAY_MS;
    const ring = this.readRing(ctx, address, today);
    const slot = Number(today % BigInt(VOLUME_WINDOW_DAYS));
    const sum = (ring[slot] ?? 0n) + quoteQuantums;
    ring[slot] = sum > U64 ? U64 : sum;
    // The day, then the ring, each 8 bytes big-endian (ring values are within u64: read as u64s, capped sums).
    const out = new Uint8Array(VOLUME_BYTES);
    out.set(encodeU64(today), 0);
    const view = new DataView(out.buffer);
    for (const [i, v] of ring.entries()) view.setBigUint64(8 + i * 8, v);
    ctx.store(FEETIERS).set(`vol/${addressKey(address)}`, out);
  }

  /** A user's tier index and tier (the highest whose absolute volume requirement is met). */
  userTier(
    ctx: StoreAccess,
    address: Uint8Array,
    nowMs: bigint,
  ): { index: number; tier: feetiers.PerpetualFeeTier } {
    const tiers = this.params(ctx).tiers;
    const volume = this.volume30d(ctx, address, nowMs);
    let index = 0;
    tiers.forEach((tier, i) => {
      if (volume >= tier.absoluteVolumeRequirement) index = i;
    });
    return { index, tier: tiers[index] ?? create(feetiers.PerpetualFeeTierSchema) };
  }

  /**
   * The fee rate of a user in ppm of the notional (negative: a maker rebate).
   *
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
   * const feeTiers = new FeeTiersKeeper();
   * feeTiers.setParams(ctx, feeTiersGenesis().params);
   * const owner = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";
   * feeTiers.feePpm(ctx, owner, true); // 500: a new user's taker fee (tier 1)
   * feeTiers.feePpm(ctx, owner, false); // -110: a maker rebate
   * feeTiers.recordVolume(ctx, owner, 1_000_000n * 1_000_000n); // 1M USDC traded today
   * feeTiers.feePpm(ctx, owner, true); // 450: tier 2
   * ```
   */
  feePpm(ctx: Context, user: string | Uint8Array, isTaker: boolean): number {
    const address = typeof user === "string" ? accAddressBytes(user) : user;
    const { tier } = this.userTier(ctx, address, ctx.block.timeMs);
    return isTaker ? tier.takerFeePpm : tier.makerFeePpm;
  }
}

/** The feetiers module: genesis, the queries, and the governance message `MsgUpdatePerpetualFeeParams`. */
export function createFeeTiersModule(
  keeper: FeeTiersKeeper,
  genesis: { params: feetiers.PerpetualFeeParams },
): Module {
  return {
    name: FEETIERS,
    msgs: [
      msgHandler({
        schema: feetiers.MsgUpdatePerpetualFeeParamsSchema,
        signers: (msg) => [msg.authority],
        validate: (msg) => void validateFeeParams(msg.params),
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, feeTiersErrors.invalidAuthority);
          keeper.setParams(ctx, validateFeeParams(msg.params));
          return emptyResponse(feetiers.MsgUpdatePerpetualFeeParamsResponseSchema);
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
        feetiers.QueryPerpetualFeeParamsRequestSchema,
        feetiers.QueryPerpetualFeeParamsResponseSchema,
        (ctx) => create(feetiers.QueryPerpetualFeeParamsResponseSchema, { params: keeper.params(ctx) }),
      ),
      "/perpx.feetiers.v1.Query/UserFeeTier": queryHandler(
        feetiers.QueryUserFeeTierRequestSchema,
        feetiers.QueryUserFeeTierResponseSchema,
        (ctx, req) => {
          let address: Uint8Array;
          try {
            address = accAddressBytes(req.user);
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          const { index, tier } = keeper.userTier(ctx, address, ctx.block.timeMs);
          return create(feetiers.QueryUserFeeTierResponseSchema, { index, tier });
        },
      ),
      "/perpx.feetiers.v1.Query/PerMarketFeeDiscountParams": queryHandler(
        feetiers.QueryPerMarketFeeDiscountParamsRequestSchema,
        feetiers.QueryPerMarketFeeDiscountParamsResponseSchema,
        (_ctx, req) =>
          create(feetiers.QueryPerMarketFeeDiscountParamsResponseSchema, {
            params: create(feetiers.PerMarketFeeDiscountParamsSchema, {
              clobPairId: req.clobPairId,
              chargePpm: 1_000_000,
            }),
          }),
      ),
      "/perpx.feetiers.v1.Query/AllMarketFeeDiscountParams": queryHandler(
        feetiers.QueryAllMarketFeeDiscountParamsRequestSchema,
        feetiers.QueryAllMarketFeeDiscountParamsResponseSchema,
        () => create(feetiers.QueryAllMarketFeeDiscountParamsResponseSchema, { params: [] }),
      ),
      "/perpx.feetiers.v1.Query/StakingTiers": queryHandler(
        feetiers.QueryStakingTiersRequestSchema,
        feetiers.QueryStakingTiersResponseSchema,
        () => create(feetiers.QueryStakingTiersResponseSchema, { stakingTiers: [] }),
      ),
      "/perpx.feetiers.v1.Query/UserStakingTier": queryHandler(
        feetiers.QueryUserStakingTierRequestSchema,
        feetiers.QueryUserStakingTierResponseSchema,
        (ctx, req) => {
          let address: Uint8Array;
          try {
            address = accAddressBytes(req.address);
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          return create(feetiers.QueryUserStakingTierResponseSchema, {
            feeTierName: keeper.userTier(ctx, address, ctx.block.timeMs).tier.name,
            stakedBaseTokens: encodeSerializableInt(0n),
            discountPpm: 0,
          });
        },
      ),
    },
  };
}
