import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { isAbciError } from "../../errors.js";
import { validateAgainstPair, validateGoodTil, validateOrderBasic } from "./validate.js";

function order(patch: Partial<clob.Order> = {}, flags = 0): clob.Order {
  const base = create(clob.OrderSchema, {
    orderId: { subaccountId: { owner: "perpx1x", number: 0 }, clientId: 1, orderFlags: flags, clobPairId: 0 },
    side: clob.Order_Side.BUY,
    quantums: 1_000_000n,
    subticks: 100_000n,
    goodTilOneof:
      flags === 0 ? { case: "goodTilBlock", value: 10 } : { case: "goodTilBlockTime", value: 1_000 },
  });
  return Object.assign(base, patch);
}

function code(fn: () => void): number | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!isAbciError(error)) throw error;
    return error.code;
  }
}

const pair = create(clob.ClobPairSchema, {
  id: 0,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
  quantumConversionExponent: -9,
  status: clob.ClobPair_Status.ACTIVE,
});

describe("validateOrderBasic", () => {
  it("answers the reference codes", () => {
    expect(code(() => validateOrderBasic(order()))).toBeUndefined();
    expect(code(() => validateOrderBasic(order({}, 7)))).toBe(3000);
    expect(code(() => validateOrderBasic(order({ side: clob.Order_Side.UNSPECIFIED })))).toBe(3);
    expect(code(() => validateOrderBasic(order({ quantums: 0n })))).toBe(4);
    expect(code(() => validateOrderBasic(order({ subticks: 0n })))).toBe(6);
    expect(code(() => validateOrderBasic(order({ timeInForce: clob.Order_TimeInForce.FILL_OR_KILL })))).toBe(
      48,
    );
    expect(code(() => validateOrderBasic(order({ reduceOnly: true })))).toBe(9003);
    expect(
      code(() => validateOrderBasic(order({ reduceOnly: true, timeInForce: clob.Order_TimeInForce.IOC }))),
    ).toBeUndefined();
    expect(code(() => validateOrderBasic(order({ timeInForce: clob.Order_TimeInForce.IOC }, 64)))).toBe(3002);
    expect(
      code(() => validateOrderBasic(order({ goodTilOneof: { case: "goodTilBlock", value: 5 } }, 64))),
    ).toBe(3001);
    expect(code(() => validateOrderBasic(order({}, 32)))).toBe(6000);
    expect(
      code(() => validateOrderBasic(order({ conditionType: clob.Order_ConditionType.STOP_LOSS }, 32))),
    ).toBe(6001);
    expect(code(() => validateOrderBasic(order({ conditionalOrderTriggerSubticks: 5n })))).toBe(6001);
  });
});

describe("validateGoodTil", () => {
  const window = { nextHeight: 10n, previousBlockTimeSeconds: 1_000n };
  it("checks the short-term window (20 blocks)", () => {
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 9 } }), window)),
    ).toBe(10);
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 10 } }), window)),
    ).toBeUndefined();
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 30 } }), window)),
    ).toBeUndefined();
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 31 } }), window)),
    ).toBe(11);
  });
  it("checks the stateful window (95 days after the previous block)", () => {
    const at = (value: number) => order({ goodTilOneof: { case: "goodTilBlockTime", value } }, 64);
    expect(code(() => validateGoodTil(at(1_000), window))).toBe(3003);
    expect(code(() => validateGoodTil(at(1_001), window))).toBeUndefined();
    expect(code(() => validateGoodTil(at(1_000 + 95 * 86_400), window))).toBeUndefined();
    expect(code(() => validateGoodTil(at(1_001 + 95 * 86_400), window))).toBe(3004);
  });
});

describe("validateAgainstPair", () => {
  it("checks the pair, the grid and the status", () => {
    expect(code(() => validateAgainstPair(order(), undefined))).toBe(8);
    expect(code(() => validateAgainstPair(order(), pair))).toBeUndefined();
    expect(code(() => validateAgainstPair(order({ quantums: 1_500_000n }), pair))).toBe(12);
    expect(code(() => validateAgainstPair(order({ subticks: 150_000n }), pair))).toBe(12);
    const postOnlyPair = { ...pair, status: clob.ClobPair_Status.POST_ONLY };
    expect(code(() => validateAgainstPair(order(), postOnlyPair))).toBe(34);
    expect(
      code(() => validateAgainstPair(order({ timeInForce: clob.Order_TimeInForce.POST_ONLY }), postOnlyPair)),
    ).toBeUndefined();
    expect(code(() => validateAgainstPair(order(), { ...pair, status: clob.ClobPair_Status.PAUSED }))).toBe(
      34,
    );
  });
});
