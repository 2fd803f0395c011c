import { InvalidArgumentError } from "@perpx/errors";
import {
  type DecimalInput,
  type ExactDecimal,
  formatExact,
  type IntegerInput,
  parseDecimal,
  parseInteger,
  showInput,
  toGrid,
} from "./decimal.js";
import { type AmountKind, InvalidAmountError } from "./errors.js";
import { NATIVE_DECIMALS, QUOTE_ATOMIC_RESOLUTION, USDC_DECIMALS } from "./networks.js";

export type { DecimalInput, IntegerInput } from "./decimal.js";

const U64_MAX = (1n << 64n) - 1n;
const U32_MAX = (1n << 32n) - 1n;
/** Exponents beyond this (in absolute value) are refused as parameters. */
const MAX_EXPONENT = 100;

/**
 * What the conversions need to know about a market: the perpetual's `atomicResolution` and the clob
 * pair's `quantumConversionExponent`, `stepBaseQuantums` and `subticksPerTick`. A generated
 * `clob.ClobPair` spread together with its perpetual's `atomicResolution` fits, and so does the
 * indexer's perpetual market object (which carries all four).
 *
 * @example
 * ```ts
 * const btc: ClobPairParams = {
 *   atomicResolution: -10,
 *   quantumConversionExponent: -9,
 *   stepBaseQuantums: 1_000_000n,
 *   subticksPerTick: 100_000,
 * };
 * ```
 */
export interface ClobPairParams {
  /** The perpetual's atomic resolution: 1 base quantum is 10^atomicResolution coins. */
  readonly atomicResolution: number;
  /** The clob pair's quantum conversion exponent. */
  readonly quantumConversionExponent: number;
  /** The size increment (and minimum size) in base quantums. */
  readonly stepBaseQuantums: IntegerInput;
  /** The tick size in subticks. */
  readonly subticksPerTick: IntegerInput;
}

/**
 * An oracle price as the prices module stores it: `price × 10^exponent` USD.
 *
 * @example
 * ```ts
 * const btc: MarketPrice = { price: 2_868_819_524n, exponent: -5 }; // $28,688.19524
 * ```
 */
export interface MarketPrice {
  /** The integer price (uint64). */
  readonly price: IntegerInput;
  /** The power of ten it is scaled by. */
  readonly exponent: number;
}

/**
 * How to round a size that is not a multiple of the step. `"exact"` refuses it.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * sizeToQuantums("0.00015", btc, { rounding: "down" }); // 1_000_000n
 * ```
 */
export type SizeRounding = "exact" | "down" | "up";

/**
 * How to round a price that is not on the tick grid. `"exact"` refuses it; `"nearest"` rounds
 * half a tick up.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * priceToSubticks("28688.5", btc, { rounding: "nearest" }); // 2_868_900_000n
 * ```
 */
export type PriceRounding = "exact" | "down" | "up" | "nearest";

/**
 * How to round an amount with more decimals than its unit has. `down`/`up` go toward −∞/+∞;
 * `nearest` breaks ties away from zero. `"exact"` refuses it.
 *
 * @example
 * ```ts
 * usdcToQuoteQuantums("1.0000005", { rounding: "nearest" }); // 1_000_001n
 * ```
 */
export type AmountRounding = "exact" | "down" | "up" | "nearest";

/**
 * Options of {@link sizeToQuantums}.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * sizeToQuantums("0.00011", btc, { rounding: "up" }); // 2_000_000n
 * ```
 */
export interface SizeOptions {
  /**
   * What to do with a size that is not a multiple of the step. A size that is zero, negative, or
   * rounds to zero is refused in every mode.
   * @default "exact"
   */
  rounding?: SizeRounding | undefined;
}

/**
 * Options of {@link priceToSubticks} and {@link oraclePriceToSubticks}.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * priceToSubticks("28688.7", btc, { rounding: "down" }); // 2_868_800_000n
 * ```
 */
export interface PriceOptions {
  /**
   * What to do with a price that is off the grid. A price that is zero, negative, or rounds to
   * zero is refused in every mode.
   * @default "exact"
   */
  rounding?: PriceRounding | undefined;
}

/**
 * Options of the amount conversions ({@link decimalToUnits} and its USDC and native forms).
 *
 * @example
 * ```ts
 * usdcToQuoteQuantums("0.0000001", { rounding: "up" }); // 1n
 * ```
 */
export interface AmountOptions {
  /**
   * What to do with an amount that has more decimals than the unit.
   * @default "exact"
   */
  rounding?: AmountRounding | undefined;
}

interface CheckedParams {
  atomicResolution: number;
  quantumConversionExponent: number;
  step: bigint;
  tick: bigint;
}

function checkExponent(value: unknown, argument: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || Math.abs(value) > MAX_EXPONENT) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer within ±${MAX_EXPONENT}, got ${String(value)}`,
    );
  }
  return value;
}

function positive(value: IntegerInput, max: bigint, argument: string): bigint {
  const n = parseInteger(value, argument);
  if (n <= 0n || n > max) throw new InvalidArgumentError(argument, `must be in [1, ${max}], got ${n}`);
  return n;
}

/**
 * The checked parameters of the last clob pair object seen, with the raw values they came from: a
 * client converts many amounts with one market's parameters, so each conversion checks and parses
 * them once, and a cache entry is used only while the object still holds the same values.
 */
const checkedCache = new WeakMap<object, { raw: readonly unknown[]; checked: CheckedParams }>();

function checkParams(params: ClobPairParams): CheckedParams {
  if (typeof params !== "object" || params === null) {
    throw new InvalidArgumentError("clobPair", "expected an object with the clob pair's parameters");
  }
  const { atomicResolution, quantumConversionExponent, stepBaseQuantums, subticksPerTick } = params;
  const cached = checkedCache.get(params);
  if (
    cached !== undefined &&
    cached.raw[0] === atomicResolution &&
    cached.raw[1] === quantumConversionExponent &&
    cached.raw[2] === stepBaseQuantums &&
    cached.raw[3] === subticksPerTick
  ) {
    return cached.checked;
  }
  const checked: CheckedParams = {
    atomicResolution: checkExponent(atomicResolution, "clobPair.atomicResolution"),
    quantumConversionExponent: checkExponent(quantumConversionExponent, "clobPair.quantumConversionExponent"),
    step: positive(stepBaseQuantums, U64_MAX, "clobPair.stepBaseQuantums"),
    tick: positive(subticksPerTick, U32_MAX, "clobPair.subticksPerTick"),
  };
  checkedCache.set(params, {
    raw: [atomicResolution, quantumConversionExponent, stepBaseQuantums, subticksPerTick],
    checked,
  });
  return checked;
}

function checkRounding<T extends string>(
  rounding: T | undefined,
  allowed: readonly T[],
  argument: string,
): T {
  const mode = rounding ?? ("exact" as T);
  if (!allowed.includes(mode)) {
    throw new InvalidArgumentError(argument, `must be one of ${allowed.join(", ")}, got ${String(rounding)}`);
  }
  return mode;
}

/** Exponent that turns a human price into subticks: subticks = price × 10^shift. */
function priceShift(p: CheckedParams): number {
  return p.atomicResolution - p.quantumConversionExponent - QUOTE_ATOMIC_RESOLUTION;
}

/**
 * Lands a positive value on the grid of multiples of `unit` base units (which convert to human
 * units with `toHuman`), or throws naming the value and the nearest valid ones.
 */
function onGrid(
  input: DecimalInput,
  value: ExactDecimal,
  shift: number,
  unit: bigint,
  rounding: "exact" | "down" | "up" | "nearest",
  kind: AmountKind,
  unitName: string,
  toHuman: (units: bigint) => string,
): bigint {
  const shown = showInput(input);
  if (value.coefficient <= 0n) {
    throw new InvalidAmountError({ kind, value: shown, reason: "not-positive", problem: "must be positive" });
  }
  const grid = toGrid(value, shift, unit, rounding);
  // Formatted only for an error's message.
  const minimum = () => toHuman(unit);
  if (rounding === "exact" ? grid.below === 0n : grid.rounded === 0n) {
    throw new InvalidAmountError({
      kind,
      value: shown,
      reason: "below-minimum",
      problem: `below the minimum ${kind}, one ${unitName} (${minimum()})`,
      nearest: [minimum()],
    });
  }
  const tooLarge = () =>
    new InvalidAmountError({
      kind,
      value: shown,
      reason: "out-of-range",
      problem: `is above the uint64 maximum of ${toHuman(U64_MAX)}`,
    });
  if (grid.below * unit > U64_MAX) throw tooLarge();
  if (rounding === "exact" && !grid.exact) {
    throw new InvalidAmountError({
      kind,
      value: shown,
      reason: "off-grid",
      problem: `not a multiple of the ${unitName} ${minimum()}`,
      nearest: [grid.below * unit, (grid.below + 1n) * unit].filter((n) => n <= U64_MAX).map(toHuman),
    });
  }
  const result = grid.rounded * unit;
  if (result > U64_MAX) throw tooLarge();
  return result;
}

/**
 * Converts a human size (in coins of the base asset) to base quantums, a multiple of the clob
 * pair's step: `quantums = size × 10^(−atomicResolution)`.
 *
 * @param size - the size, e.g. `"0.01"` BTC.
 * @param clobPair - the market's parameters.
 * @param options - `rounding`: `"exact"` (default) refuses a size that is not a multiple of the
 *   step; `"down"` and `"up"` round to the step in that direction.
 * @returns the quantums.
 * @throws {InvalidAmountError} when the size is not a decimal, is zero or negative, is below one
 *   step (under `"exact"` or `"down"`: it is never raised to the minimum silently), is off the
 *   step grid under `"exact"` (naming the nearest valid sizes), or exceeds uint64.
 * @throws {InvalidArgumentError} when the clob pair's parameters or the rounding mode are invalid.
 *
 * @example
 * ```ts
 * import { sizeToQuantums } from "@perpx/core";
 *
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * sizeToQuantums("0.01", btc); // 100_000_000n
 * sizeToQuantums("0.00015", btc, { rounding: "down" }); // 1_000_000n
 * sizeToQuantums("0.00015", btc); // throws InvalidAmountError: nearest 0.0001 and 0.0002
 * ```
 */
export function sizeToQuantums(
  size: DecimalInput,
  clobPair: ClobPairParams,
  options: SizeOptions = {},
): bigint {
  const p = checkParams(clobPair);
  const rounding = checkRounding<SizeRounding>(options.rounding, ["exact", "down", "up"], "options.rounding");
  return onGrid(
    size,
    parseDecimal(size, "size"),
    -p.atomicResolution,
    p.step,
    rounding,
    "size",
    "step",
    (q) => formatExact(q, p.atomicResolution),
  );
}

/**
 * Converts base quantums to a human size in coins: `size = quantums × 10^atomicResolution`, as an
 * exact decimal string. Signed (negative quantums are short positions); not checked against the step.
 *
 * @param quantums - the quantums.
 * @param clobPair - the market's parameters (only `atomicResolution` is used).
 * @returns the exact size, e.g. `"0.01"`.
 * @throws {InvalidArgumentError} when `quantums` is not an integer.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * quantumsToSize(100_000_000n, btc); // "0.01"
 * ```
 */
export function quantumsToSize(
  quantums: IntegerInput,
  clobPair: Pick<ClobPairParams, "atomicResolution">,
): string {
  const atomicResolution = checkExponent(clobPair?.atomicResolution, "clobPair.atomicResolution");
  return formatExact(parseInteger(quantums, "quantums"), atomicResolution);
}

/**
 * Converts a human price (USD per coin) to subticks, a multiple of the clob pair's
 * `subticksPerTick`: `subticks = price × 10^(atomicResolution − quantumConversionExponent + 6)`.
 *
 * @param price - the price, e.g. `"28688"`.
 * @param clobPair - the market's parameters.
 * @param options - `rounding`: `"exact"` (default) refuses an off-tick price; `"down"`, `"up"` and
 *   `"nearest"` (half a tick rounds up) land it on the tick grid.
 * @returns the subticks.
 * @throws {InvalidAmountError} when the price is not a decimal, is zero or negative, is below one
 *   tick (under `"exact"`) or rounds to zero, is off-tick under `"exact"` (naming the nearest valid
 *   prices), or exceeds uint64.
 * @throws {InvalidArgumentError} when the clob pair's parameters or the rounding mode are invalid.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * priceToSubticks("28688", btc); // 2_868_800_000n
 * priceToSubticks("28688.4", btc, { rounding: "nearest" }); // 2_868_800_000n
 * ```
 */
export function priceToSubticks(
  price: DecimalInput,
  clobPair: ClobPairParams,
  options: PriceOptions = {},
): bigint {
  const p = checkParams(clobPair);
  const rounding = checkRounding<PriceRounding>(
    options.rounding,
    ["exact", "down", "up", "nearest"],
    "options.rounding",
  );
  const shift = priceShift(p);
  return onGrid(price, parseDecimal(price, "price"), shift, p.tick, rounding, "price", "tick", (s) =>
    formatExact(s, -shift),
  );
}

/**
 * Converts subticks to a human price (USD per coin):
 * `price = subticks × 10^(quantumConversionExponent − atomicResolution − 6)`, as an exact decimal
 * string. Not checked against the tick.
 *
 * @param subticks - the subticks.
 * @param clobPair - the market's parameters (`atomicResolution` and `quantumConversionExponent` are used).
 * @returns the exact price, e.g. `"28688"`.
 * @throws {InvalidArgumentError} when `subticks` is not an integer or the parameters are invalid.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * subticksToPrice(2_868_800_000n, btc); // "28688"
 * ```
 */
export function subticksToPrice(
  subticks: IntegerInput,
  clobPair: Pick<ClobPairParams, "atomicResolution" | "quantumConversionExponent">,
): string {
  const atomicResolution = checkExponent(clobPair?.atomicResolution, "clobPair.atomicResolution");
  const qce = checkExponent(clobPair?.quantumConversionExponent, "clobPair.quantumConversionExponent");
  return formatExact(parseInteger(subticks, "subticks"), qce - atomicResolution + QUOTE_ATOMIC_RESOLUTION);
}

/**
 * The smallest size increment (and minimum size) of a market, in coins.
 *
 * @param clobPair - the market's parameters.
 * @returns e.g. `"0.0001"` for BTC-USD.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * stepSize(btc); // "0.0001"
 * ```
 */
export function stepSize(clobPair: ClobPairParams): string {
  const p = checkParams(clobPair);
  return formatExact(p.step, p.atomicResolution);
}

/**
 * The price increment (and minimum price) of a market, in USD.
 *
 * @param clobPair - the market's parameters.
 * @returns e.g. `"1"` for BTC-USD.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * tickSize(btc); // "1"
 * ```
 */
export function tickSize(clobPair: ClobPairParams): string {
  const p = checkParams(clobPair);
  return formatExact(p.tick, -priceShift(p));
}

/**
 * The quote quantums (10^-6 USDC) a fill of `quantums` at `subticks` is worth, as the chain computes
 * it: `subticks × quantums × 10^quantumConversionExponent`, rounded down.
 *
 * @param fill - `subticks` and `quantums`, both non-negative.
 * @param clobPair - the market's parameters (`quantumConversionExponent` is used).
 * @returns the notional in quote quantums.
 * @throws {InvalidArgumentError} when an input is negative or not an integer.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * notionalQuoteQuantums({ subticks: 2_868_800_000n, quantums: 100_000_000n }, btc); // 286_880_000n ($286.88)
 * ```
 */
export function notionalQuoteQuantums(
  fill: { readonly subticks: IntegerInput; readonly quantums: IntegerInput },
  clobPair: Pick<ClobPairParams, "quantumConversionExponent">,
): bigint {
  const qce = checkExponent(clobPair?.quantumConversionExponent, "clobPair.quantumConversionExponent");
  const subticks = parseInteger(fill.subticks, "subticks");
  const quantums = parseInteger(fill.quantums, "quantums");
  if (subticks < 0n) throw new InvalidArgumentError("subticks", `must not be negative, got ${subticks}`);
  if (quantums < 0n) throw new InvalidArgumentError("quantums", `must not be negative, got ${quantums}`);
  const product = subticks * quantums;
  return qce >= 0 ? product * 10n ** BigInt(qce) : product / 10n ** BigInt(-qce);
}

/**
 * The human price (USD) of an oracle price: `price × 10^exponent`, exact.
 *
 * @param marketPrice - the oracle's `price` and `exponent`.
 * @returns e.g. `"28688.19524"`.
 * @throws {InvalidArgumentError} when `price` is not an integer or `exponent` is invalid.
 *
 * @example
 * ```ts
 * marketPriceToPrice({ price: 2_868_819_524n, exponent: -5 }); // "28688.19524"
 * ```
 */
export function marketPriceToPrice(marketPrice: MarketPrice): string {
  const e = checkExponent(marketPrice?.exponent, "marketPrice.exponent");
  return formatExact(parseInteger(marketPrice.price, "marketPrice.price"), e);
}

/**
 * The oracle's integer price for a human price at a given exponent: `price × 10^(−exponent)`.
 *
 * @param price - the human price, e.g. `"28688.19524"`.
 * @param exponent - the market's price exponent, e.g. `-5`.
 * @param options - `rounding` when the price has more decimals than the exponent allows.
 * @returns the integer price (uint64).
 * @throws {InvalidAmountError} when the price is not positive, rounds to zero, needs rounding under
 *   `"exact"`, or exceeds uint64.
 *
 * @example
 * ```ts
 * priceToMarketPrice("28688.19524", -5); // 2_868_819_524n
 * ```
 */
export function priceToMarketPrice(
  price: DecimalInput,
  exponent: number,
  options: AmountOptions = {},
): bigint {
  const e = checkExponent(exponent, "exponent");
  const rounding = checkRounding<AmountRounding>(
    options.rounding,
    ["exact", "down", "up", "nearest"],
    "options.rounding",
  );
  return onGrid(price, parseDecimal(price, "price"), -e, 1n, rounding, "price", "price unit", (units) =>
    formatExact(units, e),
  );
}

/**
 * The oracle price in subticks of a market (not aligned to the tick; used to compare with order
 * prices): `price × 10^(exponent − quantumConversionExponent + atomicResolution + 6)`.
 *
 * @param marketPrice - the oracle's `price` and `exponent`.
 * @param clobPair - the market's parameters.
 * @param options - `rounding` when the result is fractional (`"exact"` by default).
 * @returns the subticks.
 * @throws {InvalidAmountError} when the result is not an integer under `"exact"`, is zero, or exceeds uint64.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * oraclePriceToSubticks({ price: 2_868_819_524n, exponent: -5 }, btc); // 2_868_819_524n
 * ```
 */
export function oraclePriceToSubticks(
  marketPrice: MarketPrice,
  clobPair: ClobPairParams,
  options: PriceOptions = {},
): bigint {
  const p = checkParams(clobPair);
  const e = checkExponent(marketPrice?.exponent, "marketPrice.exponent");
  const rounding = checkRounding<PriceRounding>(
    options.rounding,
    ["exact", "down", "up", "nearest"],
    "options.rounding",
  );
  const price = parseInteger(marketPrice.price, "marketPrice.price");
  const value: ExactDecimal = { coefficient: price, exponent: e };
  const shift = priceShift(p);
  return onGrid(formatExact(price, e), value, shift, 1n, rounding, "price", "subtick", (s) =>
    formatExact(s, -shift),
  );
}

/**
 * Converts a human amount to integer base units of a token with `decimals` decimals:
 * `amount × 10^decimals`. Signed: negative amounts convert to negative units.
 *
 * @param amount - e.g. `"12.5"`.
 * @param decimals - the token's decimals, 0 to 100.
 * @param options - `rounding` when the amount has more decimals than the token.
 * @returns the base units.
 * @throws {InvalidAmountError} when the amount is not a decimal, or needs rounding under `"exact"`
 *   (naming the nearest valid amounts).
 *
 * @example
 * ```ts
 * decimalToUnits("12.5", 6); // 12_500_000n
 * decimalToUnits("0.0000001", 6, { rounding: "up" }); // 1n
 * ```
 */
export function decimalToUnits(amount: DecimalInput, decimals: number, options: AmountOptions = {}): bigint {
  const d = checkDecimals(decimals);
  const rounding = checkRounding<AmountRounding>(
    options.rounding,
    ["exact", "down", "up", "nearest"],
    "options.rounding",
  );
  const value = parseDecimal(amount, "amount");
  const grid = toGrid(value, d, 1n, rounding);
  if (rounding === "exact" && !grid.exact) {
    throw new InvalidAmountError({
      kind: "amount",
      value: showInput(amount),
      reason: "off-grid",
      problem: `has more than ${d} decimals`,
      nearest: [formatExact(grid.below, -d), formatExact(grid.below + 1n, -d)],
    });
  }
  return grid.rounded;
}

/**
 * Formats integer base units of a token with `decimals` decimals as an exact decimal string.
 *
 * @param units - the base units (signed).
 * @param decimals - the token's decimals, 0 to 100.
 * @returns e.g. `"12.5"`.
 * @throws {InvalidArgumentError} when `units` is not an integer.
 *
 * @example
 * ```ts
 * unitsToDecimal(12_500_000n, 6); // "12.5"
 * ```
 */
export function unitsToDecimal(units: IntegerInput, decimals: number): string {
  return formatExact(parseInteger(units, "units"), -checkDecimals(decimals));
}

function checkDecimals(decimals: number): number {
  if (
    typeof decimals !== "number" ||
    !Number.isInteger(decimals) ||
    decimals < 0 ||
    decimals > MAX_EXPONENT
  ) {
    throw new InvalidArgumentError(
      "decimals",
      `must be an integer in [0, ${MAX_EXPONENT}], got ${String(decimals)}`,
    );
  }
  return decimals;
}

/**
 * Converts a USDC amount to quote quantums (= `uusdc`, 6 decimals).
 *
 * @param amount - e.g. `"286.88"`.
 * @param options - `rounding` when the amount has more than 6 decimals.
 * @returns the quote quantums.
 * @throws {InvalidAmountError} as {@link decimalToUnits}.
 *
 * @example
 * ```ts
 * usdcToQuoteQuantums("286.88"); // 286_880_000n
 * ```
 */
export function usdcToQuoteQuantums(amount: DecimalInput, options: AmountOptions = {}): bigint {
  return decimalToUnits(amount, USDC_DECIMALS, options);
}

/**
 * Formats quote quantums (= `uusdc`) as a USDC amount.
 *
 * @param quoteQuantums - the quote quantums (signed).
 * @returns e.g. `"286.88"`.
 *
 * @example
 * ```ts
 * quoteQuantumsToUsdc(286_880_000n); // "286.88"
 * ```
 */
export function quoteQuantumsToUsdc(quoteQuantums: IntegerInput): string {
  return unitsToDecimal(quoteQuantums, USDC_DECIMALS);
}

/**
 * Converts a native token amount (PERPX) to base units (`aperpx`, 18 decimals).
 *
 * @param amount - e.g. `"1.5"`.
 * @param options - `rounding` when the amount has more than 18 decimals.
 * @returns the base units.
 * @throws {InvalidAmountError} as {@link decimalToUnits}.
 *
 * @example
 * ```ts
 * nativeToBaseUnits("1.5"); // 1_500_000_000_000_000_000n
 * ```
 */
export function nativeToBaseUnits(amount: DecimalInput, options: AmountOptions = {}): bigint {
  return decimalToUnits(amount, NATIVE_DECIMALS, options);
}

/**
 * Formats native base units (`aperpx`) as a PERPX amount.
 *
 * @param units - the base units (signed).
 * @returns e.g. `"1.5"`.
 *
 * @example
 * ```ts
 * baseUnitsToNative(1_500_000_000_000_000_000n); // "1.5"
 * ```
 */
export function baseUnitsToNative(units: IntegerInput): string {
  return unitsToDecimal(units, NATIVE_DECIMALS);
}
