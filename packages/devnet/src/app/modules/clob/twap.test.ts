import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { suborderQuantums, totalLegs } from "./twap.js";

const order = (quantums: bigint, duration: number, interval: number) =>
  create(clob.OrderSchema, { quantums, twapParameters: { duration, interval, priceTolerance: 0 } });

describe("TWAP suborder sizes", () => {
  it("splits the order into duration / interval legs, rounded down to the step", () => {
    const o = order(50_000_000n, 300, 60);
    expect(totalLegs(o)).toBe(5);
    expect(suborderQuantums({ order: o, remainingLegs: 5, remainingQuantums: 50_000_000n }, 1_000_000n)).toBe(
      10_000_000n,
    );
    // 7 / 3 legs: ceil(7,000,000 / 3) = 2,333,334, down to the step: 2,000,000.
    const odd = order(7_000_000n, 180, 60);
    expect(
      suborderQuantums({ order: odd, remainingLegs: 3, remainingQuantums: 7_000_000n }, 1_000_000n),
    ).toBe(2_000_000n);
  });

  it("catches up unfilled legs, at most 3 times the original size per leg, and stops at nothing left", () => {
    const o = order(50_000_000n, 300, 60);
    // 40,000,000 left for 2 legs: 20,000,000 (under the 30,000,000 cap).
    expect(suborderQuantums({ order: o, remainingLegs: 2, remainingQuantums: 40_000_000n }, 1_000_000n)).toBe(
      20_000_000n,
    );
    // 50,000,000 left for the last leg: capped at 3 × 10,000,000.
    expect(suborderQuantums({ order: o, remainingLegs: 1, remainingQuantums: 50_000_000n }, 1_000_000n)).toBe(
      30_000_000n,
    );
    expect(suborderQuantums({ order: o, remainingLegs: 0, remainingQuantums: 50_000_000n }, 1_000_000n)).toBe(
      0n,
    );
    expect(suborderQuantums({ order: o, remainingLegs: 3, remainingQuantums: 500_000n }, 1_000_000n)).toBe(
      0n,
    );
  });
});
