import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGasMeter, type GasMeter } from "../kernel/gas.js";
import type { KvStore } from "../kernel/store.js";
import { ReadMemo } from "./read-memo.js";

const noStore = (): KvStore => {
  throw new Error("the lookups of these tests read no store");
};
const contextOf = (gasMeter: GasMeter) => ({ store: noStore, gasMeter });

/** A lookup as the store meters it: one or more charges, then its value. */
interface Lookup {
  readonly key: string;
  readonly charges: readonly bigint[];
}

/** Runs the lookups plainly or through one memo; what they returned and how the run ended. */
function run(lookups: readonly Lookup[], limit: bigint | undefined, memoized: boolean) {
  const meter = createGasMeter(limit);
  const memo = new ReadMemo(contextOf(meter));
  const values: string[] = [];
  let error: string | undefined;
  try {
    for (const lookup of lookups) {
      const read = () => {
        lookup.charges.forEach((gas, i) => {
          meter.consume(gas, i % 2 === 0 ? "ReadFlat" : "ReadPerByte");
        });
        return `value of ${lookup.key}`;
      };
      values.push(memoized ? memo.read(lookup.key, read) : read());
    }
  } catch (caught) {
    error = (caught as Error).message;
  }
  return { values, error, consumed: meter.consumed };
}

describe("ReadMemo", () => {
  it("runs a lookup once and charges each repeat what the first run charged", () => {
    const meter = createGasMeter(undefined);
    const memo = new ReadMemo(contextOf(meter));
    let runs = 0;
    const lookup = () => {
      runs++;
      meter.consume(1000n, "ReadFlat");
      meter.consume(42n, "ReadPerByte");
      return { id: 7 };
    };
    const first = memo.read("perp/7", lookup);
    expect(memo.read("perp/7", lookup)).toBe(first);
    expect(runs).toBe(1);
    expect(meter.consumed).toBe(2n * 1042n);
  });

  it("keeps an undefined value, and does not keep a lookup that throws", () => {
    const meter = createGasMeter(undefined);
    const memo = new ReadMemo(contextOf(meter));
    let runs = 0;
    const missing = () => {
      runs++;
      meter.consume(5n, "ReadFlat");
      return undefined;
    };
    expect(memo.read("a", missing)).toBeUndefined();
    expect(memo.read("a", missing)).toBeUndefined();
    expect(runs).toBe(1);
    let throws = 0;
    const failing = () => {
      throws++;
      throw new Error("no such record");
    };
    expect(() => memo.read("b", failing)).toThrow("no such record");
    expect(() => memo.read("b", failing)).toThrow("no such record");
    expect(throws).toBe(2);
    expect(meter.consumed).toBe(10n);
  });

  it("runs a repeat again when its charge would pass the limit, and runs out of gas where the reads do", () => {
    const meter = createGasMeter(1500n);
    const memo = new ReadMemo(contextOf(meter));
    let runs = 0;
    const lookup = () => {
      runs++;
      meter.consume(1000n, "ReadFlat");
      meter.consume(30n, "ReadPerByte");
      return "x";
    };
    memo.read("k", lookup);
    expect(() => memo.read("k", lookup)).toThrow(/ReadFlat/);
    expect(runs).toBe(2);
    expect(meter.consumed).toBe(2030n);
  });

  it("memoizes without charging over a context without a gas meter (a query)", () => {
    const memo = new ReadMemo({ store: noStore });
    let runs = 0;
    expect(memo.read("k", () => ++runs)).toBe(1);
    expect(memo.read("k", () => ++runs)).toBe(1);
  });

  it("property: the same values, gas used and out-of-gas error as the plain lookups", () => {
    const charges = fc.array(fc.bigInt({ min: 0n, max: 2_000n }), { minLength: 0, maxLength: 4 });
    const table = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), charges, { minKeys: 1 });
    fc.assert(
      fc.property(
        table,
        fc.array(fc.nat(20), { maxLength: 30 }),
        fc.option(fc.bigInt({ min: 0n, max: 30_000n })),
        (byKey, picks, limit) => {
          const keys = Object.keys(byKey);
          const lookups = picks.map((pick) => {
            const key = keys[pick % keys.length] as string;
            return { key, charges: byKey[key] ?? [] };
          });
          const plain = run(lookups, limit ?? undefined, false);
          expect(run(lookups, limit ?? undefined, true)).toEqual(plain);
        },
      ),
    );
  });
});
