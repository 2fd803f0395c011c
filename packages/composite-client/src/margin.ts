import { Exact, type ExactPrecision } from "@perpx/core";

/** The precision of the quotients (ratios, liquidation prices): 18 significant digits. */
const QUOTIENT: ExactPrecision = { significantDigits: 18, rounding: "halfExpand" };
/** The decimals of a quote quantum (1e-6 USDC), the unit the chain counts collateral in. */
const QUOTE_DECIMALS = 6;

/** A position's value as the chain counts it: size × price, truncated toward zero to a quote quantum. */
function chainNotional(size: Exact, price: string): Exact {
  return size.times(price).toDecimalPlaces(QUOTE_DECIMALS, "trunc");
}

/** A margin requirement as the chain rounds it: notional × fraction, rounded up to a quote quantum. */
function chainMargin(notional: Exact, fraction: string | Exact): Exact {
  return notional.times(fraction).toDecimalPlaces(QUOTE_DECIMALS, "ceil");
}

/**
 * A position's maintenance margin as the chain rounds it: a fraction of the margin at the market's
 * own initial margin fraction, each rounded up (`⌈⌈n × imf⌉ × mmf / imf⌉`); without that fraction,
 * `⌈n × mmf⌉`.
 */
function chainMaintenance(notional: Exact, mmf: string, baseImf: string | undefined): Exact {
  if (baseImf === undefined || new Exact(baseImf, "baseInitialMarginFraction").isZero()) {
    return chainMargin(notional, mmf);
  }
  // the chain's maintenance fraction is ppm of the initial margin: exact at 6 decimals
  const share = new Exact(mmf, "maintenanceMarginFraction").dividedBy(baseImf, {
    scale: 6,
    rounding: "ceil",
  });
  return chainMargin(chainMargin(notional, baseImf), share);
}

/**
 * A market's open interest and its liquidity tier's caps, as {@link marginSummary} takes them:
 * decimal strings, as the indexer's perpetual market gives them (`openInterest`,
 * `openInterestLowerCap`, `openInterestUpperCap`).
 *
 * @example
 * ```ts
 * const openInterest: OpenInterestInput = { size: "12.5", lowerCap: "500000", upperCap: "1000000" };
 * ```
 */
export interface OpenInterestInput {
  /** The open interest: the total size of the market's long positions, in the base asset. */
  size: string;
  /** The tier's lower cap, USDC: up to it the initial margin fraction is the tier's. */
  lowerCap: string;
  /** The tier's upper cap, USDC: from it the initial margin fraction is 100%; `"0"` turns scaling off. */
  upperCap: string;
}

/**
 * The initial margin fraction the chain charges a position (dYdX v4's
 * `GetAdjustedInitialMarginQuoteQuantums`, as the devnet's perpetuals and subaccounts modules
 * compute it): the market's own fraction (`baseInitialMarginFraction`) raised linearly toward 100%
 * as the value of its open interest (size × oracle price, truncated to a quote quantum) goes from
 * the tier's lower cap to its upper cap, the raise rounded down to a millionth; 100% at the upper
 * cap or above; no raise with an upper cap of 0. Then the larger of that and
 * `initialMarginFraction` (which holds the account's leverage choice). Without `openInterest` or
 * `baseInitialMarginFraction`, `initialMarginFraction` as given.
 *
 * @param p - the position's oracle price, fractions and market's open interest.
 * @returns the fraction as a decimal string (`"0.525"`), undefined when `initialMarginFraction` is.
 * @example
 * ```ts
 * effectiveInitialMarginFraction({
 *   oraclePrice: "1",
 *   initialMarginFraction: "0.05",
 *   baseInitialMarginFraction: "0.05",
 *   openInterest: { size: "3000000", lowerCap: "1000000", upperCap: "5000000" },
 * }); // "0.525": halfway between the caps
 * ```
 */
export function effectiveInitialMarginFraction(
  p: Pick<
    MarginPositionInput,
    "oraclePrice" | "initialMarginFraction" | "baseInitialMarginFraction" | "openInterest"
  >,
): string | undefined {
  if (p.initialMarginFraction === undefined) return undefined;
  const chosen = new Exact(p.initialMarginFraction, "initialMarginFraction");
  const adjusted = adjustedFraction(p);
  return adjusted?.greaterThan(chosen) ? adjusted.toFixed() : chosen.toFixed();
}

/** The market's own fraction raised by its open interest; undefined when nothing raises it. */
function adjustedFraction(
  p: Pick<MarginPositionInput, "oraclePrice" | "baseInitialMarginFraction" | "openInterest">,
): Exact | undefined {
  const oi = p.openInterest;
  if (oi === undefined || p.baseInitialMarginFraction === undefined) return undefined;
  const upper = new Exact(oi.upperCap, "openInterestUpperCap");
  if (upper.isZero()) return undefined;
  const lower = new Exact(oi.lowerCap, "openInterestLowerCap");
  // the chain values the open interest as a position: truncated to a quote quantum (never below 0)
  const value = chainNotional(new Exact(oi.size, "openInterest"), p.oraclePrice);
  if (!value.greaterThan(lower)) return undefined;
  if (value.greaterThanOrEqualTo(upper)) return new Exact(1);
  const base = new Exact(p.baseInitialMarginFraction, "baseInitialMarginFraction");
  // base + (1 − base) × (value − lower) / (upper − lower), the raise rounded down to a ppm
  const raise = new Exact(1)
    .minus(base)
    .times(value.minus(lower))
    .dividedBy(upper.minus(lower), { scale: 6, rounding: "floor" });
  return base.plus(raise);
}

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
  /**
   * The market's own initial margin fraction (its liquidity tier's, before a leverage choice): the
   * chain's maintenance margin is a share of the margin at it, rounded up twice. Without it the
   * maintenance margin is `maintenanceMarginFraction` of the notional, rounded up once.
   */
  baseInitialMarginFraction?: string | undefined;
  /**
   * The market's open interest and its tier's caps: between the caps the chain raises the initial
   * margin fraction (see {@link effectiveInitialMarginFraction}; it needs
   * `baseInitialMarginFraction`). Without it no raise is counted.
   */
  openInterest?: OpenInterestInput | undefined;
}

/**
 * One position's figures, in USD.
 *
 * @example
 * ```ts
 * const summary = marginSummary({ usdc: "1000", positions: [{ market: "BTC-USD", size: "0.1", entryPrice: "60000", oraclePrice: "65000", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" }] });
 * const { notional, value, unrealizedPnl }: MarginPosition = summary.positions[0]!;
 * [notional, value, unrealizedPnl]; // ["6500", "6500", "500"]
 * ```
 */
export interface MarginPosition {
  /** The market's ticker. */
  market: string;
  /** |size| × oracle price, truncated to a quote quantum (1e-6 USDC) as the chain counts it. */
  notional: string;
  /** size × oracle price (negative for a short), truncated toward zero to a quote quantum, as the chain counts it. */
  value: string;
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
  /** USDC plus every position's value (signed size × oracle price, truncated to a quote quantum). */
  equity: string;
  /**
   * Equity minus every position's initial margin (its notional × fraction, rounded up to a quote
   * quantum): the chain's free collateral to the quantum (undefined when a fraction is unknown).
   */
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
 * and estimated liquidation price.
 *
 * Equity and free collateral are the chain's, to the quote quantum (1e-6 USDC), by its integer
 * rules (dYdX v4's `GetNetNotional` and `GetMarginRequirements`), position by position: a
 * position's value is size × oracle price **truncated toward zero** to a quote quantum (a short of
 * -1.5 quantums counts -1); its initial margin is its truncated absolute notional × the initial
 * margin fraction **rounded up** to a quote quantum, the fraction raised by the market's open
 * interest between its tier's caps when {@link MarginPositionInput.openInterest} is given (see
 * {@link effectiveInitialMarginFraction}); its maintenance margin is
 * `⌈⌈notional × base fraction⌉ × maintenance share⌉` (see
 * {@link MarginPositionInput.baseInitialMarginFraction}). Equity is USDC plus the values, free
 * collateral is equity minus the initial margins: an amount up to it is what the chain lets the
 * account commit (withdraw, transfer, or hold as new margin), one quantum more is refused. With
 * USDC at whole quantums (as the chain and the indexer write it) both have at most 6 decimals.
 * Everything else is exact decimal arithmetic ({@link Exact}); the ratios and the liquidation price
 * are quotients, rounded once to 18 significant digits (half away from zero), and the liquidation
 * price is an estimate (a continuous solve).
 *
 * @param input - the USDC balance and each position's size, oracle price, margin fractions and
 *   market's open interest, as human decimal strings.
 * @returns equity, free collateral, margin usage and leverage as exact human decimal strings.
 * @example
 * ```ts
 * marginSummary({
 *   usdc: "-30000",
 *   positions: [{ market: "BTC-USD", size: "1", entryPrice: "30000", oraclePrice: "32000", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" }],
 * });
 * // { equity: "2000", freeCollateral: "400", marginUsage: "0.8", leverage: "16", positions: [{ market: "BTC-USD", notional: "32000", value: "32000", unrealizedPnl: "2000", liquidationPrice: "30927.8350515463918" }] }
 * marginSummary({
 *   usdc: "100",
 *   positions: [{ market: "BTC-USD", size: "0.001", entryPrice: undefined, oraclePrice: "65000.12390", initialMarginFraction: "0.05", maintenanceMarginFraction: "0.03" }],
 * }).freeCollateral; // "161.750116": 65.000123 (truncated from 65.0001239) − 3.250007 (rounded up from 3.25000615)
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
  // per position, as the chain: its value truncated, its margins rounded up, then summed
  const figures = input.positions.map((p) => {
    const value = chainNotional(new Exact(p.size, "size"), p.oraclePrice);
    const n = value.abs();
    return {
      value,
      notional: n,
      maintenance:
        p.maintenanceMarginFraction === undefined
          ? undefined
          : chainMaintenance(n, p.maintenanceMarginFraction, p.baseInitialMarginFraction),
    };
  });
  for (const [i, p] of input.positions.entries()) {
    const f = figures[i] as (typeof figures)[number];
    equity = equity.plus(f.value);
    notional = notional.plus(f.notional);
    const imf = effectiveInitialMarginFraction(p);
    initial = imf === undefined ? undefined : initial?.plus(chainMargin(f.notional, imf));
    maintenance = f.maintenance === undefined ? undefined : maintenance?.plus(f.maintenance);
  }
  const ratio = (a: Exact) => a.dividedBy(equity, QUOTIENT).toFixed();
  const positive = equity.greaterThan(0);
  return {
    equity: equity.toFixed(),
    freeCollateral: initial === undefined ? undefined : equity.minus(initial).toFixed(),
    marginUsage: initial === undefined || !positive ? undefined : ratio(initial),
    leverage: positive ? ratio(notional) : undefined,
    positions: input.positions.map((p, i) => {
      const size = new Exact(p.size, "size");
      const f = figures[i] as (typeof figures)[number];
      return {
        market: p.market,
        notional: f.notional.toFixed(),
        value: f.value.toFixed(),
        unrealizedPnl:
          p.entryPrice === undefined
            ? undefined
            : new Exact(p.oraclePrice).minus(p.entryPrice).times(size).toFixed(),
        liquidationPrice: liquidationPrice(p, equity.minus(f.value), f.maintenance, maintenance),
      };
    }),
  };
}

/**
 * Solves equity(price) = maintenance(price) for one position, all else fixed (a continuous
 * estimate: the chain's rounding of this position's value and margin at that price is ignored):
 * rest + size × price = otherMaintenance + |size| × price × mmf.
 */
function liquidationPrice(
  p: MarginPositionInput,
  restEquity: Exact,
  own: Exact | undefined,
  totalMaintenance: Exact | undefined,
): string | undefined {
  if (totalMaintenance === undefined || own === undefined || p.maintenanceMarginFraction === undefined) {
    return undefined;
  }
  const size = new Exact(p.size, "size");
  if (size.isZero()) return undefined;
  const otherMaintenance = totalMaintenance.minus(own);
  const slope = size.minus(size.abs().times(p.maintenanceMarginFraction));
  if (slope.isZero()) return undefined;
  const price = otherMaintenance.minus(restEquity).dividedBy(slope, QUOTIENT);
  return price.greaterThan(0) ? price.toFixed() : undefined;
}
