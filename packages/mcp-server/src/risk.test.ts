import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breakerTrips, dayLoss } from "./risk.js";

const amount = fc
  .bigInt({ min: 0n, max: 10_000_000_000_000n })
  .map((units) => Exact.fromUnits(units, 6).toFixed());

describe("the daily-loss breaker (property)", () => {
  it("a loss exactly at the limit does not trip it, one quantum more does", () => {
    fc.assert(
      fc.property(amount, amount, (start, loss) => {
        const equity = new Exact(start).minus(loss).toFixed();
        expect(dayLoss(start, equity)).toBe(new Exact(loss).toFixed());
        expect(breakerTrips(dayLoss(start, equity), loss)).toBe(false);
        const worse = new Exact(equity).minus("0.000001").toFixed();
        expect(breakerTrips(dayLoss(start, worse), loss)).toBe(true);
      }),
    );
  });

  it("a gain is no loss", () => {
    fc.assert(
      fc.property(amount, amount, (start, gain) => {
        expect(dayLoss(start, new Exact(start).plus(gain).toFixed())).toBe("0");
      }),
    );
  });

  it("is exact where floats are not", () => {
    expect(dayLoss("0.3", "0.1")).toBe("0.2");
    expect(breakerTrips(dayLoss("0.3", "0.1"), "0.2")).toBe(false);
  });
});
