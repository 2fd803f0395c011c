import { Exact } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * The safety limits a server enforces on every order, in USD where they are amounts. A credential
 * may only tighten them (see {@link effectiveLimits}).
 *
 * @example
 * ```ts
 * const limits: TradingLimits = { ...DEFAULT_LIMITS, allowedMarkets: ["BTC-USD"], maxOrderNotional: "500" };
 * ```
 */
export interface TradingLimits {
  /** Tickers that may be traded; `undefined` allows every market. */
  allowedMarkets: readonly string[] | undefined;
  /** How far a limit price (or a MARKET order's worst price) may be from the oracle, in basis points. */
  priceBandBps: number;
  /**
   * The largest notional of one order: its size times the most it may trade at per unit (a BUY's
   * limit or worst price; a SELL's, or the oracle when that is higher).
   */
  maxOrderNotional: string;
  /** The largest notional of the position in one market after the order fills. */
  maxPositionNotional: string;
  /** The largest leverage (sum of position notionals over equity) after the order fills. */
  maxLeverage: string;
  /** The most open orders the subaccount may hold when placing one more. */
  maxOpenOrders: number;
  /** The largest equity drop since the UTC day's first reading; a larger one trips the breaker (then only reduce-only). */
  maxDailyLoss: string;
  /** Orders whose notional (counted as for `maxOrderNotional`) is above this need `confirm: true`. */
  confirmAboveNotional: string;
  /** The slippage of a MARKET order without `slippageBps`, and the most one may ask, in basis points. */
  defaultSlippageBps: number;
  /** The most basis points of slippage a MARKET order may ask. */
  maxSlippageBps: number;
  /** The most write-tool calls (place, cancel) a credential may make in any 60 s; more are refused with `RATE_LIMITED`. */
  maxWritesPerMinute: number;
}

/**
 * The limits of a server that sets none.
 *
 * @example
 * ```ts
 * DEFAULT_LIMITS.maxLeverage; // "5"
 * ```
 */
export const DEFAULT_LIMITS: Readonly<TradingLimits> = Object.freeze({
  allowedMarkets: undefined,
  priceBandBps: 1_000,
  maxOrderNotional: "10000",
  maxPositionNotional: "50000",
  maxLeverage: "5",
  maxOpenOrders: 50,
  maxDailyLoss: "1000",
  confirmAboveNotional: "5000",
  defaultSlippageBps: 50,
  maxSlippageBps: 500,
  maxWritesPerMinute: 60,
});

const NUMBER_FIELDS = [
  "priceBandBps",
  "maxOpenOrders",
  "defaultSlippageBps",
  "maxSlippageBps",
  "maxWritesPerMinute",
] as const;
const DECIMAL_FIELDS = [
  "maxOrderNotional",
  "maxPositionNotional",
  "maxLeverage",
  "maxDailyLoss",
  "confirmAboveNotional",
] as const;

function checkDecimal(field: string, value: string): void {
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value)) {
    throw new InvalidArgumentError(
      field,
      `must be a non-negative decimal string, got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * Server limits from partial options over {@link DEFAULT_LIMITS}, checked.
 *
 * @param partial - the limits to set; the others keep their defaults.
 * @returns the checked server limits.
 *
 * @throws {InvalidArgumentError} naming the field that is not a non-negative number.
 *
 * @example
 * ```ts
 * const limits = resolveLimits({ maxLeverage: "3" });
 * limits.maxOrderNotional; // "10000"
 * resolveLimits({ maxLeverage: "-1" }); // throws InvalidArgumentError
 * ```
 */
export function resolveLimits(partial: Partial<TradingLimits> = {}): TradingLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  for (const field of NUMBER_FIELDS) {
    if (!Number.isInteger(limits[field]) || limits[field] < 0) {
      throw new InvalidArgumentError(`limits.${field}`, "must be a non-negative integer");
    }
  }
  for (const field of DECIMAL_FIELDS) checkDecimal(`limits.${field}`, limits[field]);
  return limits;
}

const smaller = (a: string, b: string) => (new Exact(a).lessThanOrEqualTo(b) ? a : b);

/**
 * The limits of one credential: the server's, tightened by the credential's own (a credential can
 * narrow the market list and lower any amount, never loosen one).
 *
 * @param server - the server's limits.
 * @param tighter - the credential's own limits (only tightening ones apply).
 * @returns the limits of the credential.
 *
 * @example
 * ```ts
 * const server = resolveLimits({ maxOrderNotional: "500" });
 * effectiveLimits(server, { maxOrderNotional: "100" }).maxOrderNotional; // "100"
 * effectiveLimits(server, { maxOrderNotional: "900" }).maxOrderNotional; // "500": never loosened
 * ```
 */
export function effectiveLimits(server: TradingLimits, tighter: Partial<TradingLimits> = {}): TradingLimits {
  const own = resolveLimits({ ...server, ...tighter });
  const markets =
    server.allowedMarkets === undefined
      ? own.allowedMarkets
      : own.allowedMarkets === undefined
        ? server.allowedMarkets
        : own.allowedMarkets.filter((m) => server.allowedMarkets?.includes(m));
  return {
    allowedMarkets: markets,
    priceBandBps: Math.min(server.priceBandBps, own.priceBandBps),
    maxOrderNotional: smaller(server.maxOrderNotional, own.maxOrderNotional),
    maxPositionNotional: smaller(server.maxPositionNotional, own.maxPositionNotional),
    maxLeverage: smaller(server.maxLeverage, own.maxLeverage),
    maxOpenOrders: Math.min(server.maxOpenOrders, own.maxOpenOrders),
    maxDailyLoss: smaller(server.maxDailyLoss, own.maxDailyLoss),
    confirmAboveNotional: smaller(server.confirmAboveNotional, own.confirmAboveNotional),
    defaultSlippageBps: Math.min(server.defaultSlippageBps, own.defaultSlippageBps),
    maxSlippageBps: Math.min(server.maxSlippageBps, own.maxSlippageBps),
    maxWritesPerMinute: Math.min(server.maxWritesPerMinute, own.maxWritesPerMinute),
  };
}
