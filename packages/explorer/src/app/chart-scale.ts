/**
 * The candle chart's scales: price ticks at round steps (1, 2 or 5 times a power of ten) whose
 * labels are exact decimal strings, and time ticks at round UTC intervals. Positions on screen are
 * JS numbers (pixels); the labels people read are never rounded through one.
 */
import type { CandleResolution } from "@perpx/core/indexer";

/** A tick of the price axis: its exact label and its value for placing it. */
export interface PriceTick {
  readonly label: string;
  readonly value: number;
}

/** How long one candle of each resolution lasts, in milliseconds. */
export const RESOLUTION_MS: Readonly<Record<CandleResolution, number>> = {
  "1MIN": 60_000,
  "5MINS": 300_000,
  "15MINS": 900_000,
  "30MINS": 1_800_000,
  "1HOUR": 3_600_000,
  "4HOURS": 14_400_000,
  "1DAY": 86_400_000,
};

/** `units * 10^exp` as a decimal string (`12345, -2` is `123.45`). */
function decimal(units: bigint, exp: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (exp >= 0) digits += "0".repeat(exp);
  else {
    digits = digits.padStart(-exp + 1, "0");
    digits = `${digits.slice(0, exp)}.${digits.slice(exp)}`;
  }
  return `${negative ? "-" : ""}${digits}`;
}

/**
 * Round price ticks covering `[low, high]`, about `count` of them, at a step of 1, 2 or 5 times a
 * power of ten; every label is exact (`0.1 + 0.2` is labelled `0.3`).
 */
export function priceTicks(low: number, high: number, count = 5): PriceTick[] {
  if (!Number.isFinite(low) || !Number.isFinite(high) || high <= low || count < 1) return [];
  const rough = (high - low) / count;
  let exp = Math.floor(Math.log10(rough));
  const base = rough / 10 ** exp;
  // The round step nearest the rough one.
  let mantissa = 1n;
  if (base >= 7) {
    mantissa = 1n;
    exp += 1;
  } else if (base >= 3) mantissa = 5n;
  else if (base >= 1.5) mantissa = 2n;
  const step = Number(mantissa) * 10 ** exp;
  const ticks: PriceTick[] = [];
  // A hair of tolerance at both ends: 0.000123 / 0.000001 is 123.00000000000001 as a double.
  for (let k = BigInt(Math.ceil(low / step - 1e-9)); Number(k) * step <= high + step * 1e-9; k += 1n) {
    const label = decimal(k * mantissa, exp);
    ticks.push({ label, value: Number(label) });
  }
  return ticks;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
];

/** A tick of the time axis: its UTC label and its time in milliseconds. */
export interface TimeTick {
  readonly label: string;
  readonly ms: number;
}

/**
 * Time ticks over `[fromMs, toMs]` at the smallest round interval that gives at most `count` of
 * them: `HH:MM` (UTC) under a day, `MM-DD` from a day up.
 */
export function timeTicks(fromMs: number, toMs: number, count = 6): TimeTick[] {
  if (!(toMs > fromMs)) return [];
  const step = TIME_STEPS.find((s) => (toMs - fromMs) / s <= count) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const ticks: TimeTick[] = [];
  for (let ms = Math.ceil(fromMs / step) * step; ms <= toMs; ms += step) {
    const iso = new Date(ms).toISOString();
    ticks.push({ label: step >= DAY ? iso.slice(5, 10) : iso.slice(11, 16), ms });
  }
  return ticks;
}
