/**
 * The fill window against its reference: a plain list trimmed of its leading fills at or before the
 * start, whose figures are the count and sum of the fills after the start.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FillWindow, type WindowFill } from "./fill-window.js";

type Step =
  | { kind: "push"; fill: WindowFill }
  | { kind: "trim"; startMs: number }
  | { kind: "read"; startMs: number };

const timeArb = fc.integer({ min: 0, max: 20 });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc
    .tuple(timeArb, fc.bigInt(-5n, 1n << 70n))
    .map(([timeMs, value]): Step => ({ kind: "push", fill: { timeMs, value } })),
  timeArb.map((startMs): Step => ({ kind: "trim", startMs })),
  timeArb.map((startMs): Step => ({ kind: "read", startMs })),
);

/** Runs `steps` on a window and on the reference list; every read must agree. */
function agree(steps: readonly Step[]): void {
  const window = new FillWindow();
  let list: WindowFill[] = [];
  for (const step of steps) {
    if (step.kind === "push") {
      window.push(step.fill);
      list.push(step.fill);
    } else if (step.kind === "trim") {
      window.trim(step.startMs);
      let cut = 0;
      while (cut < list.length && (list[cut] as WindowFill).timeMs <= step.startMs) cut++;
      list = list.slice(cut);
    } else {
      const kept = list.filter((f) => f.timeMs > step.startMs);
      expect(window.figures(step.startMs)).toEqual({
        trades: kept.length,
        volume: kept.reduce((sum, f) => sum + f.value, 0n),
      });
    }
  }
}

describe("fill window", () => {
  it("reads what the filtered list of fills gives, in or out of time order", () => {
    fc.assert(fc.property(fc.array(stepArb, { maxLength: 60 }), agree), { numRuns: 500 });
  });

  it("reads what the filtered list gives when fills come in time order (the chain's case)", () => {
    const ordered = fc.array(stepArb, { maxLength: 60 }).map((steps) => {
      let t = 0;
      return steps.map((s): Step => {
        if (s.kind !== "push") return s;
        t += s.fill.timeMs % 3;
        return { kind: "push", fill: { timeMs: t, value: s.fill.value } };
      });
    });
    fc.assert(fc.property(ordered, agree), { numRuns: 500 });
  });

  it("an empty window reads no trades and no volume", () => {
    expect(new FillWindow().figures(0)).toEqual({ trades: 0, volume: 0n });
  });
});
