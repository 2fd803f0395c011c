import { Exact, type ExactPrecision } from "@perpx/core";

/** The precision of the quotients (ratios, liquidation prices): 18 significant digits. */
const QUOTIENT: ExactPrecision = { significantDigits: 18, rounding: "halfExpand" };

/**
 * One position as {@link marginSummary} takes it: decimal strings, the size signed (negative: short).
 *
 * @example
 * ```ts
 * const input: MarginPositionInput = { market: "BTC-USD", size: "-0.5", entryPrice: "65000", oraclePrice: "64000", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" };
 * ```
 */
export interface MarginPositionInput {
  /** The market's ticker. */
  market: string;
  /** The signed size in the base asset. */
  size: string;
  /** The average entry price, USD, when known. */
  entryPrice: string | undefined;
  /** The oracle price, USD. */
  oraclePrice: string;
  /** The initial margin fraction (e.g. "0.05" for 20x), when known. */
  initialMarginFraction: string | undefined;
  /** The maintenance margin fraction, when known. */
  maintenanceMarginFraction: string | undefined;
}

/**
 * One position's figures, in USD.
 *
 * @example
 * ```ts
 * const summary = marginSummary({ usdc: "1000", positions: [{ market: "BTC-USD", size: "0.1", entryPrice: "60000", oraclePrice: "65000", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" }] });
 * const { notional, unrealizedPnl }: MarginPosition = summary.positions[0]!;
 * [notional, unrealizedPnl]; // ["6500", "500"]
 * ```
 */
export interface MarginPosition {
  /** The market's ticker. */
  market: string;
  /** |size| × oracle price. */
  notional: string;
  /** (oracle − entry) × signed size; undefined without an entry price. */
  unrealizedPnl: string | undefined;
  /**
   * The oracle price at which the account's equity falls to its maintenance margin, every other
   * position and price unchanged; undefined when no price gets there (or a fraction is unknown).
   */
  liquidationPrice: string | undefined;
}

/**
 * The account's margin figures, decimal strings (USD, or a ratio).
 *
 * @example
 * ```ts
 * const { equity, freeCollateral, marginUsage, leverage }: MarginSummary = marginSummary({ usdc: "1000", positions: [] });
 * ```
 */
export interface MarginSummary {
  /** USDC plus every position's signed size × oracle price. */
  equity: string;
  /** Equity minus the initial margin of every position (undefined when a fraction is unknown). */
  freeCollateral: string | undefined;
  /** Initial margin ÷ equity (undefined as `freeCollateral`, or with no equity). */
  marginUsage: string | undefined;
  /** Total notional ÷ equity (undefined with no equity). */
  leverage: string | undefined;
  /** Each position's figures, in the order given. */
  positions: MarginPosition[];
}

/**
 * The margin figures of an account from its USDC balance and its positions at the oracle prices:
 * equity, free collateral, margin usage, leverage, and per position its notional, unrealized PnL
 * and estimated liquidation price. Exact decimal arithmetic ({@link Exact}); the ratios and the
 * liquidation price are quotients, rounded once to 18 significant digits (half away from zero).
 *
 * @param input - the USDC balance and each position's size, oracle price and margin fractions, as
 *   human decimal strings.
 * @returns equity, free collateral, margin usage and leverage as exact human decimal strings.
 * @example
 * ```ts
 * marginSummary({
 *   usdc: "-30000",
 *   positions: [{ market: "BTC-USD", size: "1", entryPrice: "30000", oraclePrice: "32000", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" }],
 * });
 * // { equity: "2000", freeCollateral: "400", marginUsage: "0.8", leverage: "16", positions: [{ market: "BTC-USD", notional: "32000", unrealizedPnl: "2000", liquidationPrice: "30927.8350515463918" }] }
 * ```
 */
export function marginSummary(input: {
  usdc: string;
  positions: readonly MarginPositionInput[];
}): MarginSummary {
  const usdc = new Exact(input.usdc, "usdc");
  let equity = usdc;
  let notional = new Exact(0);
  let initial: Exact | undefined = new Exact(0);
  let maintenance: Exact | undefined = new Exact(0);
  const value = (p: MarginPositionInput) => new Exact(p.size, "size").times(p.oraclePrice);
  for (const p of input.positions) {
    const size = new Exact(p.size, "size");
    equity = equity.plus(value(p));
    const n = size.abs().times(p.oraclePrice);
    notional = notional.plus(n);
    initial =
      p.initialMarginFraction === undefined ? undefined : initial?.plus(n.times(p.initialMarginFraction));
    maintenance =
      p.maintenanceMarginFraction === undefined
        ? undefined
        : maintenance?.plus(n.times(p.maintenanceMarginFraction));
  }
  const ratio = (a: Exact) => a.dividedBy(equity, QUOTIENT).toFixed();
  const positive = equity.greaterThan(0);
  return {
    equity: equity.toFixed(),
    freeCollateral: initial === undefined ? undefined : equity.minus(initial).toFixed(),
    marginUsage: initial === undefined || !positive ? undefined : ratio(initial),
    leverage: positive ? ratio(notional) : undefined,
    positions: input.positions.map((p) => {
      const size = new Exact(p.size, "size");
      return {
        market: p.market,
        notional: size.abs().times(p.oraclePrice).toFixed(),
        unrealizedPnl:
          p.entryPrice === undefined
            ? undefined
            : new Exact(p.oraclePrice).minus(p.entryPrice).times(size).toFixed(),
        liquidationPrice: liquidationPrice(p, equity.minus(value(p)), maintenance),
      };
    }),
  };
}

/**
 * Solves equity(price) = maintenance(price) for one position, all else fixed:
 * rest + size × price = otherMaintenance + |size| × price × mmf.
 */
function liquidationPrice(
  p: MarginPositionInput,
  restEquity: Exact,
  totalMaintenance: Exact | undefined,
): string | undefined {
  if (totalMaintenance === undefined || p.maintenanceMarginFraction === undefined) return undefined;
  const size = new Exact(p.size, "size");
  if (size.isZero()) return undefined;
  const own = size.abs().times(p.oraclePrice).times(p.maintenanceMarginFraction);
  const otherMaintenance = totalMaintenance.minus(own);
  const slope = size.minus(size.abs().times(p.maintenanceMarginFraction));
  if (slope.isZero()) return undefined;
  const price = otherMaintenance.minus(restEquity).dividedBy(slope, QUOTIENT);
  return price.greaterThan(0) ? price.toFixed() : undefined;
}
