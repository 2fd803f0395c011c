/**
 * The market maker's ladder: resting bids and asks around an oracle price, on a market's tick and
 * step grid. Pure integer math in the chain's units (subticks and base quantums).
 */

/**
 * A market's grid and the oracle price, in the chain's units.
 *
 * @example
 * ```ts
 * const market: LadderMarket = {
 *   oracleSubticks: 6_500_000_000n, subticksPerTick: 100_000n, stepBaseQuantums: 1_000_000n,
 *   quantumConversionExponent: -9,
 * };
 * ```
 */
export interface LadderMarket {
  /** The oracle price in subticks (not aligned to the tick). */
  readonly oracleSubticks: bigint;
  readonly subticksPerTick: bigint;
  readonly stepBaseQuantums: bigint;
  readonly quantumConversionExponent: number;
}

/**
 * The ladder's shape.
 *
 * @example
 * ```ts
 * const shape: LadderShape = { levels: 5, halfSpreadBps: 10, levelSpacingBps: 10, levelQuoteQuantums: 5_000_000_000n };
 * ```
 */
export interface LadderShape {
  /** Orders per side. */
  readonly levels: number;
  /** Distance of the first level from the oracle price, in basis points. */
  readonly halfSpreadBps: number;
  /** Distance between two levels, in basis points. */
  readonly levelSpacingBps: number;
  /** The notional of one level in quote quantums (10^-6 USDC). */
  readonly levelQuoteQuantums: bigint;
}

/**
 * One resting order of the ladder.
 *
 * @example
 * ```ts
 * const rung: Rung = { side: "buy", level: 0, subticks: 6_493_500_000n, quantums: 77_000_000n };
 * ```
 */
export interface Rung {
  readonly side: "buy" | "sell";
  /** 0 is the level nearest the oracle price. */
  readonly level: number;
  readonly subticks: bigint;
  readonly quantums: bigint;
}

const BPS = 10_000n;

/**
 * The ladder around `market.oracleSubticks`: bids strictly below and asks strictly above it, each
 * price on the tick (bids rounded down, asks up) and strictly worse than the level before, each
 * size the level's notional at its price rounded down to the step (at least one step). Bids that
 * would reach zero are left out.
 *
 * @param market - the oracle price and the grid.
 * @param shape - levels, spread, spacing and notional.
 * @returns the rungs, bids first, each side from the nearest level out.
 * @example
 * ```ts
 * const rungs = ladder(
 *   { oracleSubticks: 6_500_000_000n, subticksPerTick: 100_000n, stepBaseQuantums: 1_000_000n, quantumConversionExponent: -9 },
 *   { levels: 2, halfSpreadBps: 10, levelSpacingBps: 10, levelQuoteQuantums: 5_000_000_000n },
 * );
 * rungs.map((r) => `${r.side} ${r.subticks}`);
 * // ["buy 6493500000", "buy 6487000000", "sell 6506500000", "sell 6513000000"]
 * ```
 */
export function ladder(market: LadderMarket, shape: LadderShape): Rung[] {
  const { oracleSubticks: oracle, subticksPerTick: tick } = market;
  const rungs: Rung[] = [];
  let previousBid = oracle;
  let previousAsk = oracle;
  for (let level = 0; level < shape.levels; level++) {
    const offset = BigInt(shape.halfSpreadBps + level * shape.levelSpacingBps);
    let bid = floorTo((oracle * (BPS - offset)) / BPS, tick);
    if (bid >= previousBid) bid = floorTo(previousBid - 1n, tick);
    if (bid > 0n) {
      rungs.push({ side: "buy", level, subticks: bid, quantums: sizeAt(bid, market, shape) });
      previousBid = bid;
    }
  }
  for (let level = 0; level < shape.levels; level++) {
    const offset = BigInt(shape.halfSpreadBps + level * shape.levelSpacingBps);
    let ask = ceilTo(ceilDiv(oracle * (BPS + offset), BPS), tick);
    if (ask <= previousAsk) ask = ceilTo(previousAsk + 1n, tick);
    rungs.push({ side: "sell", level, subticks: ask, quantums: sizeAt(ask, market, shape) });
    previousAsk = ask;
  }
  return rungs;
}

/** The level's notional at `subticks`, in base quantums rounded down to the step (at least one). */
function sizeAt(subticks: bigint, market: LadderMarket, shape: LadderShape): bigint {
  // quote quantums = subticks × quantums × 10^qce, so quantums = notional / (subticks × 10^qce).
  const qce = market.quantumConversionExponent;
  const quantums =
    qce >= 0
      ? shape.levelQuoteQuantums / (subticks * 10n ** BigInt(qce))
      : (shape.levelQuoteQuantums * 10n ** BigInt(-qce)) / subticks;
  const steps = quantums / market.stepBaseQuantums;
  return (steps > 0n ? steps : 1n) * market.stepBaseQuantums;
}

function floorTo(value: bigint, unit: bigint): bigint {
  return value <= 0n ? 0n : (value / unit) * unit;
}

function ceilTo(value: bigint, unit: bigint): bigint {
  return ceilDiv(value, unit) * unit;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
