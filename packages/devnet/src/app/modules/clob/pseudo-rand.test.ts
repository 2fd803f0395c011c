/**
 * Go's `math/rand`, reproduced: the well-known outputs of `rand.NewSource(1)` (Go's default seed
 * before 1.20, printed by countless programs; they hold only if the seeding table the jump-ahead
 * computes is Go's), and the seed rules.
 */
import { describe, expect, it } from "vitest";
import { blockIntn, GoRand } from "./pseudo-rand.js";

describe("GoRand (Go's math/rand)", () => {
  it("gives seed 1's well-known numbers", () => {
    expect(new GoRand(1n).int63()).toBe(5_577_006_791_947_779_410n);
    const rand = new GoRand(1n);
    expect(Array.from({ length: 10 }, () => rand.intn(100))).toEqual([81, 87, 47, 59, 81, 18, 25, 40, 56, 0]);
    expect(new GoRand(1n).intn(10)).toBe(1);
  });

  it("is deterministic per seed and differs between seeds", () => {
    expect(new GoRand(42n).int63()).toBe(new GoRand(42n).int63());
    expect(new GoRand(42n).int63()).not.toBe(new GoRand(43n).int63());
  });

  it("reduces the seed modulo 2^31 − 1, with 0 standing for 89482311", () => {
    const m = 2_147_483_647n;
    expect(new GoRand(m + 5n).int63()).toBe(new GoRand(5n).int63());
    expect(new GoRand(-1n).int63()).toBe(new GoRand(m - 1n).int63());
    expect(new GoRand(0n).int63()).toBe(new GoRand(89_482_311n).int63());
    expect(new GoRand(m).int63()).toBe(new GoRand(0n).int63());
  });

  it("masks for a power of two and stays in range otherwise", () => {
    const a = new GoRand(7n);
    const b = new GoRand(7n);
    expect(a.intn(8)).toBe(b.int31() & 7);
    const rand = new GoRand(1_767_225_600n);
    for (let n = 1; n < 200; n++) {
      const v = rand.intn(n);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(n);
    }
    expect(() => rand.intn(0)).toThrow(RangeError);
  });

  it("seeds the block's draw with its Unix time in seconds", () => {
    const ms = 1_767_225_600_999n;
    expect(blockIntn(ms, 52)).toBe(new GoRand(1_767_225_600n).intn(52));
    expect(blockIntn(ms - 999n, 52)).toBe(blockIntn(ms, 52));
  });
});
