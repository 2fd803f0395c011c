/** Formatting values for the page: times, hashes, amounts in human units. */
import {
  baseUnitsToNative,
  Exact,
  NATIVE_DENOM,
  NATIVE_SYMBOL,
  quoteQuantumsToUsdc,
  USDC_DENOM,
} from "@perpx/core";

/** An ISO time, to the second, in UTC. */
export function time(value: Date | string | undefined): string {
  if (value === undefined) return "";
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime())
    ? String(value)
    : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A long hex string shortened for tables: head...tail. */
export function short(hash: string, keep = 8): string {
  return hash.length <= keep * 2 + 3 ? hash : `${hash.slice(0, keep)}...${hash.slice(-keep)}`;
}

/** A coin amount in human units: USDC and PERPX by their decimals, anything else as given. */
export function coin(amount: string | bigint, denom: string): string {
  if (denom === USDC_DENOM) return `${quoteQuantumsToUsdc(amount)} USDC`;
  if (denom === NATIVE_DENOM) return `${baseUnitsToNative(amount)} ${NATIVE_SYMBOL}`;
  return `${amount} ${denom}`;
}

/** The base asset of a market's ticker: `BTC` of `BTC-USD`. */
export function baseAsset(ticker: string): string {
  const dash = ticker.indexOf("-");
  return dash < 0 ? ticker : ticker.slice(0, dash);
}

/** A funding rate as a percentage with its sign, exact to 6 decimals (half away from zero). */
export function percent(rate: string): string {
  let value: Exact;
  try {
    value = new Exact(rate, "rate");
  } catch {
    return rate;
  }
  return `${value.times(100).toDecimalPlaces(6, "halfExpand")}%`;
}

/** The next funding time: the next whole hour (funding is paid hourly). */
export function nextFundingTime(now: Date): Date {
  const next = new Date(now.getTime());
  next.setUTCMinutes(0, 0, 0);
  next.setUTCHours(next.getUTCHours() + 1);
  return next;
}
