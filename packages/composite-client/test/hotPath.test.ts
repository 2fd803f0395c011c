/**
 * The human-unit order path up to its signed tx builds its objects without an object spread: in
 * V8 a spread followed by new keys (`{ ...common, kind }`) takes a slow path that cost more than the
 * conversions and the encoding together (issue 24, `bench/table/human-units.bench.ts`). The source
 * of each step, as it runs, is the judge; array spreads (`[...set]`) in error messages are fine.
 */
import { placeOrderMsg, signTx } from "@perpx/node-client/tx";
import { describe, expect, test } from "vitest";
import { planOrder } from "../src/orderPlan.js";

/** Object spreads in a function's source (an array spread `[...x]` is not one). */
function objectSpreads(fn: (...args: never[]) => unknown): string[] {
  return [...fn.toString().matchAll(/(?<!\[)\.\.\.\s*[\w(]+/g)].map((match) => match[0]);
}

describe("the order path to the signed tx", () => {
  test.each([
    ["planOrder", planOrder],
    ["placeOrderMsg", placeOrderMsg],
    ["signTx", signTx],
  ] as const)("%s builds its objects without an object spread", (_, fn) => {
    expect(objectSpreads(fn)).toEqual([]);
  });

  test("the check finds a spread", () => {
    const spread = (common: object) => ({ ...common, kind: "short-term" });
    expect(objectSpreads(spread)).toEqual(["...common"]);
    expect(objectSpreads((set: Set<string>) => [...set].join(", "))).toEqual([]);
  });
});
