import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS } from "../../genesis/genesis-accounts.js";
import { isAbciError } from "../../lib/errors.js";
import {
  MAX_BATCH_CANCEL,
  SHORT_BLOCK_WINDOW,
  validateAgainstPair,
  validateBatchCancelBasic,
  validateCancelBasic,
  validateGoodTil,
  validateLeverageUpdate,
  validateOrderBasic,
} from "./validate.js";

const OWNER = GENESIS_ACCOUNTS[0]?.address ?? "";

function order(patch: Partial<clob.Order> = {}, flags = 0): clob.Order {
  const base = create(clob.OrderSchema, {
    orderId: { subaccountId: { owner: OWNER, number: 0 }, clientId: 1, orderFlags: flags, clobPairId: 0 },
    side: clob.Order_Side.BUY,
    quantums: 1_000_000n,
    subticks: 100_000n,
    goodTilOneof:
      flags === 0 ? { case: "goodTilBlock", value: 10 } : { case: "goodTilBlockTime", value: 1_000 },
  });
  return Object.assign(base, patch);
}

function code(fn: () => void): number | undefined {
  return failure(fn)?.code;
}

function failure(fn: () => void): { codespace: string; code: number; log: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!isAbciError(error)) throw error;
    return { codespace: error.codespace, code: error.abciCode, log: error.log };
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

  it("answers 44 for an unknown time in force, 3 and 6000 for unknown enums, 11000 and 50 for bad addresses", () => {
    expect(failure(() => validateOrderBasic(order({ timeInForce: 7 as clob.Order_TimeInForce })))).toEqual({
      codespace: "clob",
      code: 44,
      log: "invalid time in force (7): invalid time in force",
    });
    expect(code(() => validateOrderBasic(order({ side: 9 as clob.Order_Side })))).toBe(3);
    expect(code(() => validateOrderBasic(order({ conditionType: 5 as clob.Order_ConditionType })))).toBe(
      6000,
    );
    expect(code(() => validateOrderBasic(order({ orderRouterAddress: "perpx1nope" })))).toBe(11000);
    expect(code(() => validateOrderBasic(order({ orderRouterAddress: OWNER })))).toBeUndefined();
    const builder = (builderAddress: string, feePpm: number) =>
      order({ builderCodeParameters: create(clob.BuilderCodeParametersSchema, { builderAddress, feePpm }) });
    expect(code(() => validateOrderBasic(builder("nope", 10)))).toBe(50);
    expect(code(() => validateOrderBasic(builder(OWNER, 0)))).toBe(50);
    expect(code(() => validateOrderBasic(builder(OWNER, 10_001)))).toBe(50);
    expect(code(() => validateOrderBasic(builder(OWNER, 10_000)))).toBeUndefined();
  });

  it("checks in the chain's order: FOK first, then the subaccount, the side, the time in force", () => {
    const bad = order({
      timeInForce: clob.Order_TimeInForce.FILL_OR_KILL,
      side: clob.Order_Side.UNSPECIFIED,
      quantums: 0n,
    });
    expect(failure(() => validateOrderBasic(bad))?.log).toBe(
      "Fill-or-kill has been deprecated: This field has been deprecated",
    );
    const noOwner = order({ side: clob.Order_Side.UNSPECIFIED });
    noOwner.orderId = create(clob.OrderIdSchema, { subaccountId: { owner: "", number: 0 } });
    expect(failure(() => validateOrderBasic(noOwner))).toMatchObject({ codespace: "subaccounts", code: 201 });
    expect(code(() => validateOrderBasic(order({ side: clob.Order_Side.UNSPECIFIED, quantums: 0n })))).toBe(
      3,
    );
    // The flags are checked after the size: an unknown flag with zero quantums is 4.
    expect(code(() => validateOrderBasic(order({ quantums: 0n }, 7)))).toBe(4);
    expect(
      failure(() => validateOrderBasic(order({ timeInForce: clob.Order_TimeInForce.IOC }, 64)))?.log,
    ).toBe("Stateful orders cannot require immediate execution");
  });
});

describe("validateBatchCancelBasic", () => {
  const batch = (shortTermCancels: { clobPairId: number; clientIds: number[] }[]) =>
    create(clob.MsgBatchCancelSchema, {
      subaccountId: { owner: OWNER, number: 0 },
      shortTermCancels,
      goodTilBlock: 10,
    });
  it("answers 45 for every malformed batch, as the chain's ValidateBasic", () => {
    expect(
      code(() => validateBatchCancelBasic(batch([{ clobPairId: 0, clientIds: [1, 2] }]))),
    ).toBeUndefined();
    for (const bad of [
      [],
      [{ clobPairId: 0, clientIds: [] }],
      [{ clobPairId: 0, clientIds: [1, 1] }],
      [
        { clobPairId: 0, clientIds: [1] },
        { clobPairId: 0, clientIds: [2] },
      ],
      [
        { clobPairId: 0, clientIds: Array.from({ length: 60 }, (_, i) => i) },
        { clobPairId: 1, clientIds: Array.from({ length: MAX_BATCH_CANCEL - 59 }, (_, i) => i) },
      ],
    ]) {
      expect(failure(() => validateBatchCancelBasic(batch(bad)))).toMatchObject({
        codespace: "clob",
        code: 45,
        log: expect.stringMatching(/: Invalid batch cancel message$/),
      });
    }
    const noOwner = create(clob.MsgBatchCancelSchema, {
      shortTermCancels: [{ clobPairId: 0, clientIds: [1] }],
    });
    expect(failure(() => validateBatchCancelBasic(noOwner))).toMatchObject({
      codespace: "subaccounts",
      code: 201,
    });
  });
});

describe("validateGoodTil", () => {
  const window = { nextHeight: 10n, previousBlockTimeSeconds: 1_000n };
  it("checks the short-term window (40 blocks)", () => {
    expect(SHORT_BLOCK_WINDOW).toBe(40n);
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 9 } }), window)),
    ).toBe(10);
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 10 } }), window)),
    ).toBeUndefined();
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 50 } }), window)),
    ).toBeUndefined();
    expect(
      code(() => validateGoodTil(order({ goodTilOneof: { case: "goodTilBlock", value: 51 } }), window)),
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

describe("validateLeverageUpdate", () => {
  const update = (clobPairLeverage: { clobPairId: number; customImfPpm: number }[], owner = OWNER) =>
    create(clob.MsgUpdateLeverageSchema, { subaccountId: { owner, number: 0 }, clobPairLeverage });
  const exists = (id: number) => id < 2;
  it("answers 11001, 11002 and 8 as the chain's ValidateUpdateLeverageMsg", () => {
    expect(
      code(() => validateLeverageUpdate(update([{ clobPairId: 1, customImfPpm: 1 }]), exists)),
    ).toBeUndefined();
    expect(failure(() => validateLeverageUpdate(create(clob.MsgUpdateLeverageSchema), exists))).toMatchObject(
      {
        code: 11001,
        log: "subaccount ID cannot be nil: Invalid address",
      },
    );
    expect(failure(() => validateLeverageUpdate(update([], ""), exists))).toMatchObject({
      codespace: "subaccounts",
    });
    expect(failure(() => validateLeverageUpdate(update([]), exists))).toMatchObject({
      code: 11002,
      log: "clob pair leverage entries cannot be empty: Invalid update leverage",
    });
    for (const customImfPpm of [0, 1_000_001]) {
      expect(code(() => validateLeverageUpdate(update([{ clobPairId: 0, customImfPpm }]), exists))).toBe(
        11002,
      );
    }
    const twice = update([
      { clobPairId: 0, customImfPpm: 5 },
      { clobPairId: 0, customImfPpm: 6 },
    ]);
    expect(code(() => validateLeverageUpdate(twice, exists))).toBe(11002);
    expect(code(() => validateLeverageUpdate(update([{ clobPairId: 7, customImfPpm: 5 }]), exists))).toBe(8);
  });
});

describe("validateCancelBasic", () => {
  const cancel = (flags: number, goodTilOneof: clob.MsgCancelOrder["goodTilOneof"], owner = OWNER) =>
    create(clob.MsgCancelOrderSchema, {
      orderId: { subaccountId: { owner, number: 0 }, clientId: 1, orderFlags: flags },
      goodTilOneof,
    });
  it("answers subaccounts 201, then clob 3000, 3001 and 5, as the chain's ValidateBasic", () => {
    expect(code(() => validateCancelBasic(cancel(0, { case: "goodTilBlock", value: 9 })))).toBeUndefined();
    expect(
      code(() => validateCancelBasic(cancel(64, { case: "goodTilBlockTime", value: 9 }))),
    ).toBeUndefined();
    expect(failure(() => validateCancelBasic(cancel(3, { case: undefined }, "nope")))?.codespace).toBe(
      "subaccounts",
    );
    expect(code(() => validateCancelBasic(cancel(3, { case: "goodTilBlock", value: 9 })))).toBe(3000);
    expect(code(() => validateCancelBasic(cancel(64, { case: "goodTilBlock", value: 9 })))).toBe(3001);
    expect(failure(() => validateCancelBasic(cancel(0, { case: undefined })))?.log).toBe(
      "cancellation goodTilBlock cannot be 0, orderId {SubaccountId:{Owner:perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9 Number:0} ClientId:1 OrderFlags:0 ClobPairId:0}: Invalid order goodTilBlock",
    );
  });
});
