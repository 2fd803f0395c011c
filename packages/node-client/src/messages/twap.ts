import { type IntegerInput, InvalidOrderError } from "@perpx/core";
import type { clob } from "@perpx/proto";

/**
 * The chain's bounds on a TWAP order (`MsgPlaceOrder.ValidateBasic`): an interval of 30 s to 1 h,
 * a duration of 5 min to 24 h that the interval divides, a price tolerance below 1,000,000 ppm.
 *
 * @example
 * ```ts
 * TWAP_LIMITS.minIntervalSeconds; // 30
 * TWAP_LIMITS.maxDurationSeconds; // 86400
 * ```
 */
export const TWAP_LIMITS = {
  minIntervalSeconds: 30,
  maxIntervalSeconds: 3_600,
  minDurationSeconds: 300,
  maxDurationSeconds: 86_400,
  /** Exclusive: the tolerance is at most 999,999 ppm. */
  maxPriceTolerancePpm: 1_000_000,
} as const;

/**
 * The order flags of a TWAP's suborders: the chain places them with the TWAP's subaccount, client
 * id and clob pair, and these flags (nobody else may place them).
 *
 * @example
 * ```ts
 * TWAP_SUBORDER_FLAGS; // 256
 * ```
 */
export const TWAP_SUBORDER_FLAGS = 256;

/**
 * How a TWAP order runs: the chain splits it into `durationSeconds / intervalSeconds` suborders,
 * one every `intervalSeconds`, each a stateful order good for 3 s. A TWAP with a price places each
 * suborder at that limit; a market TWAP (subticks 0) at the oracle price moved by
 * `priceTolerancePpm` against the trader (up for a buy, down for a sell), rounded to a tick.
 *
 * @example
 * ```ts
 * // Five suborders, one a minute, each at most 1% worse than the oracle.
 * const twap: TwapParams = { durationSeconds: 300, intervalSeconds: 60, priceTolerancePpm: 10_000 };
 * ```
 */
export interface TwapParams {
  /** The whole run, seconds: 300 to 86,400, a multiple of `intervalSeconds`. */
  durationSeconds: number;
  /** The time between suborders, seconds: 30 to 3,600. */
  intervalSeconds: number;
  /**
   * How far from the oracle a market TWAP's suborders may trade, parts per million: 0 to 999,999.
   * @default 0
   */
  priceTolerancePpm?: number;
}

function integerIn(value: unknown, field: string, min: number, max: number, unit: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOrderError(
      field,
      `must be a whole number of ${unit} from ${min} to ${max}, got ${typeof value === "number" || typeof value === "string" ? JSON.stringify(value) : typeof value}`,
    );
  }
  return value;
}

/**
 * The number of suborders a TWAP runs: `durationSeconds / intervalSeconds`.
 *
 * @param twap - the TWAP's schedule (checked by {@link twapParametersOf} first).
 * @returns the number of legs.
 *
 * @example
 * ```ts
 * twapLegs({ durationSeconds: 300, intervalSeconds: 60 }); // 5
 * ```
 */
export function twapLegs(twap: Pick<TwapParams, "durationSeconds" | "intervalSeconds">): number {
  return Math.floor(twap.durationSeconds / twap.intervalSeconds);
}

/**
 * Checks a TWAP's parameters as the chain does and returns them in the chain's form. With the
 * order's size and its market's step, it also checks the chain's placement rule that each of the
 * `legs` suborders is at least one step (`quantums / legs ≥ stepBaseQuantums`).
 *
 * @param twap - the schedule and tolerance.
 * @param size - the order's `quantums` and its market's `stepBaseQuantums`, when known.
 * @returns the `TwapParameters` of the order (duration, interval, price tolerance).
 * @throws {InvalidOrderError} naming `twap`, `twap.durationSeconds`, `twap.intervalSeconds`,
 *   `twap.priceTolerancePpm` or `quantums`, before anything is signed.
 *
 * @example
 * ```ts
 * const parameters = twapParametersOf({ durationSeconds: 300, intervalSeconds: 60, priceTolerancePpm: 5_000 });
 * [parameters.duration, parameters.interval, parameters.priceTolerance]; // [300, 60, 5000]
 * twapParametersOf({ durationSeconds: 310, intervalSeconds: 60 }); // throws InvalidOrderError (twap.durationSeconds)
 * ```
 */
export function twapParametersOf(
  twap: TwapParams,
  size?: { quantums: bigint; stepBaseQuantums: IntegerInput },
): clob.TwapParameters {
  if (typeof twap !== "object" || twap === null) {
    throw new InvalidOrderError("twap", "a TWAP order needs { durationSeconds, intervalSeconds }");
  }
  const t = TWAP_LIMITS;
  const interval = integerIn(
    twap.intervalSeconds,
    "twap.intervalSeconds",
    t.minIntervalSeconds,
    t.maxIntervalSeconds,
    "seconds",
  );
  const duration = integerIn(
    twap.durationSeconds,
    "twap.durationSeconds",
    t.minDurationSeconds,
    t.maxDurationSeconds,
    "seconds",
  );
  if (duration % interval !== 0) {
    throw new InvalidOrderError(
      "twap.durationSeconds",
      `must be a multiple of twap.intervalSeconds (${interval}), got ${duration}`,
    );
  }
  const tolerance = integerIn(
    twap.priceTolerancePpm ?? 0,
    "twap.priceTolerancePpm",
    0,
    t.maxPriceTolerancePpm - 1,
    "parts per million",
  );
  if (size !== undefined) {
    const legs = BigInt(duration / interval);
    const step = BigInt(size.stepBaseQuantums);
    if (size.quantums / legs < step) {
      throw new InvalidOrderError(
        "quantums",
        `a TWAP of ${legs} suborders needs at least ${legs * step} quantums (one step of ${step} each), got ${size.quantums}`,
      );
    }
  }
  return {
    $typeName: "perpx.clob.v1.TwapParameters",
    duration,
    interval,
    priceTolerance: tolerance,
  };
}
