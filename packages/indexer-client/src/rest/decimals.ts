/**
 * Decimal strings as `Exact` (`@perpx/core`'s exact decimal), on request: the indexer's answers keep
 * every amount as a string; {@link withDecimals} turns the named fields of a row into `Exact`s,
 * typed precisely, and the `*_DECIMAL_FIELDS` lists name the amount fields of each row type.
 */

import { Exact } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * `T` with the fields `K` as `Exact` (keeping `null` and optionality).
 *
 * @example
 * ```ts
 * type Level = WithDecimals<{ price: string; size: string }, "price">; // { price: Exact; size: string }
 * ```
 */
export type WithDecimals<T, K extends keyof T> = {
  [F in keyof T]: F extends K ? (T[F] extends string ? Exact : Exclude<T[F], string> | Exact) : T[F];
};

/**
 * Converts the fields `fields` of `row` from decimal strings to exact `Exact`s; `null` and absent
 * fields stay as they are. The row is not modified.
 *
 * @param row - a response row.
 * @param fields - the decimal fields to convert.
 * @returns a copy with those fields as `Exact`.
 * @throws InvalidArgumentError naming the field when it is not a decimal string (a JSON number
 *   included: its digits may already be lost, and the type promises an `Exact`).
 * @example
 * ```ts
 * const level = withDecimals({ price: "65000.5", size: "0.10" }, ["price", "size"]);
 * level.price.plus("0.5").toString(); // "65001"
 * level.size.toFixed(); // "0.1"
 * ```
 */
export function withDecimals<T extends object, const K extends keyof T>(
  row: T,
  fields: readonly K[],
): WithDecimals<T, K> {
  const copy = { ...row } as Record<PropertyKey, unknown>;
  for (const field of fields) {
    const value = copy[field];
    if (value === null || value === undefined) continue;
    if (typeof value !== "string") {
      throw new InvalidArgumentError(
        String(field),
        typeof value === "number"
          ? `is a number (${value}), not a decimal string: a JSON number may have lost digits`
          : `is not a decimal string: got ${Array.isArray(value) ? "an array" : `a value of type ${typeof value}`}`,
      );
    }
    if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value)) {
      throw new InvalidArgumentError(String(field), `is not a decimal number: ${JSON.stringify(value)}`);
    }
    copy[field] = new Exact(value, String(field));
  }
  return copy as WithDecimals<T, K>;
}

/**
 * The amount fields of a perpetual market.
 *
 * @example
 * ```ts
 * PERPETUAL_MARKET_DECIMAL_FIELDS.includes("oraclePrice"); // true
 * ```
 */
export const PERPETUAL_MARKET_DECIMAL_FIELDS = [
  "oraclePrice",
  "priceChange24H",
  "volume24H",
  "nextFundingRate",
  "initialMarginFraction",
  "maintenanceMarginFraction",
  "openInterest",
  "tickSize",
  "stepSize",
  "openInterestLowerCap",
  "openInterestUpperCap",
  "baseOpenInterest",
  "defaultFundingRate1H",
] as const;

/**
 * The amount fields of a perpetual position.
 *
 * @example
 * ```ts
 * PERPETUAL_POSITION_DECIMAL_FIELDS.includes("exitPrice"); // true
 * ```
 */
export const PERPETUAL_POSITION_DECIMAL_FIELDS = [
  "size",
  "maxSize",
  "entryPrice",
  "exitPrice",
  "realizedPnl",
  "unrealizedPnl",
  "sumOpen",
  "sumClose",
  "netFunding",
] as const;

/**
 * The amount fields of an order.
 *
 * @example
 * ```ts
 * ORDER_DECIMAL_FIELDS; // ["size", "totalFilled", "price", "triggerPrice"]
 * ```
 */
export const ORDER_DECIMAL_FIELDS = ["size", "totalFilled", "price", "triggerPrice"] as const;

/**
 * The amount fields of a fill.
 *
 * @example
 * ```ts
 * FILL_DECIMAL_FIELDS.includes("fee"); // true
 * ```
 */
export const FILL_DECIMAL_FIELDS = [
  "price",
  "size",
  "fee",
  "affiliateRevShare",
  "builderFee",
  "orderRouterFee",
  "positionSizeBefore",
  "entryPriceBefore",
] as const;

/**
 * The amount fields of a trade, an order book level or an asset position.
 *
 * @example
 * ```ts
 * const trade = withDecimals({ id: "7b", price: "65000", size: "0.1" }, PRICE_SIZE_DECIMAL_FIELDS);
 * trade.price.times(trade.size).toString(); // "6500"
 * ```
 */
export const PRICE_SIZE_DECIMAL_FIELDS = ["price", "size"] as const;

/**
 * The amount fields of a candle.
 *
 * @example
 * ```ts
 * CANDLE_DECIMAL_FIELDS.includes("usdVolume"); // true
 * ```
 */
export const CANDLE_DECIMAL_FIELDS = [
  "low",
  "high",
  "open",
  "close",
  "baseTokenVolume",
  "usdVolume",
  "startingOpenInterest",
  "orderbookMidPriceOpen",
  "orderbookMidPriceClose",
] as const;

/**
 * The amount fields of a subaccount (its positions maps are rows of their own).
 *
 * @example
 * ```ts
 * SUBACCOUNT_DECIMAL_FIELDS; // ["equity", "freeCollateral"]
 * ```
 */
export const SUBACCOUNT_DECIMAL_FIELDS = ["equity", "freeCollateral"] as const;

/**
 * The amount fields of a PnL tick (historical or newer route).
 *
 * @example
 * ```ts
 * PNL_DECIMAL_FIELDS; // ["equity", "totalPnl", "netTransfers"]
 * ```
 */
export const PNL_DECIMAL_FIELDS = ["equity", "totalPnl", "netTransfers"] as const;

/**
 * The amount fields of a historical funding rate.
 *
 * @example
 * ```ts
 * FUNDING_DECIMAL_FIELDS; // ["rate", "price"]
 * ```
 */
export const FUNDING_DECIMAL_FIELDS = ["rate", "price"] as const;
