/**
 * Figures rounded for people to read. The data keeps the exact decimal strings; these helpers
 * only render them: USD to cents, sizes to the market's step, prices to its tick, ratios to a
 * fixed {@link RATIO_DECIMALS} decimals, always with trailing zeros to that precision and never a
 * negative zero.
 *
 * **Rounding mode: half-expand** (a half goes away from zero: 0.125 → "0.13", -0.125 → "-0.13"),
 * the rule a person applies when checking a figure by hand and the one statements and exchange
 * screens show. Half-even only pays off when rounded figures are summed again, and these never are:
 * every computation runs on the exact values, and a displayed figure is never read back.
 */
import { type ClobPairParams, Exact, stepSize, tickSize } from "@perpx/core";

/**
 * The rounding mode of every displayed figure (see the module notes for why).
 *
 * @example
 * ```ts
 * DISPLAY_ROUNDING; // "halfExpand"
 * ```
 */
export const DISPLAY_ROUNDING = "halfExpand" as const;

/**
 * Decimals a ratio (leverage, margin usage) is shown with.
 *
 * @example
 * ```ts
 * formatRatio("0.130250421988449648"); // "0.1303"
 * RATIO_DECIMALS; // 4
 * ```
 */
export const RATIO_DECIMALS = 4;

/** Decimals of a step or tick written as a decimal string (`"0.0001"` → 4, `"10"` → 0). */
function decimalsOf(step: string): number {
  const dot = step.indexOf(".");
  return dot === -1 ? 0 : step.length - dot - 1;
}

/**
 * Rounds an exact decimal to `decimals` places for display (half-expand), with trailing zeros
 * and no negative zero.
 *
 * @param value - an exact decimal string (or `Exact`).
 * @param decimals - the places to show, 0 or more.
 * @returns the rounded figure.
 * @throws {InvalidAmountError | InvalidArgumentError} when `value` is not a decimal.
 *
 * @example
 * ```ts
 * formatDecimal("999.6540729", 2); // "999.65"
 * formatDecimal("2.5", 0); // "3"
 * formatDecimal("-0.001", 2); // "0.00"
 * ```
 */
export function formatDecimal(value: string | Exact, decimals: number): string {
  const text = new Exact(value, "value").toFixed(decimals, DISPLAY_ROUNDING);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * A USD (or USDC) amount for display: rounded to cents.
 *
 * @param value - the exact amount.
 * @returns e.g. `"999.65"`.
 *
 * @example
 * ```ts
 * formatUsd("999.6540729"); // "999.65"
 * formatUsd("1000"); // "1000.00"
 * ```
 */
export function formatUsd(value: string | Exact): string {
  return formatDecimal(value, 2);
}

/**
 * A ratio (leverage, margin usage) for display: {@link RATIO_DECIMALS} decimals.
 *
 * @param value - the exact ratio.
 * @returns e.g. `"0.1303"`.
 *
 * @example
 * ```ts
 * formatRatio("0.130250421988449648"); // "0.1303"
 * ```
 */
export function formatRatio(value: string | Exact): string {
  return formatDecimal(value, RATIO_DECIMALS);
}

/**
 * A size for display: rounded to the decimals of the market's step size.
 *
 * @param value - the exact size, in the base asset.
 * @param market - the market's clob pair (a `Market` is one).
 * @returns e.g. `"0.0100"` on a market stepping by 0.0001.
 *
 * @example
 * ```ts
 * formatSize("0.01", btc); // "0.0100" (BTC-USD steps by 0.0001)
 * ```
 */
export function formatSize(value: string | Exact, market: ClobPairParams): string {
  return formatDecimal(value, decimalsOf(stepSize(market)));
}

/**
 * A price for display: rounded to the decimals of the market's tick size.
 *
 * @param value - the exact price, USD.
 * @param market - the market's clob pair (a `Market` is one).
 * @returns e.g. `"30000"` on a market ticking by 1.
 *
 * @example
 * ```ts
 * formatPrice("30000.4567", btc); // "30000" (BTC-USD ticks by 1)
 * ```
 */
export function formatPrice(value: string | Exact, market: ClobPairParams): string {
  return formatDecimal(value, decimalsOf(tickSize(market)));
}

/**
 * A position's figures for display (see {@link AccountDisplay}).
 *
 * @example
 * ```ts
 * const shown: PositionDisplay = { market: "BTC-USD", side: "LONG", size: "0.0100", oraclePrice: "30001", value: "300.01", entryPrice: "30000", unrealizedPnl: "0.01", liquidationPrice: undefined };
 * ```
 */
export interface PositionDisplay {
  readonly market: string;
  readonly side: "LONG" | "SHORT";
  /** To the market's step. */
  readonly size: string;
  /** To the market's tick. */
  readonly oraclePrice: string;
  /** USD, to cents. */
  readonly value: string;
  /** To the market's tick. */
  readonly entryPrice: string | undefined;
  /** USD, to cents. */
  readonly unrealizedPnl: string | undefined;
  /** To the market's tick. */
  readonly liquidationPrice: string | undefined;
}

/**
 * An account's figures rounded for people (the account's own fields stay exact): USD to cents,
 * ratios to {@link RATIO_DECIMALS} decimals, sizes and prices to each market's step and tick.
 *
 * @example
 * ```ts
 * const { display } = await client.account();
 * /^-?\d+\.\d{2}$/.test(display.equity); // true: cents
 * ```
 */
export interface AccountDisplay {
  /** USDC, to cents. */
  readonly usdc: string;
  /** USD, to cents. */
  readonly equity: string;
  /** USD, to cents. */
  readonly freeCollateral: string | undefined;
  /** To {@link RATIO_DECIMALS} decimals. */
  readonly marginUsage: string | undefined;
  /** To {@link RATIO_DECIMALS} decimals. */
  readonly leverage: string | undefined;
  /** The positions, in the account's order. */
  readonly positions: readonly PositionDisplay[];
}

/**
 * Rounds an account's exact figures for display.
 *
 * @param account - the exact figures, in the same shape (an `AccountView` is one).
 * @param marketOf - the clob pair of a position's market (a `Market`).
 * @returns the rounded figures.
 *
 * @example
 * ```ts
 * const shown = accountDisplay(
 *   { usdc: "1000", equity: "999.6540729", freeCollateral: "900.5", marginUsage: undefined, leverage: "0.130250421988449648", positions: [] },
 *   () => btc,
 * );
 * [shown.usdc, shown.equity, shown.leverage]; // ["1000.00", "999.65", "0.1303"]
 * ```
 */
export function accountDisplay(
  account: AccountDisplay,
  marketOf: (ticker: string) => ClobPairParams,
): AccountDisplay {
  const optional = (value: string | undefined, format: (v: string) => string) =>
    value === undefined ? undefined : format(value);
  return {
    usdc: formatUsd(account.usdc),
    equity: formatUsd(account.equity),
    freeCollateral: optional(account.freeCollateral, formatUsd),
    marginUsage: optional(account.marginUsage, formatRatio),
    leverage: optional(account.leverage, formatRatio),
    positions: account.positions.map((p) => {
      const market = marketOf(p.market);
      const price = (v: string) => formatPrice(v, market);
      return {
        market: p.market,
        side: p.side,
        size: formatSize(p.size, market),
        oraclePrice: price(p.oraclePrice),
        value: formatUsd(p.value),
        entryPrice: optional(p.entryPrice, price),
        unrealizedPnl: optional(p.unrealizedPnl, formatUsd),
        liquidationPrice: optional(p.liquidationPrice, price),
      };
    }),
  };
}
