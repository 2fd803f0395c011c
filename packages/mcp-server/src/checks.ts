import type { TradingLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

/**
 * What the pre-trade checks read: the order as the agent asked it, the market and the account.
 *
 * @example
 * ```ts
 * const facts: OrderFacts = { ticker: "BTC-USD", side: "BUY", size: 0.01, price: 65000, oracle: 65010, marketStatus: "ACTIVE", reduceOnly: false, position: 0, otherNotional: 0, equity: 1000, openOrders: 0, breakerTripped: false };
 * ```
 */
export interface OrderFacts {
  /** The market. */
  ticker: string;
  /** Buy or sell. */
  side: "BUY" | "SELL";
  /** The size in base units. */
  size: number;
  /** The limit price, or a MARKET order's worst price. */
  price: number;
  /** The oracle price. */
  oracle: number;
  /** The market's status (`ACTIVE`, ...). */
  marketStatus: string;
  /** Whether the order is reduce-only. */
  reduceOnly: boolean;
  /** The signed position in this market now (base units, negative short). */
  position: number;
  /** The notional of the positions in other markets, USD. */
  otherNotional: number;
  /** The subaccount's equity, USD. */
  equity: number;
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

const fmt = (n: number) => String(Number(n.toPrecision(12)));

/**
 * The pre-trade checks in order: market allowlist, market status, price band against the oracle,
 * max order notional, max position notional, max leverage, max open orders, the daily-loss breaker
 * (after it trips only reduce-only orders), and reduce-only consistency. Appends each check that
 * passed to `passed`, and throws at the first that fails.
 *
 * @throws {ToolFailure} MARKET_NOT_ALLOWED, MARKET_NOT_ACTIVE, PRICE_BAND, RISK_LIMIT,
 * INSUFFICIENT_COLLATERAL, CIRCUIT_BREAKER or REDUCE_ONLY.
 *
 * @example
 * ```ts
 * const passed: CheckResult[] = [];
 * runOrderChecks(facts, limits, passed);
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
  const distanceBps = (Math.abs(facts.price - facts.oracle) / facts.oracle) * 10_000;
  if (distanceBps > limits.priceBandBps) {
    throw new ToolFailure(
      "PRICE_BAND",
      `the price ${fmt(facts.price)} is ${fmt(distanceBps)} bps from the oracle ${fmt(facts.oracle)}; at most ${limits.priceBandBps} bps`,
    );
  }
  pass("price_band");
  const notional = facts.size * facts.price;
  if (notional > Number(limits.maxOrderNotional)) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the order's notional ${fmt(notional)} USD is above the limit ${limits.maxOrderNotional} USD`,
      { limit: "maxOrderNotional" },
    );
  }
  pass("max_order_notional");
  const signed = facts.side === "BUY" ? facts.size : -facts.size;
  const after = facts.position + signed;
  const positionNotional = Math.abs(after) * facts.oracle;
  const grows = Math.abs(after) > Math.abs(facts.position);
  if (grows && positionNotional > Number(limits.maxPositionNotional)) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the ${facts.ticker} position would be ${fmt(positionNotional)} USD, above the limit ${limits.maxPositionNotional} USD`,
      { limit: "maxPositionNotional" },
    );
  }
  pass("max_position_notional");
  if (grows) {
    if (facts.equity <= 0) {
      throw new ToolFailure("INSUFFICIENT_COLLATERAL", "the subaccount has no equity: deposit USDC first");
    }
    const leverage = (facts.otherNotional + positionNotional) / facts.equity;
    if (leverage > Number(limits.maxLeverage)) {
      throw new ToolFailure(
        "RISK_LIMIT",
        `leverage would be ${fmt(leverage)}x, above the limit ${limits.maxLeverage}x`,
        { limit: "maxLeverage" },
      );
    }
  }
  pass("max_leverage");
  if (facts.openOrders >= limits.maxOpenOrders) {
    throw new ToolFailure(
      "RISK_LIMIT",
      `the subaccount has ${facts.openOrders} open orders; the limit is ${limits.maxOpenOrders}`,
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
    const opposite = facts.position !== 0 && Math.sign(signed) !== Math.sign(facts.position);
    if (!opposite || facts.size > Math.abs(facts.position)) {
      throw new ToolFailure(
        "REDUCE_ONLY",
        `a reduce-only ${facts.side} of ${fmt(facts.size)} would not only reduce the ${facts.ticker} position ${fmt(facts.position)}`,
      );
    }
  }
  pass("reduce_only");
}
