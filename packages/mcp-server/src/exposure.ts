import { Exact } from "@perpx/core";
import type { TradingLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

/**
 * An order, or an order in flight or resting, as exposure counts it: the whole size may fill at
 * its limit (or worst) price.
 *
 * @example
 * ```ts
 * const order: PendingOrder = { ticker: "BTC-USD", side: "BUY", size: "0.006", price: "65325", reduceOnly: false };
 * ```
 */
export interface PendingOrder {
  /** The market. */
  ticker: string;
  /** Buy or sell. */
  side: "BUY" | "SELL";
  /** Base units that may still fill. */
  size: string;
  /** The limit or worst price, USD. */
  price: string;
  /** Reduce-only orders never grow a position. */
  reduceOnly: boolean;
  /** Its client id, when known: an order both held in flight and listed open counts once. */
  clientId?: number;
}

/**
 * What the exposure check reads of the account, under its reservation lock.
 *
 * @example
 * ```ts
 * const account: AccountExposure = { position: "0", otherNotional: "0", equity: "900", loss: "0", openOrders: [] };
 * ```
 */
export interface AccountExposure {
  /** The signed position in the order's market (base units, negative short). */
  position: string;
  /** The notional of the positions in other markets, USD. */
  otherNotional: string;
  /** The subaccount's equity, USD. */
  equity: string;
  /** The day's loss so far (see `dayLoss`), USD. */
  loss: string;
  /** The subaccount's resting orders (their unfilled size). */
  openOrders: readonly PendingOrder[];
}

/**
 * An order in flight as the exposure check counts it: a pending order that may rest (an open
 * order) and that may lose `lossBudget` at once.
 *
 * @example
 * ```ts
 * const inFlight: InFlightExposure = { ticker: "BTC-USD", side: "BUY", size: "0.006", price: "65325", reduceOnly: false, mayRest: false, lossBudget: "1.95" };
 * ```
 */
export interface InFlightExposure extends PendingOrder {
  /** Whether it may rest on the book. */
  mayRest: boolean;
  /** What it may lose at once against the oracle, USD. */
  lossBudget: string;
}

/**
 * A figure for a message: at most 8 decimals, no trailing zeros, rounded up (each is refused for
 * being above a limit), so it is never shown at or below the limit it broke.
 */
const shown = (value: Exact) => value.toDecimalPlaces(8, "ceil").toFixed();

const refuse = (limit: keyof TradingLimits, message: string, facts: Record<string, unknown> = {}) =>
  new ToolFailure("RISK_LIMIT", message, { limit, ...facts });

/**
 * The loss an order may realise at once: how far its limit (or worst) price is from the oracle
 * against it, times its size; 0 for a price at or better than the oracle.
 *
 * @param order - the side, size and price.
 * @param oracle - the oracle price, USD.
 * @returns the loss, USD, exact.
 *
 * @example
 * ```ts
 * lossBudget({ side: "BUY", size: "0.01", price: "65325" }, "65000"); // "3.25"
 * lossBudget({ side: "SELL", size: "0.01", price: "65325" }, "65000"); // "0"
 * ```
 */
export function lossBudget(
  order: { side: "BUY" | "SELL"; size: string; price: string },
  oracle: string,
): string {
  const against = new Exact(order.price).minus(oracle).times(order.side === "BUY" ? 1 : -1);
  return Exact.max(0, against).times(order.size).toFixed();
}

/**
 * The exposure checks an order passes before it is signed, against the account's position, its
 * resting orders and every other order of the account still in flight (`held`), each at its whole
 * size: max position notional (the position if every order on this order's side fills, at the
 * oracle), max leverage, max open orders (resting orders and orders in flight that may rest) and
 * the daily-loss budget (the day's loss, plus what every order in flight and this one may lose at
 * once). An order that only reduces the worst-case position (a reduce-only one always) is not held
 * to the position and leverage limits, and a reduce-only one not to the loss budget. Exact: an
 * order exactly at a limit passes.
 *
 * @param order - the order, with the oracle price the check uses.
 * @param account - the account as read under the lock.
 * @param held - the account's orders in flight.
 * @param limits - the limits in force.
 * @returns nothing; throws at the first limit the order would break.
 * @throws {ToolFailure} RISK_LIMIT naming the limit (`facts.limit`), with the figures in the message.
 *
 * @example
 * ```ts
 * const limits = resolveLimits({ maxPositionNotional: "1000" });
 * const account: AccountExposure = { position: "0", otherNotional: "0", equity: "900", loss: "0", openOrders: [] };
 * const order = { ticker: "BTC-USD", side: "BUY" as const, size: "0.006", price: "65325", oracle: "65000", reduceOnly: false };
 * checkExposure(order, account, [], limits); // passes: 390 USD
 * const inFlight: InFlightExposure = { ...order, mayRest: false, lossBudget: "1.95" };
 * checkExposure(order, account, [inFlight, inFlight], limits); // throws ToolFailure (1170 USD with the two in flight)
 * ```
 */
export function checkExposure(
  order: PendingOrder & { oracle: string },
  account: AccountExposure,
  held: readonly InFlightExposure[],
  limits: TradingLimits,
): void {
  // An order both held and listed open counts once: as its reservation (its whole size, since its
  // fills may not be in the position yet), and as one open order.
  const key = (o: PendingOrder) => `${o.ticker} ${o.clientId}`;
  const heldKeys = new Set(held.filter((h) => h.clientId !== undefined).map(key));
  const listedKeys = new Set(account.openOrders.map(key));
  const listedOnly = account.openOrders.filter((o) => o.clientId === undefined || !heldKeys.has(key(o)));
  const pending: PendingOrder[] = [...held, ...listedOnly].filter((p) => !p.reduceOnly);
  const sign = order.side === "BUY" ? 1 : -1;
  const sameSide = pending
    .filter((p) => p.ticker === order.ticker && p.side === order.side)
    .reduce((n, p) => n.plus(p.size), new Exact(0));
  const base = new Exact(account.position).plus(sameSide.times(sign));
  const after = base.plus(new Exact(order.size).times(sign));
  if (!order.reduceOnly && after.abs().greaterThan(base.abs())) {
    const notional = after.abs().times(order.oracle);
    if (notional.greaterThan(limits.maxPositionNotional)) {
      throw refuse(
        "maxPositionNotional",
        `the ${order.ticker} position could reach ${shown(notional)} USD (position ${account.position}, ${sameSide.toFixed()} more on the ${order.side} side in flight or resting, this order ${order.size}, at the oracle ${order.oracle}), above the limit maxPositionNotional ${limits.maxPositionNotional} USD`,
        { worstPositionNotional: shown(notional) },
      );
    }
    const elsewhere = pending
      .filter((p) => p.ticker !== order.ticker)
      .reduce((n, p) => n.plus(new Exact(p.size).times(p.price)), new Exact(0));
    const exposure = notional.plus(account.otherNotional).plus(elsewhere);
    const equity = new Exact(account.equity);
    if (exposure.greaterThan(equity.times(limits.maxLeverage))) {
      throw refuse(
        "maxLeverage",
        `the exposure could reach ${shown(exposure)} USD with the orders in flight or resting, on an equity of ${account.equity} USD: above the limit maxLeverage ${limits.maxLeverage}x`,
      );
    }
  }
  const open = account.openOrders.length + held.filter((h) => h.mayRest && !listedKeys.has(key(h))).length;
  if (open >= limits.maxOpenOrders) {
    throw refuse(
      "maxOpenOrders",
      `the subaccount has ${open} open orders (resting, or in flight and may rest); the limit maxOpenOrders is ${limits.maxOpenOrders}`,
    );
  }
  if (!order.reduceOnly) {
    const inFlight = held.reduce((n, h) => n.plus(h.lossBudget), new Exact(0));
    const worst = new Exact(account.loss).plus(inFlight).plus(lossBudget(order, order.oracle));
    if (worst.greaterThan(limits.maxDailyLoss)) {
      throw refuse(
        "maxDailyLoss",
        `the day's loss could reach ${shown(worst)} USD (${account.loss} so far, ${shown(inFlight)} at risk in flight, ${lossBudget(order, order.oracle)} for this order), above the limit maxDailyLoss ${limits.maxDailyLoss} USD`,
      );
    }
  }
}
