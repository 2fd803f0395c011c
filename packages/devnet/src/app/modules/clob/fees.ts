/**
 * Trading fees of a fill, rounded as the reference chain rounds them (`lib.BigMulPpm(quote, ppm,
 * roundUp = true)` in x/clob's `persistMatchedOrders`): `quote × ppm / 1e6` toward positive
 * infinity, for taker and maker alike. A fee (ppm > 0) is rounded up, a maker rebate (ppm < 0) is
 * rounded toward zero, so rounding never favours the trader.
 */
import { ceilDiv } from "../subaccounts/dtypes.js";

/**
 * The fee in quote quantums of a fill worth `quoteQuantums` at `feePpm` (signed: negative is a
 * rebate), rounded toward positive infinity.
 *
 * @example
 * ```ts
 * fillFeeQuoteQuantums(6_500_000n, 500); // 3_250n (exact)
 * fillFeeQuoteQuantums(1_001n, 500); // 1n (0.5005 rounded up)
 * fillFeeQuoteQuantums(1_001n, -110); // 0n (a rebate of 0.11011 rounded toward zero)
 * ```
 */
export function fillFeeQuoteQuantums(quoteQuantums: bigint, feePpm: number): bigint {
  return ceilDiv(quoteQuantums * BigInt(feePpm), 1_000_000n);
}
