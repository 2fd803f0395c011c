/**
 * Withdrawal and transfer gating, as the reference chain's subaccounts module does it: withdrawals
 * and transfers out of a collateral pool are refused (subaccounts 102,
 * "WithdrawalsAndTransfersBlocked: failed to apply subaccount updates") for
 * {@link GATED_BLOCKS} blocks after a block in which a subaccount of that pool was seen with
 * negative equity (a zero-fill deleveraging in the proposed operations), or after a chain outage (a
 * block that came at least {@link OUTAGE_MS} after the one before it).
 *
 * State (subaccounts store): `ntnc/<cross | perpetual id>` the last height a negative-equity
 * subaccount was seen in that pool; `outage` the last height that followed an outage;
 * `last_block_time` the previous block's time.
 */

import { create } from "@bufbuild/protobuf";
import { subaccounts } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { decodeU64, encodeU64 } from "../../lib/codec.js";
import type { StoreAccess } from "../auth/auth.js";

/** The subaccounts module's store (its collateral pool is the module account of that name). */
const SUBACCOUNTS = "subaccounts";

/** A subaccount id. */
interface SubaccountRef {
  readonly owner: string;
  readonly number: number;
}

/** Blocks during which withdrawals and transfers stay blocked. */
export const GATED_BLOCKS = 50n;
/** A gap between two blocks' times at least this long is a chain outage (5 minutes). */
export const OUTAGE_MS = 300_000n;

/** What the gate needs of the subaccounts keeper. */
export interface PoolLookup {
  collateralPoolName(ctx: StoreAccess, perpetualId: number): string;
  poolOf(ctx: StoreAccess, id: SubaccountRef): string;
}

function suffixOfPool(pool: string): string {
  return pool === SUBACCOUNTS ? "cross" : pool.slice(SUBACCOUNTS.length + 1);
}

function readHeight(ctx: StoreAccess, key: string): bigint | undefined {
  const bytes = ctx.store(SUBACCOUNTS).get(key);
  return bytes === undefined ? undefined : decodeU64(bytes);
}

/** Records that a subaccount of a perpetual's collateral pool was seen at negative equity now. */
export function markNegativeTncSeen(ctx: Context, pools: PoolLookup, perpetualId: number): void {
  const suffix = suffixOfPool(pools.collateralPoolName(ctx, perpetualId));
  ctx.store(SUBACCOUNTS).set(`ntnc/${suffix}`, encodeU64(ctx.block.height));
}

/** Begin block: a block at least {@link OUTAGE_MS} after the previous one records an outage. */
export function recordBlockTime(ctx: Context): void {
  const store = ctx.store(SUBACCOUNTS);
  const last = store.get("last_block_time");
  if (last !== undefined && ctx.block.timeMs - decodeU64(last) >= OUTAGE_MS) {
    store.set("outage", encodeU64(ctx.block.height));
  }
  store.set("last_block_time", encodeU64(ctx.block.timeMs));
}

/** The gate of a pool: the heights it was closed at and the first height it is open again (0: never closed). */
export function gateInfo(
  ctx: StoreAccess,
  pool: string,
): { negativeTncSeenAt: bigint; outageSeenAt: bigint; unblockedAt: bigint } {
  const negative = readHeight(ctx, `ntnc/${suffixOfPool(pool)}`);
  const outage = readHeight(ctx, "outage");
  const latest = (negative ?? 0n) > (outage ?? 0n) ? (negative ?? 0n) : (outage ?? 0n);
  return {
    negativeTncSeenAt: negative ?? 0n,
    outageSeenAt: outage ?? 0n,
    unblockedAt: negative === undefined && outage === undefined ? 0n : latest + GATED_BLOCKS,
  };
}

/**
 * Whether a withdrawal or transfer out of these subaccounts is gated now (the subaccounts keeper
 * then refuses it: subaccounts 102, "WithdrawalsAndTransfersBlocked: failed to apply subaccount
 * updates").
 */
export function isGated(ctx: Context, pools: PoolLookup, ids: readonly SubaccountRef[]): boolean {
  return ids.some((id) => {
    const info = gateInfo(ctx, pools.poolOf(ctx, id));
    return info.unblockedAt !== 0n && ctx.block.height < info.unblockedAt;
  });
}

/** The `GetWithdrawalAndTransfersBlockedInfo` answer for a perpetual's pool. */
export function blockedInfoResponse(
  ctx: StoreAccess,
  pools: PoolLookup,
  perpetualId: number,
): subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponse {
  const info = gateInfo(ctx, pools.collateralPoolName(ctx, perpetualId));
  return create(subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponseSchema, {
    negativeTncSubaccountSeenAtBlock: Number(info.negativeTncSeenAt),
    chainOutageSeenAtBlock: Number(info.outageSeenAt),
    withdrawalsAndTransfersUnblockedAtBlock: Number(info.unblockedAt),
  });
}
