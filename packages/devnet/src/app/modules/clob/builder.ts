/**
 * Builder codes (the order's `builder_code_parameters`): a builder fee of `fee_ppm` of each fill's
 * quote amount, rounded up, taken from the order owner's USDC on top of the trading fee and sent
 * from the subaccount's collateral pool to the builder's address, for the taker and the maker
 * alike (the real chain's `GetBuilderFee` and `TransferBuilderFees`).
 */

import { addressBytes } from "@perpx/address";
import { USDC_DENOM } from "@perpx/core";
import type { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import type { Keepers } from "../index.js";
import type { SubaccountRef } from "../subaccounts/keeper.js";

/**
 * The builder fee of an order for `amount` (quote quantums of a fill), rounded up; 0 without a
 * builder code.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const builderAddress = "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe";
 * const order = create(clob.OrderSchema, { builderCodeParameters: { builderAddress, feePpm: 333 } });
 * builderFee(order, 650_000_000n); // 216_450n
 * builderFee(order, 1_000n); // 1n (0.333 rounded up)
 * builderFee(create(clob.OrderSchema), 650_000_000n); // 0n
 * ```
 */
export function builderFee(order: clob.Order, amount: bigint): bigint {
  const ppm = BigInt(order.builderCodeParameters?.feePpm ?? 0);
  if (ppm === 0n || amount <= 0n) return 0n;
  return (amount * ppm + 999_999n) / 1_000_000n;
}

/** Sends a builder fee from the subaccount's collateral pool to the order's builder address. */
export function payBuilderFee(
  ctx: Context,
  keepers: Pick<Keepers, "bank" | "subaccounts">,
  ref: SubaccountRef,
  order: clob.Order,
  fee: bigint,
): void {
  const builder = order.builderCodeParameters?.builderAddress;
  if (fee <= 0n || builder === undefined) return;
  const pool = keepers.subaccounts.poolOf(ctx, ref);
  keepers.bank.sendCoinsFromModuleToAccount(ctx, pool, addressBytes(builder), [
    { denom: USDC_DENOM, amount: fee },
  ]);
}
