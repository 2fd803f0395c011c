/** `RootStore.frozen()`: a read-only view of the state at one moment, whatever is written after. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RootStore } from "./store.js";

const bytes = (n: number) => new Uint8Array([n & 0xff, (n >> 8) & 0xff]);
const number = (v: Uint8Array) => (v[0] ?? 0) | ((v[1] ?? 0) << 8);

type Op = { kind: "set"; key: string; value: number } | { kind: "delete"; key: string };
const keyArb = fc.stringMatching(/^[a-e]{1,3}$/);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), key: keyArb, value: fc.integer({ min: 0, max: 65535 }) }),
  fc.record({ kind: fc.constant("delete" as const), key: keyArb }),
);

function apply(store: RootStore, ops: readonly Op[]): void {
  for (const op of ops) op.kind === "set" ? store.set(op.key, bytes(op.value)) : store.delete(op.key);
}

/** The reference: a plain map of what the ops leave. */
function model(ops: readonly Op[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const op of ops) op.kind === "set" ? map.set(op.key, op.value) : map.delete(op.key);
  return map;
}

describe("RootStore.frozen", () => {
  it("property: reads and ranges the state as it was when frozen, whatever is written after", () => {
    fc.assert(
      fc.property(
        fc.array(opArb),
        fc.array(opArb),
        fc.stringMatching(/^[a-e]{0,2}$/),
        fc.option(keyArb, { nil: undefined }),
        fc.option(keyArb, { nil: undefined }),
        fc.boolean(),
        (before, after, prefix, start, end, reverse) => {
          // Keys under "e" are volatile (in memory only), as a module's volatile keys are.
          const root = new RootStore((key) => key.startsWith("e"));
          apply(root, before);
          const view = root.frozen();
          apply(root, after);
          const expected = model(before);
          for (const key of ["a", "b", "ab", "e", "ea", "ccc"]) {
            expect(view.has(key)).toBe(expected.has(key));
            expect(view.get(key)).toEqual(expected.has(key) ? bytes(expected.get(key) as number) : undefined);
          }
          const keys = [...expected.keys()]
            .filter(
              (k) =>
                k.startsWith(prefix) && (start === undefined || k >= start) && (end === undefined || k < end),
            )
            .sort();
          if (reverse) keys.reverse();
          const options = {
            reverse,
            ...(start === undefined ? {} : { start }),
            ...(end === undefined ? {} : { end }),
          };
          expect([...view.entries(prefix, options)].map(([k, v]) => [k, number(v)])).toEqual(
            keys.map((k) => [k, expected.get(k)]),
          );
        },
      ),
    );
  });

  it("is read-only", () => {
    const view = new RootStore().frozen();
    expect(() => view.set("a", bytes(1))).toThrow(/read-only/);
    expect(() => view.delete("a")).toThrow(/read-only/);
  });
});
