import { Exact } from "@perpx/core";
import type { TradingLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

/**
 * What the pre-trade checks read: the order as the agent asked it, the market and the account.
 * Amounts are decimal strings, compared exactly.
 *
 * @example
 * ```ts
 * const facts: OrderFacts = { ticker: "BTC-USD", side: "BUY", size: "0.01", price: "65000", oracle: "65010", marketStatus: "ACTIVE", reduceOnly: false, position: "0", otherNotional: "0", equity: "1000", freeCollateral: "1000", initialMarginFraction: "0.05", openOrders: 0, breakerTripped: false };
 * ```
 */
export interface OrderFacts {
  /** The market. */
  ticker: string;
  /** Buy or sell. */
  side: "BUY" | "SELL";
  /** The size in base units. */
  size: string;
  /** The limit price, or a MARKET order's worst price. */
  price: string;
  /** The oracle price. */
  oracle: string;
  /** The market's status (`ACTIVE`, ...). */
  marketStatus: string;
  /** Whether the order is reduce-only. */
  reduceOnly: boolean;
  /** The signed position in this market now (base units, negative short). */
  position: string;
  /** The notional of the positions in other markets, USD. */
  otherNotional: string;
  /** The subaccount's equity, USD. */
  equity: string;
  /** The subaccount's free collateral, USD (undefined: not known, the chain judges). */
  freeCollateral: string | undefined;
  /** The market's initial margin fraction (undefined: not known, the chain judges). */
  initialMarginFraction: string | undefined;
  /** Open orders of the subaccount now. */
  openOrders: number;
  /** Whether the daily-loss breaker tripped. */
  breakerTripped: boolean;
}

/**
 * One check as tool results and the audit log report it.
 *
 * @example
 * ```ts
 * const check: CheckResult = { check: "market_allowlist", passed: true };
 * ```
 */
export interface CheckResult {
  /** The check's name. */
  check: string;
  /** Whether it passed. */
  passed: boolean;
}

/**
 * A figure for a message: at most 8 decimals, no trailing zeros, rounded up (every figure shown is
 * one refused for being above a limit or an amount needed), so it is never shown at or below the
 * limit it broke, and the free collateral named as needed is enough.
 */
const shown = (value: Exact) => value.toDecimalPlaces(8, "ceil").toFixed();
/** A ratio for a message, to 8 decimals rounded up as {@link shown} (∞ over zero). */
const ratio = (a: Exact, b: Exact) =>
  b.isZero() ? "∞" : a.dividedBy(b, { scale: 8, rounding: "ceil" }).toFixed();

/**
 * The price an order's notional is counted at (`maxOrderNotional`, `confirmAboveNotional`, and the
 * size of a `notionalUsd` order): the most it may trade at per unit. A BUY never pays above its
 * limit (or worst) price; a SELL never gets less than its limit, and one under the oracle crosses
 * the bids up to about the oracle, so it counts at the higher of the two. A SELL priced under the
 * oracle is thus never a smaller order than the same size sold at the oracle.
 *
 * @param order - the side, the limit (or worst) price and the oracle price, USD.
 * @returns the price, USD.
 *
 * @example
 * ```ts
 * notionalPrice({ side: "BUY", price: "64000", oracle: "65000" }); // "64000"
 * notionalPrice({ side: "SELL", price: "64000", oracle: "65000" }); // "65000"
 * notionalPrice({ side: "SELL", price: "66000", oracle: "65000" }); // "66000"
 * ```
 */
export function notionalPrice(order: { side: "BUY" | "SELL"; price: string; oracle: string }): string {
  if (order.side === "BUY") return order.price;
  return new Exact(order.price).lessThan(order.oracle) ? order.oracle : order.price;
}

/**
 * The position after an order fills, and whether it is larger in size than before.
 *
 * @example
 * ```ts
 * positionAfter({ side: "SELL", size: "0.3", position: "0.1" }); // { after: "-0.2", grows: true }
 * ```
 */
export function positionAfter(order: { side: "BUY" | "SELL"; size: string; position: string }): {
  after: string;
  grows: boolean;
} {
  const before = new Exact(order.position);
  const after = order.side === "BUY" ? before.plus(order.size) : before.minus(order.size);
  return { after: after.toFixed(), grows: after.abs().greaterThan(before.abs()) };
}

/**
 * The pre-trade checks in order: market allowlist, market status, price band against the oracle,
 * max order notional (the size at `notionalPrice`: a BUY at its price, a SELL at the higher
 * of its price and the oracle), max position notional, max leverage, free collateral for the initial margin
 * of what the order adds, max open orders, the daily-loss breaker (after it trips only reduce-only
 * orders), and reduce-only consistency. Amounts are compared exactly: an order exactly at a limit
 * passes. Appends each check that passed to `passed`, and throws at the first that fails.
 *
 * @param facts - the order and the account and market state it is checked against.
 * @param limits - the effective trading limits.
 * @param passed - receives each check that passed, in order.
 *
 * @throws {ToolFailure} MARKET_NOT_ALLOWED, MARKET_NOT_ACTIVE, PRICE_BAND, RISK_LIMIT,
 * INSUFFICIENT_COLLATERAL, CIRCUIT_BREAKER or REDUCE_ONLY.
 *
 * @example
 * ```ts
 * const facts: OrderFacts = { ticker: "BTC-USD", side: "BUY", size: "0.01", price: "65000", oracle: "65000", marketStatus: "ACTIVE", reduceOnly: false, position: "0", otherNotional: "0", equity: "1000", freeCollateral: "1000", initialMarginFraction: "0.05", openOrders: 0, breakerTripped: false };
 * const passed: CheckResult[] = [];
 * runOrderChecks(facts, resolveLimits({ maxOrderNotional: "650" }), passed);
 * passed.length; // 10
 * runOrderChecks({ ...facts, size: "0.0100001" }, resolveLimits({ maxOrderNotional: "650" }), []); // throws ToolFailure
 * ```
 */
export function runOrderChecks(facts: OrderFacts, limits: TradingLimits, passed: CheckResult[]): void {
  const pass = (check: string) => passed.push({ check, passed: true });
  if (limits.allowedMarkets !== undefined && !limits.allowedMarkets.includes(facts.ticker)) {
    throw new ToolFailure(
      "MARKET_NOT_ALLOWED",
      `${facts.ticker} is not among the markets this server trades`,
      {
        allowedMarkets: limits.allowedMarkets,
      },
    );
  }
  pass("market_allowlist");
  if (facts.marketStatus !== "ACTIVE") {
    throw new ToolFailure("MARKET_NOT_ACTIVE", `${facts.ticker} is ${facts.marketStatus}, not ACTIVE`);
  }
  pass("market_status");
  const price = new Exact(facts.price);
  const oracle = new Exact(facts.oracle);
  const distance = price.minus(oracle).abs();
  // |price - oracle| / oracle <= band / 10_000, without a division.
  if (distance.times(10_000).greaterThan(oracle.times(limits.priceBandBps))) {
    throw new ToolFailure(
      "PRICE_BAND",
      `the price ${facts.price} is ${ratio(distance.times(10_000), oracle)} bps from the oracle ${facts.oracle}; at most ${limits.priceBandBps} bps`,
    );
  }
  pass("price_band");
  const notional = new Exact(notionalPrice(facts)).times(facts.size);
  if (notional.greaterThan(limits.maxOrderNotional)) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the order's notional ${shown(notional)} USD is above the limit maxOrderNotional ${limits.maxOrderNotional} USD`,
      { limit: "maxOrderNotional" },
    );
  }
  pass("max_order_notional");
  const { after, grows } = positionAfter(facts);
  const positionNotional = new Exact(after).abs().times(oracle);
  if (grows && positionNotional.greaterThan(limits.maxPositionNotional)) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the ${facts.ticker} position would be ${shown(positionNotional)} USD, above the limit maxPositionNotional ${limits.maxPositionNotional} USD`,
      { limit: "maxPositionNotional" },
    );
  }
  pass("max_position_notional");
  const equity = new Exact(facts.equity);
  if (grows) {
    if (equity.lessThanOrEqualTo(0)) {
      throw new ToolFailure("INSUFFICIENT_COLLATERAL", "the subaccount has no equity: deposit USDC first");
    }
    const exposure = positionNotional.plus(facts.otherNotional);
    // exposure / equity <= maxLeverage, without a division.
    if (exposure.greaterThan(equity.times(limits.maxLeverage))) {
      throw new ToolFailure(
        "RISK_LIMIT",
        `leverage would be ${ratio(exposure, equity)}x, above the limit maxLeverage ${limits.maxLeverage}x`,
        { limit: "maxLeverage" },
      );
    }
  }
  pass("max_leverage");
  if (grows && facts.freeCollateral !== undefined && facts.initialMarginFraction !== undefined) {
    const added = new Exact(after).abs().minus(new Exact(facts.position).abs());
    const required = added.times(price).times(facts.initialMarginFraction);
    if (required.greaterThan(facts.freeCollateral)) {
      throw new ToolFailure(
        "INSUFFICIENT_COLLATERAL",
        `the order needs ${shown(required)} USDC of free collateral (initial margin), the subaccount has ${facts.freeCollateral}`,
        { required: shown(required), freeCollateral: facts.freeCollateral },
      );
    }
  }
  pass("free_collateral");
  if (facts.openOrders >= limits.maxOpenOrders) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the subaccount has ${facts.openOrders} open orders; the limit maxOpenOrders is ${limits.maxOpenOrders}`,
      { limit: "maxOpenOrders" },
    );
  }
  pass("max_open_orders");
  if (facts.breakerTripped && !facts.reduceOnly) {
    throw new ToolFailure(
      "CIRCUIT_BREAKER",
      "the daily-loss breaker tripped: only reduce-only orders and cancels until the UTC day ends",
    );
  }
  pass("daily_loss_breaker");
  if (facts.reduceOnly) {
    const position = new Exact(facts.position);
    const opposite = !position.isZero() && (facts.side === "BUY") === position.isNegative();
    if (!opposite || new Exact(facts.size).greaterThan(position.abs())) {
      throw new ToolFailure(
        "REDUCE_ONLY",
        `a reduce-only ${facts.side} of ${facts.size} would not only reduce the ${facts.ticker} position ${facts.position}`,
      );
    }
  }
  pass("reduce_only");
}
