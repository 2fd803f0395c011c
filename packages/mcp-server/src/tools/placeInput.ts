/**
 * What a `place_order` call asks for: its arguments, how they must go together, and the human
 * order (with the price its checks use) they make.
 */
import type { HumanOrder } from "@perpx/composite-client";
import {
  type ClobPairParams,
  Exact,
  isInvalidAmountError,
  priceToSubticks,
  subticksToPrice,
} from "@perpx/core";
import { z } from "zod";
import { notionalPrice } from "../checks.js";
import { amount, ticker } from "./define.js";
import { ToolFailure } from "./result.js";
import type { TwapSchedule } from "./schemas.js";

/**
 * The arguments of `place_order` (its input schema's shape).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const args = z.strictObject(placeInput).parse({ ticker: "BTC-USD", side: "BUY", type: "LIMIT", size: "0.001", price: "30000" });
 * args.type; // "LIMIT"
 * ```
 */
export const placeInput = {
  ticker,
  side: z.enum(["BUY", "SELL"]),
  type: z.enum(["MARKET", "LIMIT", "TWAP"]),
  size: amount.optional().describe("size in the base asset; give this or notionalUsd"),
  notionalUsd: amount
    .optional()
    .describe("size as USD notional (floored to the step size); give this or size"),
  price: amount
    .optional()
    .describe(
      "limit price, on the market's tick: LIMIT (required), or TWAP (each suborder's limit; absent: a market TWAP)",
    ),
  slippageBps: z.number().int().min(1).optional().describe("MARKET only: worst price as bps from the oracle"),
  timeInForce: z.enum(["GTT", "IOC", "FOK"]).optional().describe("LIMIT: GTT (rests, default), IOC or FOK"),
  postOnly: z.boolean().optional(),
  reduceOnly: z.boolean().optional(),
  goodTilSeconds: z
    .number()
    .int()
    .min(1)
    .max(7_776_000)
    .optional()
    .describe("GTT lifetime (default 28 days)"),
  clientId: z
    .number()
    .int()
    .min(0)
    .max(4_294_967_295)
    .optional()
    .describe("idempotency key (generated if absent)"),
  twap: z
    .strictObject({
      durationSeconds: z.number().int().min(300).max(86_400).describe("the whole run, seconds"),
      intervalSeconds: z
        .number()
        .int()
        .min(30)
        .max(3_600)
        .describe("seconds between suborders; must divide durationSeconds"),
      priceToleranceBps: z
        .number()
        .int()
        .min(0)
        .max(9_999)
        .optional()
        .describe("market TWAP: each suborder at most this far from the oracle, bps (default 0)"),
    })
    .optional()
    .describe(
      "TWAP only: the chain splits the order into durationSeconds / intervalSeconds suborders, one every intervalSeconds",
    ),
  dryRun: z.boolean().optional().describe("run every check and quantise, send nothing"),
  confirm: z.boolean().optional().describe("required above the server's confirmation notional"),
  verifyTimeoutMs: z.number().int().min(1_000).max(60_000).optional(),
};
/** The arguments of a `place_order` call. */
type PlaceInput = z.infer<z.ZodObject<typeof placeInput>>;

/**
 * IOC, FOK and MARKET orders live this many blocks (the composite client's default): their fate is
 * known at their removal, or soon after; fewer blocks than the time from planning to CheckTx on a
 * loaded server gets them refused as good-til-block-too-low.
 */
const SHORT_BLOCKS = 20;

/**
 * Refuses a `place_order` call whose arguments do not go together (before any check or look-up).
 *
 * @param args - the call's arguments.
 * @returns nothing.
 * @throws {ToolFailure} INVALID_INPUT naming what does not fit.
 *
 * @example
 * ```ts
 * checkPlaceShape({ ticker: "BTC-USD", side: "BUY", type: "LIMIT", size: "0.001", price: "30000" }); // passes
 * checkPlaceShape({ ticker: "BTC-USD", side: "BUY", type: "TWAP", size: "0.001" }); // throws ToolFailure (a TWAP needs twap)
 * ```
 */
export function checkPlaceShape(args: PlaceInput): void {
  if ((args.size === undefined) === (args.notionalUsd === undefined)) {
    throw new ToolFailure("INVALID_INPUT", "give exactly one of size and notionalUsd");
  }
  if (args.type === "LIMIT" && args.price === undefined)
    throw new ToolFailure("INVALID_INPUT", "a LIMIT order needs price");
  if (args.type === "TWAP") {
    if (args.twap === undefined) {
      throw new ToolFailure("INVALID_INPUT", "a TWAP order needs twap: { durationSeconds, intervalSeconds }");
    }
    if (
      args.timeInForce !== undefined ||
      args.postOnly ||
      args.reduceOnly ||
      args.slippageBps !== undefined
    ) {
      throw new ToolFailure(
        "INVALID_INPUT",
        "a TWAP takes no timeInForce, postOnly, reduceOnly or slippageBps (the chain places its suborders; bound a market TWAP with twap.priceToleranceBps)",
      );
    }
    if (args.twap.durationSeconds % args.twap.intervalSeconds !== 0) {
      throw new ToolFailure(
        "INVALID_INPUT",
        "twap.durationSeconds must be a multiple of twap.intervalSeconds",
      );
    }
  } else if (args.twap !== undefined) {
    throw new ToolFailure("INVALID_INPUT", `a ${args.type} order takes no twap (use type TWAP)`);
  }
  if (
    args.type === "MARKET" &&
    (args.price !== undefined || args.timeInForce !== undefined || args.postOnly)
  ) {
    throw new ToolFailure(
      "INVALID_INPUT",
      "a MARKET order takes no price, timeInForce or postOnly (use slippageBps)",
    );
  }
  if (args.postOnly && args.timeInForce !== undefined && args.timeInForce !== "GTT") {
    throw new ToolFailure("INVALID_INPUT", "postOnly only goes with a resting (GTT) order");
  }
}

/**
 * A MARKET order's worst price: the oracle moved `slippageBps` against the taker, exactly.
 *
 * @example
 * ```ts
 * worstPrice("BUY", "65000", 50); // "65325"
 * worstPrice("SELL", "65000", 50); // "64675"
 * ```
 */
export function worstPrice(side: "BUY" | "SELL", oracle: string, slippageBps: number): string {
  const bps = side === "BUY" ? 10_000 + slippageBps : 10_000 - slippageBps;
  return new Exact(oracle).times(bps).times("0.0001").toFixed();
}

/**
 * The most whole steps of `stepSize` whose notional at `price` is at most `notionalUsd`, as a size
 * (exact: one step more would be above the notional).
 *
 * @throws {ToolFailure} QUANTIZATION when not even one step fits.
 *
 * @example
 * ```ts
 * sizeForNotional("100", "65000", "0.0001"); // "0.0015"
 * sizeForNotional("6.5", "65000", "0.0001"); // "0.0001"
 * ```
 */
export function sizeForNotional(notionalUsd: string, price: string, stepSize: string): string {
  const notional = new Exact(notionalUsd);
  const step = new Exact(stepSize);
  const stepNotional = step.times(price);
  const steps = notional.dividedBy(stepNotional, { scale: 0, rounding: "floor" });
  if (steps.lessThan(1)) {
    throw new ToolFailure("QUANTIZATION", `notionalUsd ${notionalUsd} is below one step (${stepSize})`);
  }
  return steps.times(step).toFixed();
}

/**
 * A MARKET order's worst price on the market's tick: {@link worstPrice} moved onto the tick inside
 * the bound (down for a buy, up for a sell), the price the order is both checked at and sent with.
 *
 * @param side - the order's side.
 * @param oracle - the oracle price the checks read, USD.
 * @param slippageBps - the slippage, bps.
 * @param clobPair - the market's price grid.
 * @returns the worst price, USD, a multiple of the tick.
 * @throws {ToolFailure} QUANTIZATION when no price on the tick lies within the bound.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * marketWorstPrice("BUY", "65000.5", 50, btc); // "65325": 65325.5025 down to the tick of 1
 * marketWorstPrice("SELL", "65000.5", 50, btc); // "64676": 64675.4975 up to the tick
 * ```
 */
export function marketWorstPrice(
  side: "BUY" | "SELL",
  oracle: string,
  slippageBps: number,
  clobPair: ClobPairParams,
): string {
  const bound = worstPrice(side, oracle, slippageBps);
  try {
    const subticks = priceToSubticks(bound, clobPair, { rounding: side === "BUY" ? "down" : "up" });
    return subticksToPrice(subticks, clobPair);
  } catch (error) {
    if (!isInvalidAmountError(error)) throw error;
    throw new ToolFailure(
      "QUANTIZATION",
      `no price on the tick lies within slippageBps ${slippageBps} of the oracle ${oracle}`,
    );
  }
}

/**
 * The human order a tool call asks for, with the limit or worst price and the size in base units.
 * A MARKET order carries its worst price (the oracle given here moved by the slippage, on the tick),
 * so that the order sent is the one checked, whatever oracle the client's market cache holds. A
 * market TWAP's worst price is the oracle moved by its tolerance: the price the checks take its
 * whole notional at (the chain prices each suborder at its own time). A size from `notionalUsd` is
 * counted at {@link notionalPrice}, as `maxOrderNotional` counts it.
 *
 * @param args - the call's arguments (shape checked).
 * @param market - the oracle price, the step size, the slippage to apply, in bps, and the market's
 *   price grid.
 * @returns the order, its price and its size.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * const args = { ticker: "BTC-USD", side: "BUY", type: "TWAP", size: "0.005", twap: { durationSeconds: 300, intervalSeconds: 60, priceToleranceBps: 100 } } as const;
 * const { order, price } = orderOfInput(args, { oracle: "65000", stepSize: "0.0001", slippageBps: 50, clobPair: btc });
 * [order.type, order.twap?.priceTolerance, price]; // ["TWAP", "1%", "65650"]
 * const market = orderOfInput({ ticker: "BTC-USD", side: "SELL", type: "MARKET", size: "0.001" }, { oracle: "65000.5", stepSize: "0.0001", slippageBps: 50, clobPair: btc });
 * [market.order.price, market.price]; // ["64676", "64676"]
 * ```
 */
export function orderOfInput(
  args: PlaceInput,
  market: { oracle: string; stepSize: string; slippageBps: number; clobPair: ClobPairParams },
): { order: HumanOrder; price: string; size: string } {
  const price =
    args.price ??
    (args.type === "TWAP"
      ? worstPrice(args.side, market.oracle, args.twap?.priceToleranceBps ?? 0)
      : marketWorstPrice(args.side, market.oracle, market.slippageBps, market.clobPair));
  const size =
    args.size ??
    sizeForNotional(
      args.notionalUsd as string,
      notionalPrice({ side: args.side, price, oracle: market.oracle }),
      market.stepSize,
    );
  const tif = args.timeInForce === "IOC" ? "IOC" : args.timeInForce === "FOK" ? "FILL_OR_KILL" : undefined;
  const common = { market: args.ticker, side: args.side, size, reduceOnly: args.reduceOnly ?? false };
  if (args.type === "TWAP" && args.twap !== undefined) {
    const tolerance = new Exact(args.twap.priceToleranceBps ?? 0).times("0.01").toFixed();
    const order: HumanOrder = {
      market: args.ticker,
      side: args.side,
      size,
      type: "TWAP",
      ...(args.price === undefined ? {} : { price: args.price }),
      twap: {
        durationSeconds: args.twap.durationSeconds,
        intervalSeconds: args.twap.intervalSeconds,
        priceTolerance: `${tolerance}%`,
      },
      goodTil: { seconds: args.goodTilSeconds ?? 28 * 24 * 3600 },
    };
    return { order, price, size };
  }
  const order: HumanOrder =
    args.type === "MARKET"
      ? // The worst price itself, not a slippage the client would apply to its own oracle.
        { ...common, type: "MARKET", price, goodTil: { blocks: SHORT_BLOCKS } }
      : {
          ...common,
          type: "LIMIT",
          price,
          ...(tif ? { timeInForce: tif } : args.postOnly ? { timeInForce: "POST_ONLY" } : {}),
          goodTil: tif ? { blocks: SHORT_BLOCKS } : { seconds: args.goodTilSeconds ?? 28 * 24 * 3600 },
        };
  return { order, price, size };
}

/**
 * The schedule of a TWAP call (undefined for other orders): `durationSeconds / intervalSeconds`
 * suborders of the size divided among them, floored to the step.
 *
 * @param args - the call's arguments.
 * @param size - the order's size in the base asset.
 * @param stepSize - the market's step size.
 * @returns the schedule, or undefined when the order is not a TWAP.
 *
 * @example
 * ```ts
 * const args = { ticker: "BTC-USD", side: "BUY", type: "TWAP", size: "0.005", twap: { durationSeconds: 300, intervalSeconds: 60 } } as const;
 * scheduleOf(args, "0.005", "0.0001")?.schedule; // "5 suborders of 0.001 every 60 s over 300 s, each within 0 bps of the oracle"
 * ```
 */
export function scheduleOf(args: PlaceInput, size: string, stepSize: string): TwapSchedule | undefined {
  if (args.type !== "TWAP" || args.twap === undefined) return undefined;
  const { durationSeconds, intervalSeconds } = args.twap;
  const suborders = durationSeconds / intervalSeconds;
  const steps = new Exact(size).dividedBy(new Exact(stepSize).times(suborders), {
    scale: 0,
    rounding: "floor",
  });
  const suborderSize = steps.times(stepSize).toFixed();
  const tolerance = args.price === undefined ? (args.twap.priceToleranceBps ?? 0) : 0;
  const bound =
    args.price === undefined ? `, each within ${tolerance} bps of the oracle` : ` at ${args.price}`;
  return {
    durationSeconds,
    intervalSeconds,
    priceToleranceBps: tolerance,
    suborders,
    suborderSize,
    schedule: `${suborders} suborders of ${suborderSize} every ${intervalSeconds} s over ${durationSeconds} s${bound}`,
  };
}
