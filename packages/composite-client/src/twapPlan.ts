import {
  assertKnownKeys,
  CANONICAL_DECIMAL_PATTERN,
  decimalToUnits,
  InvalidOrderError,
  optionKeys,
} from "@perpx/core";
import { showValue } from "@perpx/errors";
import type { Market } from "@perpx/node-client";
import { type TwapParams, twapParametersOf } from "@perpx/node-client/tx";

/**
 * A TWAP's schedule in human units (the `twap` option of a `"TWAP"` order): the chain places
 * `durationSeconds / intervalSeconds` suborders, one every `intervalSeconds`, each good for 3 s.
 * With a `price`, each suborder is a limit order at it; without one (a market TWAP), each is priced
 * at the oracle moved by `priceTolerance` against the order (up for a buy, down for a sell).
 *
 * @example
 * ```ts
 * // 0.01 BTC over 10 minutes: ten suborders a minute apart, each at most 0.5% off the oracle.
 * const twap: HumanTwap = { durationSeconds: 600, intervalSeconds: 60, priceTolerance: "0.5%" };
 * ```
 */
export interface HumanTwap {
  /** The whole run, seconds: 300 to 86,400, a multiple of `intervalSeconds`. */
  durationSeconds: number;
  /** The time between suborders, seconds: 30 to 3,600. */
  intervalSeconds: number;
  /**
   * How far from the oracle a market TWAP's suborders may trade, a percentage below 100%
   * (`"0.5%"`; the chain counts it in ppm, so at most 4 decimals are kept, rounded down).
   * @default "0%"
   */
  priceTolerance?: string;
}

const TWAP_KEYS = optionKeys<HumanTwap>({
  durationSeconds: true,
  intervalSeconds: true,
  priceTolerance: true,
});
const CANONICAL_DECIMAL = new RegExp(CANONICAL_DECIMAL_PATTERN);

/** A tolerance such as `"0.5%"` in ppm (5000), below 100%. */
function tolerancePpm(tolerance: unknown): number {
  const body = typeof tolerance === "string" && tolerance.endsWith("%") ? tolerance.slice(0, -1) : "";
  const ppm = CANONICAL_DECIMAL.test(body) ? decimalToUnits(body, 4, { rounding: "down" }) : undefined;
  if (ppm === undefined || ppm >= 1_000_000n) {
    throw new InvalidOrderError(
      "twap.priceTolerance",
      `must be a percentage below 100% such as "0.5%", got ${showValue(tolerance)}`,
    );
  }
  return Number(ppm);
}

/**
 * Checks a TWAP order's schedule as the chain does (see the node client's `twapParametersOf`,
 * including one step per suborder at least) and what a TWAP cannot take (a time in force,
 * post-only, a slippage), and gives the node client's {@link TwapParams}.
 *
 * @param order - what the caller gave: the `twap` schedule and the options a TWAP refuses.
 * @param size - the order's quantums and its market (for the step).
 * @returns the schedule in the node client's form (`priceTolerancePpm`).
 * @throws {InvalidOrderError} naming `twap`, `twap.durationSeconds`, `twap.intervalSeconds`,
 *   `twap.priceTolerance`, `quantums`, `timeInForce`, `postOnly` or `slippage`.
 *
 * @example
 * ```ts
 * const twap = { durationSeconds: 300, intervalSeconds: 60, priceTolerance: "1%" };
 * twapOfHuman({ twap }, { quantums: 50_000_000n, market: btc }); // { durationSeconds: 300, intervalSeconds: 60, priceTolerancePpm: 10000 }
 * twapOfHuman({ twap: { ...twap, intervalSeconds: 20 } }, { quantums: 50_000_000n, market: btc }); // throws InvalidOrderError (twap.intervalSeconds)
 * ```
 */
export function twapOfHuman(
  order: {
    twap?: HumanTwap | undefined;
    timeInForce?: string | undefined;
    postOnly?: boolean | undefined;
    slippage?: string | undefined;
  },
  size: { quantums: bigint; market: Pick<Market, "stepBaseQuantums"> },
): TwapParams {
  const twap: unknown = order.twap;
  if (typeof twap !== "object" || twap === null || Array.isArray(twap)) {
    throw new InvalidOrderError(
      "twap",
      "a TWAP order needs its schedule: { durationSeconds, intervalSeconds, priceTolerance? }",
    );
  }
  assertKnownKeys(twap, TWAP_KEYS, "placeOrder", "twap");
  if (order.timeInForce !== undefined || order.postOnly) {
    const field = order.postOnly ? "postOnly" : "timeInForce";
    throw new InvalidOrderError(field, "a TWAP's suborders are placed by the chain, without a time in force");
  }
  if (order.slippage !== undefined) {
    throw new InvalidOrderError("slippage", "a market TWAP's bound is twap.priceTolerance, not slippage");
  }
  const human = twap as unknown as HumanTwap;
  const params: TwapParams = {
    durationSeconds: human.durationSeconds,
    intervalSeconds: human.intervalSeconds,
    priceTolerancePpm: human.priceTolerance === undefined ? 0 : tolerancePpm(human.priceTolerance),
  };
  twapParametersOf(params, { quantums: size.quantums, stepBaseQuantums: size.market.stepBaseQuantums });
  return params;
}
