import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breakerTrips, dayLoss } from "./risk.js";

const amount = fc
  .bigInt({ min: 0n, max: 10_000_000_000_000n })
  .map((units) => new Decimal(units.toString()).dividedBy(1_000_000).toFixed());

describe("the daily-loss breaker (property)", () => {
  it("a loss exactly at the limit does not trip it, one quantum more does", () => {
    fc.assert(
      fc.property(amount, amount, (start, loss) => {
        const equity = new Decimal(start).minus(loss).toFixed();
        expect(dayLoss(start, equity)).toBe(new Decimal(loss).toFixed());
        expect(breakerTrips(dayLoss(start, equity), loss)).toBe(false);
        const worse = new Decimal(equity).minus("0.000001").toFixed();
        expect(breakerTrips(dayLoss(start, worse), loss)).toBe(true);
      }),
    );
  });

  it("a gain is no loss", () => {
    fc.assert(
      fc.property(amount, amount, (start, gain) => {
        expect(dayLoss(start, new Decimal(start).plus(gain).toFixed())).toBe("0");
      }),
    );
  });

  it("is exact where floats are not", () => {
    expect(dayLoss("0.3", "0.1")).toBe("0.2");
    expect(breakerTrips(dayLoss("0.3", "0.1"), "0.2")).toBe(false);
  });
});
