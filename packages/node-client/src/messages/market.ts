import {
  type ClobPairParams,
  type DecimalInput,
  type IntegerInput,
  InvalidOrderError,
  priceToSubticks,
  sizeToQuantums,
} from "@perpx/core";

/**
 * What an order needs of its market to turn a human price and size into subticks and quantums: the
 * clob pair id and the pair's conversion parameters. A `Market` from `getMarket` is one.
 *
 * @example
 * ```ts
 * const market: OrderMarket = await client.getMarket({ ticker: "BTC-USD" });
 * ```
 */
export interface OrderMarket extends ClobPairParams {
  /** The market's clob pair id. */
  readonly clobPairId: number;
}

/**
 * An order's market and amounts on the wire: the clob pair id, the size in base quantums and the
 * price in subticks.
 *
 * @example
 * ```ts
 * const amounts: OrderWireAmounts = { clobPairId: 0, quantums: 1_000_000n, subticks: 2_868_800_000n };
 * ```
 */
export interface OrderWireAmounts {
  /** The market's clob pair id. */
  clobPairId: number;
  /** Size in base quantums (> 0, a multiple of the pair's step). */
  quantums: IntegerInput;
  /** Price in subticks (> 0, a multiple of the pair's subticks per tick). */
  subticks: IntegerInput;
}

/**
 * An order's market and amounts as a person writes them: the market (from `getMarket`), the size in
 * the base asset and the price in USD, both exact decimals converted with `@perpx/core`'s
 * `sizeToQuantums` and `priceToSubticks` (a size off the step or a price off the tick is refused).
 *
 * @example
 * ```ts
 * const amounts: OrderHumanAmounts = { market: btc, size: "0.001", price: "65000" };
 * ```
 */
export interface OrderHumanAmounts {
  /** The market, with its conversion parameters. */
  market: OrderMarket;
  /** Size in the base asset, e.g. `"0.001"` BTC. */
  size: DecimalInput;
  /** Price in USD per base unit, e.g. `"65000"`. */
  price: DecimalInput;
}

/**
 * Either form of an order's amounts.
 *
 * @example
 * ```ts
 * const amounts: OrderAmounts = { market: btc, size: "0.001", price: "65000" };
 * ```
 */
export type OrderAmounts = OrderWireAmounts | OrderHumanAmounts;

/**
 * The market an order, cancel or trigger refers to: a clob pair id, or a market.
 *
 * @example
 * ```ts
 * const ref: OrderMarketRef = { market: btc };
 * ```
 */
export type OrderMarketRef = { clobPairId: number } | { market: OrderMarket };

function marketOf(params: { market?: OrderMarket }): OrderMarket | undefined {
  const market = params.market;
  if (market === undefined) return undefined;
  if (typeof market !== "object" || market === null || !Number.isInteger(market.clobPairId)) {
    throw new InvalidOrderError("market", "must be a market from getMarket (with its clobPairId)");
  }
  return market;
}

/**
 * The clob pair id of an order reference (`clobPairId`, or `market.clobPairId`).
 *
 * @param params - see `OrderMarketRef`: each field is documented there.
 * @returns the clob pair id the order message names.
 * @throws {InvalidOrderError} when neither is given.
 *
 * @example
 * ```ts
 * clobPairIdOf({ market: btc }); // 0
 * ```
 */
export function clobPairIdOf(params: OrderMarketRef): number {
  const market = marketOf(params as { market?: OrderMarket });
  if (market) return market.clobPairId;
  const id = (params as { clobPairId?: number }).clobPairId;
  if (id === undefined) throw new InvalidOrderError("clobPairId", "give clobPairId or market");
  return id;
}

/**
 * An order's wire amounts: given as they are, or converted exactly from a market, a size and a
 * price.
 *
 * @param params - see `OrderAmounts`: each field is documented there.
 * @returns the order's size in base quantums and price in subticks, as the chain takes them.
 * @throws {InvalidAmountError} for a size off the market's step or a price off its tick.
 * @throws {InvalidOrderError} for a missing market.
 *
 * @example
 * ```ts
 * orderWireAmounts({ market: btc, size: "0.001", price: "65000" }); // { clobPairId: 0, quantums: 10000000n, subticks: 6500000000n }
 * ```
 */
export function orderWireAmounts(params: OrderAmounts): OrderWireAmounts {
  const market = marketOf(params as { market?: OrderMarket });
  if (!market) return params as OrderWireAmounts;
  const human = params as OrderHumanAmounts;
  return {
    clobPairId: market.clobPairId,
    quantums: sizeToQuantums(human.size, market),
    subticks: priceToSubticks(human.price, market),
  };
}

/**
 * A conditional order's trigger in subticks: `triggerSubticks`, or `triggerPrice` on the market.
 *
 * @throws {InvalidOrderError} unless exactly one is given (`triggerPrice` needs a market).
 *
 * @example
 * ```ts
 * triggerSubticksOf({ market: btc, triggerPrice: "60000" }); // 6000000000n
 * ```
 */
export function triggerSubticksOf(params: {
  market?: OrderMarket;
  triggerSubticks?: IntegerInput;
  triggerPrice?: DecimalInput;
}): IntegerInput {
  if (params.triggerPrice !== undefined) {
    if (params.triggerSubticks !== undefined) {
      throw new InvalidOrderError("triggerPrice", "give triggerPrice or triggerSubticks, not both");
    }
    const market = marketOf(params);
    if (!market) throw new InvalidOrderError("triggerPrice", "a trigger price needs the order's market");
    return priceToSubticks(params.triggerPrice, market);
  }
  if (params.triggerSubticks === undefined) {
    throw new InvalidOrderError(
      "triggerSubticks",
      "a conditional order needs triggerSubticks or triggerPrice",
    );
  }
  return params.triggerSubticks;
}
