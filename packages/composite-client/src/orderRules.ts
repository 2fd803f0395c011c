import { InvalidOrderError, STATEFUL_ORDER_TIME_WINDOW_SECONDS } from "@perpx/core";
import type { PlaceOrderParams, TimeInForce } from "@perpx/node-client";

/**
 * An order as {@link checkChainRules} sees it: what the caller asked for and what the plan made of
 * it (the type, the time in force in force, the kind).
 *
 * @example
 * ```ts
 * const order: RuleCheckedOrder = { type: "LIMIT", kind: "long-term", timeInForce: undefined, asked: { reduceOnly: true } };
 * ```
 */
export interface RuleCheckedOrder {
  /** The order type. */
  type: string;
  /** The kind the plan chose. */
  kind: PlaceOrderParams["kind"];
  /** The time in force the order goes out with (undefined: GTC). */
  timeInForce: TimeInForce | undefined;
  /** What the caller asked for. */
  asked: {
    timeInForce?: TimeInForce | undefined;
    postOnly?: boolean | undefined;
    reduceOnly?: boolean | undefined;
    goodTil?: { blocks: number } | { seconds: number } | undefined;
  };
}

const MARKET_TYPES: ReadonlySet<string> = new Set(["MARKET", "STOP_MARKET", "TAKE_PROFIT_MARKET"]);

/**
 * Refuses, before anything is signed, the orders the chain's `MsgPlaceOrder` checks would refuse
 * with only what the client knows: fill-or-kill (deprecated, clob 48), post-only with another time
 * in force or on a market type, reduce-only on anything but an IOC order (clob 9003: a resting,
 * post-only or long-term order cannot be reduce-only), and a good-til time past the chain's 95-day
 * window. (An IOC order is always short-term here, so the chain's "no IOC long-term order", clob
 * 3002, cannot arise.)
 *
 * @param order - the planned order.
 * @throws {InvalidOrderError} naming the field (`timeInForce`, `postOnly`, `reduceOnly`, `goodTil.seconds`).
 *
 * @example
 * ```ts
 * checkChainRules({ type: "MARKET", kind: "short-term", timeInForce: "IOC", asked: { reduceOnly: true } }); // undefined: allowed
 * checkChainRules({ type: "LIMIT", kind: "long-term", timeInForce: undefined, asked: { reduceOnly: true } }); // throws InvalidOrderError
 * ```
 */
export function checkChainRules(order: RuleCheckedOrder): void {
  const { asked, type, kind, timeInForce } = order;
  if (asked.timeInForce === "FILL_OR_KILL") {
    throw new InvalidOrderError(
      "timeInForce",
      "FILL_OR_KILL is deprecated on the chain (clob 48): use IOC (fills what it can now, cancels the rest)",
    );
  }
  if (asked.postOnly) {
    if (asked.timeInForce !== undefined && asked.timeInForce !== "POST_ONLY") {
      throw new InvalidOrderError(
        "timeInForce",
        `a post-only order rests on the book; it cannot also be ${asked.timeInForce}`,
      );
    }
    if (MARKET_TYPES.has(type)) {
      throw new InvalidOrderError("postOnly", `a ${type} order takes liquidity; it cannot be post-only`);
    }
  }
  if (asked.reduceOnly && timeInForce !== "IOC") {
    const what =
      kind === "long-term"
        ? "a long-term order"
        : timeInForce === "POST_ONLY"
          ? "a post-only order"
          : `a ${timeInForce ?? "GTC"} ${kind} order`;
    throw new InvalidOrderError(
      "reduceOnly",
      `the chain takes reduce-only orders only as IOC (clob 9003), not ${what}: use a MARKET order, timeInForce "IOC", or a *_MARKET trigger order`,
    );
  }
  const seconds =
    asked.goodTil !== undefined && "seconds" in asked.goodTil ? asked.goodTil.seconds : undefined;
  if (seconds !== undefined && seconds > STATEFUL_ORDER_TIME_WINDOW_SECONDS) {
    throw new InvalidOrderError(
      "goodTil.seconds",
      `${seconds} is beyond the chain's window for stateful orders: at most ${STATEFUL_ORDER_TIME_WINDOW_SECONDS} (95 days)`,
    );
  }
}
