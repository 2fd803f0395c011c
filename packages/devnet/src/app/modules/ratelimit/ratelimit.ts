/**
 * x/ratelimit: outgoing IBC limiters per denom (capacity recovering toward a baseline), per-asset
 * withdrawal controls (large-withdrawal threshold, timelock, fee) and per chain and asset daily
 * limits for bridge withdrawals, with their usage.
 *
 * Store slice `ratelimit/` (genesis keys as in `records.ts`, plus):
 * - `capacity/<denom>`: JSON `{timeMs, capacities: string[]}` (lazily created at the baseline);
 * - `pending/<channel>/<sequence:20>`: `PendingSendPacket`;
 * - `daily_usage/<chain id:20>/<asset id:10>`: `AssetChainWithdrawalDailyUsage`.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { assets, decodeSerializableInt, encodeSerializableInt, ratelimit } from "@perpx/proto";
import { type ChainConfig, ratelimitRecords } from "../../genesis/genesis.js";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  type Context,
  emptyResponse,
  type Module,
  msgHandler,
  type QueryContext,
  queryHandler,
} from "../../kernel/module.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import type { Coin } from "../../lib/coins.js";
import { abciError, registerError } from "../../lib/errors.js";
import type { StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import { coinsFromProto } from "../bank/bank.js";
import { createRecordsModule, padKey, readRecord, readRecords } from "../records.js";

/** The module's name, store prefix and codespace. */
export const RATELIMIT = "ratelimit";

/**
 * Errors of codespace `ratelimit`: 1001 to 1007 are the real chain's codes and texts; 2001 and 2002
 * belong to this chain's bridge-withdrawal controls, which the real chain does not have.
 */
export const ratelimitErrors = {
  invalidAuthority: registerError(RATELIMIT, 1001, "Authority is invalid"),
  exceedsCapacity: registerError(RATELIMIT, 1002, "withdrawal amount would exceed rate-limit capacity"),
  mismatchedCapacityLength: registerError(
    RATELIMIT,
    1003,
    "capacity list length does not match number of limiters",
  ),
  invalidPeriod: registerError(RATELIMIT, 1004, "rate limit period should be positive"),
  invalidBaselineMinimum: registerError(RATELIMIT, 1005, "baseline_minimum should be positive"),
  invalidBaselineTvlPpm: registerError(RATELIMIT, 1006, "Baseline_tvl_ppm must in the range (0, 1_000_000)"),
  invalidInput: registerError(RATELIMIT, 1007, "Invalid input"),
  dailyLimitExceeded: registerError(RATELIMIT, 2001, "daily withdrawal limit exceeded"),
  unknownAsset: registerError(RATELIMIT, 2002, "no asset for denom"),
} as const;

/** Seconds in a day: the window of the daily limits. */
export const DAY_SECONDS = 86_400n;

/** What a bridge withdrawal must pay and wait, once it passed the limits. */
export interface WithdrawalTerms {
  readonly assetId: number;
  /** The fee charged on top of the amount. */
  readonly fee: Coin[];
  /** Blocks the withdrawal waits before it may be relayed (0 below the threshold). */
  readonly timelockBlocks: bigint;
}

interface CapacityState {
  timeMs: string;
  capacities: string[];
}

function usageKey(chainId: bigint, assetId: number): string {
  return `daily_usage/${padKey(chainId, 20)}/${padKey(assetId, 10)}`;
}

function pendingKey(channelId: string, sequence: bigint): string {
  return `pending/${channelId}/${padKey(sequence, 20)}`;
}

function periodMs(limiter: ratelimit.Limiter): bigint {
  const period = limiter.period;
  return period === undefined ? 0n : period.seconds * 1000n + BigInt(period.nanos) / 1_000_000n;
}

/** The rate-limit state operations other modules use (bridge withdrawals, IBC sends). */
export class RatelimitKeeper {
  constructor(private readonly bank: BankKeeper) {}

  /** The asset id of a bank denom (from the assets module), or undefined. */
  assetIdOf(ctx: StoreAccess, denom: string): number | undefined {
    for (const [, bytes] of ctx.store("assets").entries("asset/")) {
      const asset = fromBinary(assets.AssetSchema, bytes);
      if (asset.denom === denom) return asset.id;
    }
    return undefined;
  }

  /** The limiters of a denom, or undefined when it is not limited. */
  limitParams(ctx: StoreAccess, denom: string): ratelimit.LimitParams | undefined {
    return readRecord(ctx as QueryContext, RATELIMIT, `limit_params/${denom}`, ratelimit.LimitParamsSchema);
  }

  /** The baseline of a limiter: max(baseline_minimum, baseline_tvl_ppm x supply / 1e6). */
  baseline(ctx: StoreAccess, denom: string, limiter: ratelimit.Limiter): bigint {
    const minimum = decodeSerializableInt(limiter.baselineMinimum);
    const tvl = (this.bank.supplyOf(ctx, denom) * BigInt(limiter.baselineTvlPpm)) / 1_000_000n;
    return tvl > minimum ? tvl : minimum;
  }

  /** The capacity of each limiter of a denom at `timeMs`, recovered toward the baseline since last use. */
  capacities(ctx: StoreAccess, denom: string, timeMs: bigint): bigint[] {
    const params = this.limitParams(ctx, denom);
    if (params === undefined) return [];
    const bytes = ctx.store(RATELIMIT).get(`capacity/${denom}`);
    const stored = bytes === undefined ? undefined : (JSON.parse(fromUtf8(bytes)) as CapacityState);
    return params.limiters.map((limiter, i) => {
      const baseline = this.baseline(ctx, denom, limiter);
      const raw = stored?.capacities[i];
      if (stored === undefined || raw === undefined) return baseline;
      const capacity = BigInt(raw);
      const elapsed = timeMs - BigInt(stored.timeMs);
      const period = periodMs(limiter);
      if (elapsed <= 0n || period === 0n) return capacity;
      const step = ((baseline > capacity - baseline ? baseline : capacity - baseline) * elapsed) / period;
      if (capacity < baseline) return capacity + step > baseline ? baseline : capacity + step;
      return capacity - step < baseline ? baseline : capacity - step;
    });
  }

  /**
   * Checks an outgoing IBC transfer of a limited denom against every limiter, takes the amount
   * from their capacity and records the packet as pending. A denom without limiters passes.
   *
   * @throws {AbciError} ratelimit 1002 naming the denom, the limiter's index, its capacity and the
   * amount, in the real chain's words.
   */
  checkIbcSend(ctx: Context, denom: string, amount: bigint, channelId: string, sequence: bigint): void {
    const params = this.limitParams(ctx, denom);
    if (params === undefined) return;
    const capacities = this.capacities(ctx, denom, ctx.block.timeMs);
    capacities.forEach((capacity, i) => {
      if (amount > capacity) {
        throw abciError(
          ratelimitErrors.exceedsCapacity,
          `denom = ${denom}, capacity(index: ${i}) = ${capacity}, amount = ${amount}`,
        );
      }
    });
    this.storeCapacities(
      ctx,
      denom,
      capacities.map((c) => c - amount),
    );
    ctx
      .store(RATELIMIT)
      .set(
        pendingKey(channelId, sequence),
        toBinary(
          ratelimit.PendingSendPacketSchema,
          create(ratelimit.PendingSendPacketSchema, { channelId, sequence }),
        ),
      );
  }

  /**
   * An incoming IBC transfer of `denom` (the denom this chain credits, as the limit params name
   * it): every limiter's capacity grows by the amount (it then recovers back toward the baseline).
   * A denom without limiters is left alone.
   */
  creditIbcReceive(ctx: Context, denom: string, amount: bigint): void {
    if (this.limitParams(ctx, denom) === undefined) return;
    const capacities = this.capacities(ctx, denom, ctx.block.timeMs);
    this.storeCapacities(
      ctx,
      denom,
      capacities.map((c) => c + amount),
    );
  }

  /**
   * Undoes an outgoing transfer that timed out or came back with an error acknowledgement: when
   * its packet is still pending, every limiter's capacity gets the amount back and the packet is no
   * longer pending; a packet not pending (already settled) changes nothing. A success
   * acknowledgement only settles the packet ({@link settleIbcSend}).
   *
   * @returns true when the send was undone.
   */
  undoIbcSend(ctx: Context, channelId: string, sequence: bigint, denom: string, amount: bigint): boolean {
    const store = ctx.store(RATELIMIT);
    if (store.get(pendingKey(channelId, sequence)) === undefined) return false;
    if (this.limitParams(ctx, denom) !== undefined) {
      const capacities = this.capacities(ctx, denom, ctx.block.timeMs);
      this.storeCapacities(
        ctx,
        denom,
        capacities.map((c) => c + amount),
      );
    }
    store.delete(pendingKey(channelId, sequence));
    return true;
  }

  /** A success acknowledgement of an outgoing transfer: its packet is no longer pending. */
  settleIbcSend(ctx: Context, channelId: string, sequence: bigint): void {
    ctx.store(RATELIMIT).delete(pendingKey(channelId, sequence));
  }

  private storeCapacities(ctx: Context, denom: string, capacities: readonly bigint[]): void {
    const state: CapacityState = {
      timeMs: ctx.block.timeMs.toString(),
      capacities: capacities.map((c) => c.toString()),
    };
    ctx.store(RATELIMIT).set(`capacity/${denom}`, utf8(JSON.stringify(state)));
  }

  /** The daily usage of an asset to a chain as of `nowSeconds` (reset when a day has passed). */
  dailyUsage(
    ctx: StoreAccess,
    chainId: bigint,
    assetId: number,
    nowSeconds: bigint,
  ): ratelimit.AssetChainWithdrawalDailyUsage {
    const stored = readRecord(
      ctx as QueryContext,
      RATELIMIT,
      usageKey(chainId, assetId),
      ratelimit.AssetChainWithdrawalDailyUsageSchema,
    );
    if (stored === undefined || nowSeconds - stored.lastReset >= DAY_SECONDS) {
      return create(ratelimit.AssetChainWithdrawalDailyUsageSchema, {
        chainId,
        assetId,
        dailyUsed: "0",
        lastReset: nowSeconds,
      });
    }
    return stored;
  }

  /**
   * Applies the withdrawal controls to a bridge withdrawal of `amount` `denom` to `chainId`: the
   * daily limit (usage grows by the amount), the fee and the timelock of large withdrawals.
   *
   * @throws {AbciError} ratelimit 2001 naming the limit, the amount used and the amount requested.
   */
  applyBridgeWithdrawal(ctx: Context, chainId: bigint, denom: string, amount: bigint): WithdrawalTerms {
    const assetId = this.assetIdOf(ctx, denom);
    if (assetId === undefined) throw abciError(ratelimitErrors.unknownAsset, `denom ${denom}`);
    const nowSeconds = ctx.block.timeMs / 1000n;
    const limit = readRecord(
      ctx,
      RATELIMIT,
      `daily_limit/${padKey(chainId, 20)}/${padKey(assetId, 10)}`,
      ratelimit.AssetChainDailyLimitConfigSchema,
    );
    const usage = this.dailyUsage(ctx, chainId, assetId, nowSeconds);
    const used = BigInt(usage.dailyUsed);
    if (limit !== undefined && used + amount > BigInt(limit.dailyLimit)) {
      throw abciError(
        ratelimitErrors.dailyLimitExceeded,
        `asset ${assetId} to chain ${chainId}: daily limit ${limit.dailyLimit}, used ${used}, requested ${amount}`,
      );
    }
    usage.dailyUsed = (used + amount).toString();
    ctx
      .store(RATELIMIT)
      .set(usageKey(chainId, assetId), toBinary(ratelimit.AssetChainWithdrawalDailyUsageSchema, usage));
    const config = readRecord(
      ctx,
      RATELIMIT,
      `withdrawal_config/${padKey(assetId, 10)}`,
      ratelimit.AssetWithdrawalConfigSchema,
    );
    if (config === undefined) return { assetId, fee: [], timelockBlocks: 0n };
    const threshold = BigInt(config.largeWithdrawalThreshold === "" ? "0" : config.largeWithdrawalThreshold);
    const large = threshold > 0n && amount >= threshold;
    return {
      assetId,
      fee: coinsFromProto(config.withdrawalFee),
      timelockBlocks: large ? config.timelockBlocks : 0n,
    };
  }
}

function validAmount(text: string, what: string): bigint {
  if (!/^\d+$/.test(text))
    throw abciError(ratelimitErrors.invalidInput, `${what} must be a decimal integer, got "${text}"`);
  return BigInt(text);
}

/** The real chain's `LimitParams.Validate` of one limiter: period, baseline minimum, TVL share. */
function validateLimiter(limiter: ratelimit.Limiter): void {
  if ((limiter.period?.seconds ?? 0n) === 0n && (limiter.period?.nanos ?? 0) === 0) {
    throw abciError(ratelimitErrors.invalidPeriod);
  }
  let minimum: bigint;
  try {
    minimum = decodeSerializableInt(limiter.baselineMinimum);
  } catch (error) {
    throw abciError(ratelimitErrors.invalidBaselineMinimum, (error as Error).message);
  }
  if (minimum <= 0n) throw abciError(ratelimitErrors.invalidBaselineMinimum);
  if (limiter.baselineTvlPpm === 0 || limiter.baselineTvlPpm > 1_000_000) {
    throw abciError(ratelimitErrors.invalidBaselineTvlPpm);
  }
}

/** The ratelimit module over its genesis records (see `records.ts`). */
export function createRatelimitModule(config: ChainConfig, keeper: RatelimitKeeper): Module {
  const base = createRecordsModule({ name: RATELIMIT, records: ratelimitRecords(config) });
  const store = (ctx: Context) => ctx.store(RATELIMIT);
  return {
    ...base,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.ratelimit.v1.MsgSetLimitParams",
        schema: () => ratelimit.MsgSetLimitParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, ratelimitErrors.invalidAuthority);
          const params = msg.limitParams;
          if (params === undefined || !/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(params.denom))
            throw abciError(ratelimitErrors.invalidInput, `invalid denom: ${params?.denom ?? ""}`);
          for (const limiter of params.limiters) validateLimiter(limiter);
          if (params.limiters.length === 0) store(ctx).delete(`limit_params/${params.denom}`);
          else store(ctx).set(`limit_params/${params.denom}`, toBinary(ratelimit.LimitParamsSchema, params));
          store(ctx).delete(`capacity/${params.denom}`);
          return emptyResponse(ratelimit.MsgSetLimitParamsResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.ratelimit.v1.MsgSetAssetWithdrawalConfig",
        schema: () => ratelimit.MsgSetAssetWithdrawalConfigSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, ratelimitErrors.invalidAuthority);
          const c = msg.config;
          if (c === undefined) throw abciError(ratelimitErrors.invalidInput, "config is required");
          validAmount(c.largeWithdrawalThreshold, "large_withdrawal_threshold");
          store(ctx).set(
            `withdrawal_config/${padKey(c.assetId, 10)}`,
            toBinary(ratelimit.AssetWithdrawalConfigSchema, c),
          );
          return emptyResponse(ratelimit.MsgSetAssetWithdrawalConfigResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.ratelimit.v1.MsgSetAssetChainDailyLimit",
        schema: () => ratelimit.MsgSetAssetChainDailyLimitSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, ratelimitErrors.invalidAuthority);
          const c = msg.config;
          if (c === undefined) throw abciError(ratelimitErrors.invalidInput, "config is required");
          validAmount(c.dailyLimit, "daily_limit");
          store(ctx).set(
            `daily_limit/${padKey(c.chainId, 20)}/${padKey(c.assetId, 10)}`,
            toBinary(ratelimit.AssetChainDailyLimitConfigSchema, c),
          );
          return emptyResponse(ratelimit.MsgSetAssetChainDailyLimitResponseSchema);
        },
      }),
    ],
    queries: {
      "/perpx.ratelimit.v1.Query/ListLimitParams": queryHandler(
        () => ratelimit.ListLimitParamsRequestSchema,
        () => ratelimit.ListLimitParamsResponseSchema,
        (ctx) =>
          create(ratelimit.ListLimitParamsResponseSchema, {
            limitParamsList: readRecords(ctx, RATELIMIT, "limit_params/", ratelimit.LimitParamsSchema).map(
              (r) => r.value,
            ),
          }),
      ),
      "/perpx.ratelimit.v1.Query/CapacityByDenom": queryHandler(
        () => ratelimit.QueryCapacityByDenomRequestSchema,
        () => ratelimit.QueryCapacityByDenomResponseSchema,
        (ctx, req) => {
          const params = keeper.limitParams(ctx, req.denom);
          const capacities = keeper.capacities(ctx, req.denom, ctx.block.timeMs);
          return create(ratelimit.QueryCapacityByDenomResponseSchema, {
            limiterCapacityList: (params?.limiters ?? []).map((limiter, i) =>
              create(ratelimit.LimiterCapacitySchema, {
                limiter,
                capacity: encodeSerializableInt(capacities[i] ?? 0n),
              }),
            ),
          });
        },
      ),
      "/perpx.ratelimit.v1.Query/AllPendingSendPackets": queryHandler(
        () => ratelimit.QueryAllPendingSendPacketsRequestSchema,
        () => ratelimit.QueryAllPendingSendPacketsResponseSchema,
        (ctx) =>
          create(ratelimit.QueryAllPendingSendPacketsResponseSchema, {
            pendingSendPackets: readRecords(
              ctx,
              RATELIMIT,
              "pending/",
              ratelimit.PendingSendPacketSchema,
            ).map((r) => r.value),
          }),
      ),
      "/perpx.ratelimit.v1.Query/AssetWithdrawalConfigs": queryHandler(
        () => ratelimit.QueryAssetWithdrawalConfigsRequestSchema,
        () => ratelimit.QueryAssetWithdrawalConfigsResponseSchema,
        (ctx, req) =>
          create(ratelimit.QueryAssetWithdrawalConfigsResponseSchema, {
            configs: readRecords(ctx, RATELIMIT, "withdrawal_config/", ratelimit.AssetWithdrawalConfigSchema)
              .map((r) => r.value)
              .filter((c) => req.assetId === undefined || c.assetId === req.assetId),
          }),
      ),
      "/perpx.ratelimit.v1.Query/DailyLimits": queryHandler(
        () => ratelimit.QueryDailyLimitsRequestSchema,
        () => ratelimit.QueryDailyLimitsResponseSchema,
        (ctx, req) =>
          create(ratelimit.QueryDailyLimitsResponseSchema, {
            limits: readRecords(ctx, RATELIMIT, "daily_limit/", ratelimit.AssetChainDailyLimitConfigSchema)
              .map((r) => r.value)
              .filter(
                (l) =>
                  (req.chainId === undefined || l.chainId === req.chainId) &&
                  (req.assetId === undefined || l.assetId === req.assetId),
              ),
          }),
      ),
      "/perpx.ratelimit.v1.Query/DailyUsage": queryHandler(
        () => ratelimit.QueryDailyUsageRequestSchema,
        () => ratelimit.QueryDailyUsageResponseSchema,
        (ctx, req) => {
          const nowSeconds = ctx.block.timeMs / 1000n;
          return create(ratelimit.QueryDailyUsageResponseSchema, {
            usage: readRecords(ctx, RATELIMIT, "daily_limit/", ratelimit.AssetChainDailyLimitConfigSchema)
              .map((r) => keeper.dailyUsage(ctx, r.value.chainId, r.value.assetId, nowSeconds))
              .filter(
                (u) =>
                  (req.chainId === undefined || u.chainId === req.chainId) &&
                  (req.assetId === undefined || u.assetId === req.assetId),
              ),
          });
        },
      ),
    },
  };
}
