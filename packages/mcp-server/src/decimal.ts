import { Decimal } from "decimal.js";

/**
 * Decimal arithmetic for the agent server's money math, with room for every digit: amounts are
 * at most 48 significant digits (30 before the point, 18 after), so a product of two keeps all of
 * its digits within the 100 kept here, and comparisons at a limit are exact.
 *
 * @example
 * ```ts
 * new Exact("123456789012.123456789").times("987654321098.987654321").toFixed(); // "121932631136829751437425.343087805112635269"
 * ```
 */
export const Exact = Decimal.clone({ precision: 100 });

/**
 * A decimal of the agent server's arithmetic.
 *
 * @example
 * ```ts
 * const price: Exact = new Exact("65000.5");
 * ```
 */
export type Exact = Decimal;
