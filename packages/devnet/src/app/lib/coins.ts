/**
 * Coins and decimal coins as the Cosmos SDK validates and prints them, and the minimum-gas-price
 * fee check of its mempool (`checkTxFeeWithValidatorMinGasPrices`).
 */
import { DevnetError } from "../../devnet-error.js";

/** A bank coin with an exact amount. */
export interface Coin {
  readonly denom: string;
  readonly amount: bigint;
}

/** A decimal coin (a gas price): `numerator / 10^scale` per unit of gas. */
export interface DecCoin {
  readonly denom: string;
  readonly numerator: bigint;
  readonly scale: number;
}

const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

/** True for a denom the SDK accepts (`[a-zA-Z][a-zA-Z0-9/:._-]{2,127}`). */
export function isValidDenom(denom: string): boolean {
  return DENOM.test(denom);
}

/** Parses a wire amount ("12345") strictly: decimal digits only, no sign, no leading "+". */
export function parseAmount(text: string): bigint | undefined {
  if (!/^[0-9]+$/.test(text) || text.length > 78) return undefined;
  return BigInt(text);
}

/** Prints coins as the SDK does: `"10uusdc,5aperpx"` in the order given; empty coins print "". */
export function coinsToString(coins: readonly Coin[]): string {
  return coins.map((coin) => `${coin.amount}${coin.denom}`).join(",");
}

/**
 * The SDK's `Coins.Validate`: denoms valid, sorted ascending, no duplicates, every amount positive.
 * Returns the reason, or undefined when valid. Empty coins are valid.
 */
export function validateCoins(coins: readonly Coin[]): string | undefined {
  for (let i = 0; i < coins.length; i++) {
    const coin = coins[i] as Coin;
    if (!isValidDenom(coin.denom)) return `invalid denom: ${coin.denom}`;
    if (coin.amount <= 0n) return `coin ${coin.amount}${coin.denom} amount is not positive`;
    const previous = coins[i - 1];
    if (previous !== undefined) {
      if (previous.denom === coin.denom) return `duplicate denomination ${coin.denom}`;
      if (previous.denom > coin.denom) return `denomination ${coin.denom} is not sorted`;
    }
  }
  return undefined;
}

/** The amount of `denom` in `coins` (0 when absent). */
export function amountOf(coins: readonly Coin[], denom: string): bigint {
  for (const coin of coins) if (coin.denom === denom) return coin.amount;
  return 0n;
}

/** Sorts by denom and drops zero amounts (`sdk.NewCoins` without its panics). */
export function normalizeCoins(coins: readonly Coin[]): Coin[] {
  return coins
    .filter((coin) => coin.amount !== 0n)
    .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
}

/**
 * Parses decimal coins such as `"0.025uusdc,25000000000aperpx"` (the node's `minimum-gas-prices`).
 * Throws on malformed input.
 */
export function parseDecCoins(text: string): DecCoin[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part) => {
    const match = /^([0-9]+)(?:\.([0-9]+))?([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(part.trim());
    if (match === null) throw new DevnetError("malformed", `invalid decimal coin: ${part}`);
    const whole = match[1] as string;
    const fraction = match[2] ?? "";
    return { denom: match[3] as string, numerator: BigInt(whole + fraction), scale: fraction.length };
  });
}

/** Prints a decimal coin with the SDK's 18 decimal places (`"0.025000000000000000uusdc"`). */
export function decCoinToString(coin: DecCoin): string {
  const scaled = coin.numerator * 10n ** BigInt(18 - coin.scale);
  const text = scaled.toString().padStart(19, "0");
  return `${text.slice(0, -18)}.${text.slice(-18)}${coin.denom}`;
}

/** `ceil(price × gasLimit)` for each price, sorted by denom, zero amounts dropped. */
export function requiredFees(prices: readonly DecCoin[], gasLimit: bigint): Coin[] {
  return normalizeCoins(
    prices.map((price) => {
      const divisor = 10n ** BigInt(price.scale);
      const product = price.numerator * gasLimit;
      return { denom: price.denom, amount: (product + divisor - 1n) / divisor };
    }),
  );
}

/**
 * The SDK's `IsAnyGTE(fee, required)`: true when some denom of `fee` is required with a non-zero
 * amount and the fee pays at least that much of it.
 */
export function isAnyGte(fee: readonly Coin[], required: readonly Coin[]): boolean {
  for (const coin of fee) {
    const needed = amountOf(required, coin.denom);
    if (needed !== 0n && coin.amount >= needed) return true;
  }
  return false;
}

/**
 * The mempool fee check: undefined when the fee pays `gasLimit × price` in at least one of the
 * minimum gas price denoms (or when nothing is required), else the SDK's log context
 * `"insufficient fees; got: X required: Y"`.
 */
export function checkMinGasPrices(
  fee: readonly Coin[],
  gasLimit: bigint,
  minGasPrices: readonly DecCoin[],
): string | undefined {
  const required = requiredFees(minGasPrices, gasLimit);
  if (required.length === 0 || isAnyGte(fee, required)) return undefined;
  return `insufficient fees; got: ${coinsToString(fee)} required: ${coinsToString(required)}`;
}
