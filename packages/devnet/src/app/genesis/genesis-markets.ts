/**
 * The devnet's markets: the three defaults (BTC-USD, ETH-USD, SOL-USD, as the reference genesis
 * lists them) and, for `--markets N`, N - 3 more generated deterministically from a seed with the
 * parameters the reference chain's market listing derives from a market's price:
 *
 * - atomic resolution `-6 - floor(log10(price in USD))` (one step of 1,000,000 base quantums is
 *   worth between 1 and 10 USD);
 * - quantum conversion exponent -9, step base quantums 1,000,000, subticks per tick 1,000,000 (so
 *   one tick is 10^(floor(log10 price) - 3) USD: 0.01% to 0.1% of the price);
 * - the oracle's price exponent `floor(log10(price)) - 9` (ten significant digits).
 *
 * The generated markets fill the liquidity tiers as the real network's list does: a few dozen
 * small-cap markets, then long-tail ones, then isolated ones (their own collateral pool, as markets
 * listed without governance are).
 */
import { perpetuals } from "@perpx/proto";
import { splitmix64 } from "../modules/prices/prices.js";

/** Liquidity tier ids, as the reference genesis numbers them (see `perpetualsGenesis`). */
export const LIQUIDITY_TIER = {
  largeCap: 0,
  smallCap: 1,
  longTail: 2,
  safety: 3,
  isolated: 4,
  midCap: 5,
  fx: 6,
} as const;

/** One market of the devnet: its oracle, its perpetual and its clob pair (all with the same id). */
export interface MarketSpec {
  /** The id of its oracle market, perpetual and clob pair. @default its index in the market list */
  readonly id?: number;
  readonly pair: string;
  /** The oracle price's exponent. */
  readonly exponent: number;
  /** USD price × 10^-exponent. */
  readonly price: bigint;
  readonly minPriceChangePpm: number;
  readonly atomicResolution: number;
  readonly liquidityTier: number;
  readonly marketType: perpetuals.PerpetualMarketType;
  readonly defaultFundingPpm: number;
  readonly stepBaseQuantums: bigint;
  readonly subticksPerTick: number;
  readonly quantumConversionExponent: number;
}

/** The id of a market of the list: its own, else its index. */
export function marketIdOf(market: MarketSpec, index: number): number {
  return market.id ?? index;
}

const CROSS = perpetuals.PerpetualMarketType.CROSS;
const ISOLATED = perpetuals.PerpetualMarketType.ISOLATED;

/** The three default markets, by id (market id = perpetual id = clob pair id). */
export const DEFAULT_MARKETS: readonly MarketSpec[] = Object.freeze([
  {
    pair: "BTC-USD",
    exponent: -5,
    price: 6_500_000_000n,
    minPriceChangePpm: 1_000,
    atomicResolution: -10,
    liquidityTier: LIQUIDITY_TIER.largeCap,
    marketType: CROSS,
    defaultFundingPpm: 100,
    stepBaseQuantums: 1_000_000n,
    subticksPerTick: 100_000,
    quantumConversionExponent: -9,
  },
  {
    pair: "ETH-USD",
    exponent: -6,
    price: 3_200_000_000n,
    minPriceChangePpm: 1_000,
    atomicResolution: -9,
    liquidityTier: LIQUIDITY_TIER.largeCap,
    marketType: CROSS,
    defaultFundingPpm: 100,
    stepBaseQuantums: 1_000_000n,
    subticksPerTick: 100_000,
    quantumConversionExponent: -9,
  },
  {
    pair: "SOL-USD",
    exponent: -8,
    price: 15_000_000_000n,
    minPriceChangePpm: 2_000,
    atomicResolution: -7,
    liquidityTier: LIQUIDITY_TIER.smallCap,
    marketType: CROSS,
    defaultFundingPpm: 100,
    stepBaseQuantums: 1_000_000n,
    subticksPerTick: 1_000_000,
    quantumConversionExponent: -9,
  },
]);

/** The most markets `--markets` accepts (the reference listing's hard cap). */
export const MAX_MARKETS = 500;
/** Generated markets 3..SMALL_CAP_END-1 are small-cap, then long-tail up to LONG_TAIL_END, then isolated. */
const SMALL_CAP_END = 30;
const LONG_TAIL_END = 90;
/** The listing's defaults for a new market. */
const LISTING_STEP_BASE_QUANTUMS = 1_000_000n;
const LISTING_SUBTICKS_PER_TICK = 1_000_000;
const LISTING_QUANTUM_CONVERSION_EXPONENT = -9;
const LISTING_RESOLUTION_OFFSET = -6;
const LISTING_MIN_PRICE_CHANGE_PPM = 800;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A deterministic PRNG over splitmix64: `next(n)` draws an integer in [0, n). */
function prng(seed: bigint): (n: number) => number {
  let state = seed;
  return (n) => {
    const drawn = splitmix64(state);
    state = drawn.state;
    return Number(drawn.value % BigInt(n));
  };
}

/**
 * The markets of a devnet with `count` markets: the defaults first, then generated ones, the same
 * for the same `seed`. Tickers are `XYZ-USD` (3 to 5 letters, unique); prices range from 0.0001 to
 * 9,999 USD.
 *
 * @throws RangeError when `count` is not an integer from 3 to {@link MAX_MARKETS}.
 */
export function devnetMarkets(count: number, seed: bigint): readonly MarketSpec[] {
  if (!Number.isInteger(count) || count < DEFAULT_MARKETS.length || count > MAX_MARKETS) {
    throw new RangeError(
      `markets must be an integer from ${DEFAULT_MARKETS.length} to ${MAX_MARKETS}, got ${count}`,
    );
  }
  const next = prng(seed);
  const taken = new Set(DEFAULT_MARKETS.map((m) => m.pair));
  const markets: MarketSpec[] = [...DEFAULT_MARKETS];
  for (let id = DEFAULT_MARKETS.length; id < count; id++) {
    let pair: string;
    do {
      const length = 3 + next(3);
      let base = "";
      for (let i = 0; i < length; i++) base += LETTERS[next(LETTERS.length)];
      pair = `${base}-USD`;
    } while (taken.has(pair));
    taken.add(pair);
    // floor(log10(USD price)) from -4 to 3, and ten significant digits.
    const magnitude = next(8) - 4;
    const price = 1_000_000_000n + BigInt(next(9_000_000_000));
    const tier =
      id < SMALL_CAP_END
        ? LIQUIDITY_TIER.smallCap
        : id < LONG_TAIL_END
          ? LIQUIDITY_TIER.longTail
          : LIQUIDITY_TIER.isolated;
    markets.push({
      pair,
      exponent: magnitude - 9,
      price,
      minPriceChangePpm: tier === LIQUIDITY_TIER.smallCap ? 2_000 : LISTING_MIN_PRICE_CHANGE_PPM,
      atomicResolution: LISTING_RESOLUTION_OFFSET - magnitude,
      liquidityTier: tier,
      marketType: tier === LIQUIDITY_TIER.isolated ? ISOLATED : CROSS,
      defaultFundingPpm: 100,
      stepBaseQuantums: LISTING_STEP_BASE_QUANTUMS,
      subticksPerTick: LISTING_SUBTICKS_PER_TICK,
      quantumConversionExponent: LISTING_QUANTUM_CONVERSION_EXPONENT,
    });
  }
  return markets;
}
