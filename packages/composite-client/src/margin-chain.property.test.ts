/**
 * marginSummary's equity and free collateral are the chain's, to the quote quantum: checked against
 * a bigint statement of the chain's rule (dYdX v4 `GetNetNotional` / `GetMarginRequirements`, as
 * the devnet's subaccounts module computes them) over random positions, prices, resolutions,
 * margin tiers and leverage choices, given to marginSummary as the human decimals the indexer and
 * the node give the client.
 */
import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type MarginPositionInput, marginSummary } from "./margin.js";

/** One position in chain units. */
interface ChainPosition {
  quantums: bigint;
  atomicResolution: number;
  price: bigint;
  exponent: number;
  /** The liquidity tier's initial margin fraction, ppm. */
  tierImfPpm: bigint;
  /** The maintenance share of the tier's initial margin, ppm. */
  maintenanceSharePpm: bigint;
  /** The account's leverage choice (an initial margin fraction, ppm), 0 for none. */
  choicePpm: bigint;
}

const ten = (n: number) => 10n ** BigInt(n);
/** Integer division rounded toward zero (as Go's big.Int.Quo). */
const quo = (a: bigint, b: bigint) => a / b;
/** The larger of two bigints (Math.max takes no bigint). */
function larger(a: bigint, b: bigint): bigint {
  if (a > b) return a;
  return b;
}
/** Integer division rounded up, for a non-negative numerator and a positive divisor. */
const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The chain's figures of an account, in quote quantums. */
function chainFigures(usdc: bigint, positions: readonly ChainPosition[]) {
  let collateral = usdc;
  let initial = 0n;
  const values: bigint[] = [];
  for (const p of positions) {
    // quote quantums = quantums × price × 10^(exponent + atomicResolution + 6), truncated toward zero
    const shift = p.exponent + p.atomicResolution + 6;
    const exact = p.quantums * p.price;
    const value = shift >= 0 ? exact * ten(shift) : quo(exact, ten(-shift));
    const notional = value < 0n ? -value : value;
    const imf = larger(p.choicePpm, p.tierImfPpm);
    collateral += value;
    initial += ceil(notional * imf, 1_000_000n);
    values.push(value);
  }
  return { equity: collateral, free: collateral - initial, values };
}

/** `units × 10^exponent` as human decimal text. */
const human = (units: bigint, exponent: number) =>
  exponent >= 0 ? new Exact(units * ten(exponent)).toFixed() : Exact.fromUnits(units, -exponent).toFixed();
const usdcText = (quantums: bigint) => Exact.fromUnits(quantums, 6).toFixed();

const position: fc.Arbitrary<ChainPosition> = fc.record({
  quantums: fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
  atomicResolution: fc.integer({ min: -12, max: -3 }),
  price: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  exponent: fc.integer({ min: -14, max: 2 }),
  tierImfPpm: fc.bigInt({ min: 1n, max: 1_000_000n }),
  maintenanceSharePpm: fc.bigInt({ min: 0n, max: 1_000_000n }),
  choicePpm: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 1_000_000n })),
});

describe("marginSummary follows the chain's integer rule", () => {
  it("equity and free collateral equal the chain's, to the quote quantum, over random positions", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.array(position, { maxLength: 4 }),
        (usdc, positions) => {
          const inputs: MarginPositionInput[] = positions.map((p, i) => ({
            market: `M${i}`,
            size: human(p.quantums, p.atomicResolution),
            entryPrice: undefined,
            oraclePrice: human(p.price, p.exponent),
            // the choice as the client's imfOf gives it: the larger of it and the market's own
            initialMarginFraction: human(larger(p.choicePpm, p.tierImfPpm), -6),
            maintenanceMarginFraction: human(p.tierImfPpm * p.maintenanceSharePpm, -12),
            baseInitialMarginFraction: human(p.tierImfPpm, -6),
          }));
          const summary = marginSummary({ usdc: usdcText(usdc), positions: inputs });
          const chain = chainFigures(usdc, positions);
          expect(summary.equity).toBe(usdcText(chain.equity));
          expect(summary.freeCollateral).toBe(usdcText(chain.free));
          expect(summary.positions.map((p) => p.value)).toEqual(chain.values.map(usdcText));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("at a rounding boundary: a long's value truncated, its margin rounded up, one quantum apart from the exact figure", () => {
    // 0.001 BTC at 65000.12390: 65.0001239 USDC, 65.000123 as the chain counts it; 5% of that is
    // 3.25000615, 3.250007 rounded up. The exact decimal figure (161.75011623...) rounds down to a
    // quantum above the chain's: a withdrawal of it would be refused.
    const summary = marginSummary({
      usdc: "100",
      positions: [
        {
          market: "BTC-USD",
          size: "0.001",
          entryPrice: undefined,
          oraclePrice: "65000.1239",
          initialMarginFraction: "0.05",
          maintenanceMarginFraction: "0.03",
          baseInitialMarginFraction: "0.05",
        },
      ],
    });
    const chain = chainFigures(100_000_000n, [
      {
        quantums: 10_000_000n,
        atomicResolution: -10,
        price: 6_500_012_390n,
        exponent: -5,
        tierImfPpm: 50_000n,
        maintenanceSharePpm: 600_000n,
        choicePpm: 0n,
      },
    ]);
    expect(chain.free).toBe(161_750_116n);
    expect(summary.freeCollateral).toBe("161.750116");
    expect(summary.equity).toBe("165.000123");
    const exact = new Exact("165.0001239").minus(new Exact("65.0001239").times("0.05"));
    expect(exact.toDecimalPlaces(6, "floor").toFixed()).toBe("161.750117");
  });
});

/** A market's open interest (base quantums) and its tier's caps (quote quantums). */
interface ChainOpenInterest {
  quantums: bigint;
  lowerCap: bigint;
  upperCap: bigint;
}

/**
 * The initial margin fraction (ppm) the chain charges, as the devnet's `effectiveInitialMarginPpm`
 * states it: the tier's, raised linearly to 1e6 between the caps (rounded down), then the larger
 * of that and the leverage choice.
 */
function chainImfPpm(p: ChainPosition, oi: ChainOpenInterest): bigint {
  let adjusted = p.tierImfPpm;
  if (oi.upperCap !== 0n) {
    const shift = p.exponent + p.atomicResolution + 6;
    const exact = oi.quantums * p.price;
    const raw = shift >= 0 ? exact * ten(shift) : quo(exact, ten(-shift));
    const value = raw < 0n ? 0n : raw;
    if (value > oi.lowerCap) {
      adjusted =
        value >= oi.upperCap
          ? 1_000_000n
          : p.tierImfPpm +
            ((1_000_000n - p.tierImfPpm) * (value - oi.lowerCap)) / (oi.upperCap - oi.lowerCap);
    }
  }
  return larger(p.choicePpm, adjusted);
}

/** The open interest's value in quote quantums (truncated), to place caps around it. */
function openInterestValue(p: ChainPosition, quantums: bigint): bigint {
  const shift = p.exponent + p.atomicResolution + 6;
  const exact = quantums * p.price;
  return shift >= 0 ? exact * ten(shift) : quo(exact, ten(-shift));
}

describe("marginSummary raises the initial margin fraction by open interest, as the chain", () => {
  const caps = fc.record({
    /** off: an upper cap of 0; around: caps on either side of the open interest's value; any: random caps. */
    mode: fc.constantFrom("off", "around", "around", "any"),
    below: fc.bigInt({ min: 0n, max: 10n ** 16n }),
    above: fc.bigInt({ min: 0n, max: 10n ** 16n }),
  });

  it("free collateral equals the chain's with open interest between, under, over and without caps", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.array(fc.record({ position, oi: fc.bigInt({ min: 0n, max: 10n ** 16n }), caps }), {
          maxLength: 4,
        }),
        (usdc, entries) => {
          let initial = 0n;
          let equity = usdc;
          const inputs: MarginPositionInput[] = entries.map(({ position: p, oi, caps: c }, i) => {
            const value = openInterestValue(p, oi);
            const lowerCap =
              c.mode === "off" ? 0n : c.mode === "around" ? larger(value - c.below, 0n) : c.below;
            const upperCap =
              c.mode === "off" ? 0n : c.mode === "around" ? value + c.above + 1n : lowerCap + c.above;
            const imf = chainImfPpm(p, { quantums: oi, lowerCap, upperCap });
            const shift = p.exponent + p.atomicResolution + 6;
            const exact = p.quantums * p.price;
            const positionValue = shift >= 0 ? exact * ten(shift) : quo(exact, ten(-shift));
            equity += positionValue;
            initial += ceil((positionValue < 0n ? -positionValue : positionValue) * imf, 1_000_000n);
            return {
              market: `M${i}`,
              size: human(p.quantums, p.atomicResolution),
              entryPrice: undefined,
              oraclePrice: human(p.price, p.exponent),
              initialMarginFraction: human(larger(p.choicePpm, p.tierImfPpm), -6),
              maintenanceMarginFraction: human(p.tierImfPpm * p.maintenanceSharePpm, -12),
              baseInitialMarginFraction: human(p.tierImfPpm, -6),
              openInterest: {
                size: human(oi, p.atomicResolution),
                lowerCap: usdcText(lowerCap),
                upperCap: usdcText(upperCap),
              },
            };
          });
          const summary = marginSummary({ usdc: usdcText(usdc), positions: inputs });
          expect(summary.equity).toBe(usdcText(equity));
          expect(summary.freeCollateral).toBe(usdcText(equity - initial));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("between the caps: the raise rounded down to a ppm, the margin rounded up (a worked case)", () => {
    // 1 BTC at 100 USD, tier 5%; open interest 10 BTC = 1000 USDC between caps 100 and 3100: the
    // raise is 95% × 900 / 3000 = 28.5% (285000 ppm), so 33.5%: a margin of 33.5 USDC on 100.
    const input = (openInterest: MarginPositionInput["openInterest"]) =>
      marginSummary({
        usdc: "0",
        positions: [
          {
            market: "BTC-USD",
            size: "1",
            entryPrice: undefined,
            oraclePrice: "100",
            initialMarginFraction: "0.05",
            maintenanceMarginFraction: "0.03",
            baseInitialMarginFraction: "0.05",
            openInterest,
          },
        ],
      }).freeCollateral;
    expect(input(undefined)).toBe("95");
    expect(input({ size: "10", lowerCap: "100", upperCap: "3100" })).toBe("66.5");
    // 1/7 of the way: 95% / 7 = 13.5714...% rounded down to 135714 ppm: margin 18.5714 USDC
    expect(input({ size: "2", lowerCap: "100", upperCap: "800" })).toBe("81.4286");
    expect(input({ size: "10", lowerCap: "100", upperCap: "1000" })).toBe("0"); // at the upper cap: 100%
    expect(input({ size: "10", lowerCap: "1000", upperCap: "3000" })).toBe("95"); // at the lower cap: none
    expect(input({ size: "10", lowerCap: "0", upperCap: "0" })).toBe("95"); // no upper cap: no scaling
  });
});
