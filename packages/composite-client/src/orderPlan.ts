import {
  CANONICAL_DECIMAL_PATTERN,
  decimalToUnits,
  InvalidArgumentError,
  InvalidOrderError,
  oraclePriceToSubticks,
  priceToSubticks,
  SHORT_BLOCK_WINDOW,
  sizeToQuantums,
} from "@perpx/core";
import { showValue } from "@perpx/errors";
import type { Market, OrderSide, PlaceOrderParams, TimeInForce } from "@perpx/node-client";
import type { OrderCommonParams } from "@perpx/node-client/tx";
import { checkChainRules } from "./orderRules.js";
import { checkOrderShape } from "./orderShape.js";
import { type HumanTwap, twapOfHuman } from "./twapPlan.js";

/**
 * The order types of {@link CompositeClient.placeOrder}.
 *
 * @example
 * ```ts
 * const type: OrderType = "STOP_MARKET";
 * ```
 */
export type OrderType =
  | "LIMIT"
  | "MARKET"
  | "STOP_LIMIT"
  | "STOP_MARKET"
  | "TAKE_PROFIT"
  | "TAKE_PROFIT_MARKET"
  | "TWAP";

/**
 * How long an order lives: `{ blocks }` (a short-term order, 1 to 40 blocks past the current
 * height) or `{ seconds }` (a long-term or conditional order, that many seconds from now).
 *
 * @example
 * ```ts
 * const shortLived: GoodTil = { blocks: 20 };
 * const day: GoodTil = { seconds: 86_400 };
 * ```
 */
export type GoodTil = { blocks: number } | { seconds: number };

/**
 * Rounding of a price or size that is off its grid: `"exact"` refuses it (the default), the other
 * modes move it to the grid. Sizes round `"down"` or `"up"` (`"nearest"` means down for a size).
 *
 * @example
 * ```ts
 * const rounding: OrderRounding = "nearest";
 * ```
 */
export type OrderRounding = "exact" | "down" | "up" | "nearest";

/**
 * An order in human units: the options of {@link CompositeClient.placeOrder}.
 *
 * @example
 * ```ts
 * const order: HumanOrder = { market: "BTC-USD", side: "BUY", type: "LIMIT", price: "30000", size: "0.001" };
 * ```
 */
export interface HumanOrder {
  /** The market's ticker, e.g. `"BTC-USD"`. */
  market: string;
  /** Buy or sell. */
  side: OrderSide;
  /**
   * The order type.
   * @default "LIMIT"
   */
  type?: OrderType;
  /** The size in the base asset (e.g. BTC), a decimal string. */
  size: string;
  /**
   * The limit price in USD. For MARKET and the `*_MARKET` types it is the worst price accepted
   * (give it or `slippage`).
   * @default undefined
   */
  price?: string;
  /**
   * For MARKET and `*_MARKET` orders: the worst price as a distance from the oracle (MARKET) or
   * the trigger price, e.g. `"0.5%"`.
   * @default undefined
   */
  slippage?: string;
  /**
   * Time in force.
   * @default "GTC" (IOC for MARKET and `*_MARKET`)
   */
  timeInForce?: TimeInForce;
  /**
   * Post only: the order is refused rather than take liquidity.
   * @default false
   */
  postOnly?: boolean;
  /**
   * Only reduce the position.
   * @default false
   */
  reduceOnly?: boolean;
  /**
   * How long it lives.
   * @default { blocks: 20 } for short-term orders, { seconds: 2_419_200 } (28 days) otherwise
   */
  goodTil?: GoodTil;
  /**
   * The client id (uint32), unique per subaccount and market. Re-using one on retry is safe.
   * @default the client's counter (seeded from the clock)
   */
  clientId?: number;
  /**
   * The trigger price in USD (STOP_* and TAKE_PROFIT* types).
   * @default undefined
   */
  triggerPrice?: string;
  /**
   * Off-grid price and size handling.
   * @default "exact"
   */
  rounding?: OrderRounding;
  /** The schedule of a `"TWAP"` order, and only of one (see {@link HumanTwap}). @default undefined */
  twap?: HumanTwap;
  /** A builder code: `builderAddress` earns `feePpm` (1 to 10,000) of each fill. @default undefined */
  builderCode?: { builderAddress: string; feePpm: number };
  /** The router that routed the order (earns the network's router share). @default undefined */
  orderRouterAddress?: string;
}

/**
 * A wire order as {@link planOrder} makes it: the node client's order with the clob pair id, base
 * quantums and subticks.
 *
 * @example
 * ```ts
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 7, subaccount };
 * const wire: WireOrder = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" }, plan);
 * [wire.kind, wire.clientId, wire.clobPairId]; // ["long-term", 7, 0]
 * ```
 */
export type WireOrder = PlaceOrderParams & { clobPairId: number; quantums: bigint; subticks: bigint };

/** Long-term orders without a `goodTil` live 28 days. */
const DEFAULT_LIFETIME_SECONDS = 28 * 24 * 3600;
/** Short-term orders without a `goodTil` live 20 blocks. */
const DEFAULT_BLOCKS = 20;

const CANONICAL_DECIMAL = new RegExp(CANONICAL_DECIMAL_PATTERN);
const MARKET_TYPES: ReadonlySet<OrderType> = new Set(["MARKET", "STOP_MARKET", "TAKE_PROFIT_MARKET"]);
const TIMES_IN_FORCE: ReadonlySet<string> = new Set(["GTC", "IOC", "POST_ONLY", "FILL_OR_KILL"]);
const ROUNDINGS: ReadonlySet<string> = new Set(["exact", "down", "up", "nearest"]);
const MAX_UINT32 = 0xffff_ffff;
const ORDER_TYPES: ReadonlySet<string> = new Set([
  "LIMIT",
  "MARKET",
  "STOP_LIMIT",
  "STOP_MARKET",
  "TAKE_PROFIT",
  "TAKE_PROFIT_MARKET",
  "TWAP",
]);

/**
 * Whether an order is short-term, long-term or conditional. The rule:
 * - STOP_* and TAKE_PROFIT* are conditional (stateful, they trigger on the oracle price);
 * - MARKET, an IOC (or FILL_OR_KILL, which the chain refuses) limit, and any order given
 *   `goodTil: { blocks }` are short-term
 *   (in memory until a height at most 40 blocks ahead, no fee, no sequence);
 * - every other LIMIT (GTC or post-only) is long-term (stateful, rests until a time);
 * - TWAP is a TWAP (stateful: the chain places its suborders over its duration).
 *
 * @param order - the order's type, time in force and `goodTil`.
 * @returns which kind the chain treats it as.
 * @example
 * ```ts
 * orderKind({ type: "LIMIT", timeInForce: "IOC" }); // "short-term"
 * orderKind({ type: "LIMIT" }); // "long-term"
 * ```
 */
export function orderKind(order: {
  type?: OrderType | undefined;
  timeInForce?: TimeInForce | undefined;
  goodTil?: GoodTil | undefined;
}): PlaceOrderParams["kind"] {
  const type = order.type ?? "LIMIT";
  if (type === "TWAP") return "twap";
  if (type !== "LIMIT" && type !== "MARKET") return "conditional";
  if (type === "MARKET" || order.timeInForce === "IOC" || order.timeInForce === "FILL_OR_KILL")
    return "short-term";
  return order.goodTil !== undefined && "blocks" in order.goodTil ? "short-term" : "long-term";
}

/**
 * A slippage such as `"0.5%"` in parts per million (5000). Digits past the ppm (4 decimals of a
 * percent) are dropped, which only narrows the bound.
 *
 * @param slippage - a percentage: a canonical decimal then `%` (`"0.5%"`); a bare fraction
 *   (`"0.005"`) is refused, never read as 0.005%.
 * @returns the slippage in parts per million.
 * @throws {InvalidOrderError} unless it is a percentage from 0% to 100%.
 *
 * @example
 * ```ts
 * slippagePpm("0.5%"); // 5000n
 * slippagePpm("0.005"); // throws InvalidOrderError
 * ```
 */
export function slippagePpm(slippage: string): bigint {
  const body = typeof slippage === "string" && slippage.endsWith("%") ? slippage.slice(0, -1) : "";
  const ppm = CANONICAL_DECIMAL.test(body) ? decimalToUnits(body, 4, { rounding: "down" }) : undefined;
  if (ppm === undefined || ppm > 1_000_000n) {
    throw new InvalidOrderError(
      "slippage",
      `must be a percentage such as "0.5%" (a canonical decimal, then %), got ${showValue(slippage)}`,
    );
  }
  return ppm;
}

/**
 * The worst price of a market order in subticks: `reference` moved by `slippage` against the
 * order (up for a buy, down for a sell), onto the tick inside the bound.
 *
 * @param params - the side, the reference price in subticks, the slippage in ppm and the market's
 *   tick.
 * @returns the worst acceptable price in subticks, a multiple of the tick.
 * @example
 * ```ts
 * worstSubticks({ side: "BUY", referenceSubticks: 6_000_000_000n, ppm: 5000n, market: btc }); // 6030000000n
 * ```
 */
export function worstSubticks(params: {
  side: OrderSide;
  referenceSubticks: bigint;
  ppm: bigint;
  market: Pick<Market, "subticksPerTick">;
}): bigint {
  const { side, referenceSubticks, ppm } = params;
  const tick = params.market.subticksPerTick;
  if (side === "BUY") {
    const bound = (referenceSubticks * (1_000_000n + ppm)) / 1_000_000n;
    const down = (bound / tick) * tick;
    if (down === 0n) {
      throw new InvalidOrderError(
        "slippage",
        "no price on the tick lies within the slippage bound; widen it",
      );
    }
    return down;
  }
  const bound = (referenceSubticks * (1_000_000n - ppm) + 999_999n) / 1_000_000n;
  const up = ((bound + tick - 1n) / tick) * tick;
  return up > 0n ? up : tick;
}

/**
 * What the client knows when it turns a human order into a wire order (no network involved).
 *
 * @example
 * ```ts
 * const context: PlanContext = { market: btc, height: 1234n, nowMs: Date.now(), clientId: 7, subaccount };
 * ```
 */
export interface PlanContext {
  /** The market, from the cache. */
  market: Market;
  /** The live chain height. */
  height: bigint;
  /** The clock, unix ms. */
  nowMs: number;
  /** The client id to use when the order has none. */
  clientId: number;
  /** The subaccount placing the order. */
  subaccount: { owner: string; number: number };
}

function checkGoodTil(goodTil: GoodTil | undefined, kind: PlaceOrderParams["kind"]) {
  if (goodTil === undefined) return;
  if ("blocks" in goodTil) {
    if (kind !== "short-term") {
      throw new InvalidOrderError("goodTil", `a ${kind} order lives until a time: give { seconds }`);
    }
    if (!Number.isInteger(goodTil.blocks) || goodTil.blocks < 1 || goodTil.blocks > SHORT_BLOCK_WINDOW) {
      throw new InvalidOrderError(
        "goodTil.blocks",
        `must be a whole number of blocks from 1 to ${SHORT_BLOCK_WINDOW}, got ${String(goodTil.blocks)}`,
      );
    }
  } else if (kind === "short-term") {
    throw new InvalidOrderError("goodTil", "a short-term order (MARKET, IOC) lives { blocks }");
  } else if (!Number.isInteger(goodTil.seconds) || goodTil.seconds < 1) {
    throw new InvalidOrderError(
      "goodTil.seconds",
      `must be a positive whole number, got ${String(goodTil.seconds)}`,
    );
  }
}

/**
 * Turns a human order into the node client's wire order: exact conversions (or `rounding`), the
 * kind from the type and time in force (see {@link orderKind}), the expiry from the live height or
 * the clock, a MARKET order's worst price from `slippage` and the oracle. Pure: nothing is sent.
 *
 * @param order - the order in human units.
 * @param context - the market, the latest height and block time, and the client id.
 * @returns the order in wire units (quantums, subticks, good-til block or time).
 * @throws {InvalidAmountError} for a size or price off the grid without `rounding` (naming the
 *   nearest valid values).
 * @throws {InvalidArgumentError} for a `clientId` that is not a uint32.
 * @throws {InvalidOrderError} for an inconsistent order (missing price, bad slippage, even beside a
 *   price, bad goodTil, an unknown side, type, time in force or rounding),
 *   or one the chain would refuse (see {@link checkChainRules}: reduce-only off IOC, fill-or-kill,
 *   post-only with another time in force, a good-til time past 95 days).
 *
 * @example
 * ```ts
 * const context: PlanContext = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 7, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" }, context);
 * wire.kind; // "long-term"
 * planOrder({ market: "BTC-USD", side: "BUY", size: "0.00015", price: "30000" }, context); // throws InvalidAmountError
 * ```
 */
export function planOrder(order: HumanOrder, context: PlanContext): WireOrder {
  checkOrderShape(order);
  const type = order.type ?? "LIMIT";
  if (!ORDER_TYPES.has(type)) {
    throw new InvalidOrderError(
      "type",
      `must be one of ${[...ORDER_TYPES].join(", ")}, got ${showValue(type)}`,
    );
  }
  if (order.side !== "BUY" && order.side !== "SELL") {
    throw new InvalidOrderError("side", `must be BUY or SELL, got ${showValue(order.side)}`);
  }
  // Checked here rather than by core and the node client, whose messages would echo the value as
  // it is (a secret pasted into the wrong field among it).
  if (order.timeInForce !== undefined && !TIMES_IN_FORCE.has(order.timeInForce)) {
    throw new InvalidOrderError(
      "timeInForce",
      `must be one of ${[...TIMES_IN_FORCE].join(", ")}, got ${showValue(order.timeInForce)}`,
    );
  }
  if (order.rounding !== undefined && !ROUNDINGS.has(order.rounding)) {
    throw new InvalidOrderError(
      "rounding",
      `must be one of ${[...ROUNDINGS].join(", ")}, got ${showValue(order.rounding)}`,
    );
  }
  // A slippage beside a price is not used, but never taken unread.
  const ppm = order.slippage === undefined ? undefined : slippagePpm(order.slippage);
  const clientId: unknown = order.clientId;
  if (
    clientId !== undefined &&
    !(Number.isInteger(clientId) && (clientId as number) >= 0 && (clientId as number) <= MAX_UINT32)
  ) {
    throw new InvalidArgumentError(
      "clientId",
      `must be an integer from 0 to ${MAX_UINT32}, got ${showValue(clientId)}`,
    );
  }
  const { market } = context;
  const rounding = order.rounding ?? "exact";
  const sizeRounding = rounding === "nearest" ? "down" : rounding;
  const quantums = sizeToQuantums(order.size, market, { rounding: sizeRounding });
  const isMarket = MARKET_TYPES.has(type);
  const isTwap = type === "TWAP";
  const conditional = type !== "LIMIT" && type !== "MARKET" && !isTwap;
  if (!isTwap && order.twap !== undefined) {
    throw new InvalidOrderError("twap", `a ${type} order has no TWAP schedule: use type "TWAP"`);
  }
  let triggerSubticks: bigint | undefined;
  if (conditional) {
    if (order.triggerPrice === undefined) {
      throw new InvalidOrderError("triggerPrice", `a ${type} order needs a trigger price`);
    }
    triggerSubticks = priceToSubticks(order.triggerPrice, market, { rounding });
  } else if (order.triggerPrice !== undefined) {
    throw new InvalidOrderError("triggerPrice", `a ${type} order has no trigger price`);
  }
  let subticks: bigint;
  if (order.price !== undefined) {
    subticks = priceToSubticks(order.price, market, { rounding });
  } else if (isTwap) {
    subticks = 0n; // a market TWAP: each suborder at the oracle moved by the tolerance
  } else if (isMarket && ppm !== undefined) {
    const referenceSubticks =
      triggerSubticks ?? oraclePriceToSubticks(market.oracle, market, { rounding: "nearest" });
    subticks = worstSubticks({
      side: order.side,
      referenceSubticks,
      ppm,
      market,
    });
  } else {
    throw new InvalidOrderError(
      "price",
      isMarket
        ? `a ${type} order needs a worst price: give price or slippage`
        : `a ${type} order needs a price`,
    );
  }
  const timeInForce: TimeInForce | undefined = order.postOnly
    ? "POST_ONLY"
    : (order.timeInForce ?? (isMarket ? "IOC" : undefined));
  const kind = orderKind({ type, timeInForce, goodTil: order.goodTil });
  checkChainRules({ type, kind, timeInForce, asked: order });
  checkGoodTil(order.goodTil, kind);
  // Built by assignment, in the key order it always had: an object spread followed by new keys
  // takes V8's slow path, which cost about as much as the two conversions together.
  const wire: OrderCommonParams & { clobPairId: number; quantums: bigint; subticks: bigint } = {
    subaccount: context.subaccount,
    clientId: order.clientId ?? context.clientId,
    side: order.side,
    clobPairId: market.clobPairId,
    quantums,
    subticks,
  };
  if (timeInForce !== undefined) wire.timeInForce = timeInForce;
  if (order.reduceOnly) wire.reduceOnly = true;
  if (order.builderCode !== undefined) wire.builderCode = order.builderCode;
  if (order.orderRouterAddress !== undefined) wire.orderRouterAddress = order.orderRouterAddress;
  if (kind === "short-term") {
    const blocks =
      order.goodTil !== undefined && "blocks" in order.goodTil ? order.goodTil.blocks : DEFAULT_BLOCKS;
    return Object.assign(wire, { kind, goodTilBlock: Number(context.height) + blocks });
  }
  const seconds =
    order.goodTil !== undefined && "seconds" in order.goodTil
      ? order.goodTil.seconds
      : DEFAULT_LIFETIME_SECONDS;
  const goodTilBlockTime = Math.floor(context.nowMs / 1000) + seconds;
  if (kind === "twap") {
    return Object.assign(wire, { kind, goodTilBlockTime, twap: twapOfHuman(order, { quantums, market }) });
  }
  if (kind === "conditional") {
    return Object.assign(wire, {
      kind,
      goodTilBlockTime,
      conditionType: type.startsWith("STOP") ? ("STOP_LOSS" as const) : ("TAKE_PROFIT" as const),
      triggerSubticks: triggerSubticks as bigint,
    });
  }
  return Object.assign(wire, { kind, goodTilBlockTime });
}
