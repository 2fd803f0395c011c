import { create, equals, toBinary } from "@bufbuild/protobuf";
import { clob, subaccounts } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalWallet } from "../wallet/localWallet.js";
import { placeOrderMsg } from "./clob.js";
import { ORDER_FLAGS, type PlaceOrderParams } from "./orderTypes.js";

// placeOrderMsg writes its messages as literals (not protobuf-es `create`): they must be exactly
// what `create` builds from the same fields, in value, in shape and on the wire.
const owner = LocalWallet.fromPrivateKey("07".repeat(32)).address;
const builder = LocalWallet.fromPrivateKey("08".repeat(32)).address;

const SIDES = { BUY: clob.Order_Side.BUY, SELL: clob.Order_Side.SELL } as const;
const TIF = {
  GTC: clob.Order_TimeInForce.UNSPECIFIED,
  IOC: clob.Order_TimeInForce.IOC,
  POST_ONLY: clob.Order_TimeInForce.POST_ONLY,
  FILL_OR_KILL: clob.Order_TimeInForce.FILL_OR_KILL,
} as const;
const CONDITIONS = {
  STOP_LOSS: clob.Order_ConditionType.STOP_LOSS,
  TAKE_PROFIT: clob.Order_ConditionType.TAKE_PROFIT,
} as const;

const uint32 = fc.integer({ min: 0, max: 0xffff_ffff });
const positive64 = fc.bigInt({ min: 1n, max: (1n << 64n) - 1n });
const expiry = fc.integer({ min: 1, max: 0xffff_ffff });

/** Every schedule the chain takes: interval 30..3,600 s, a whole number of legs within 300..86,400 s. */
const twapOf = fc.integer({ min: 30, max: 3_600 }).chain((intervalSeconds) =>
  fc.record({
    intervalSeconds: fc.constant(intervalSeconds),
    durationSeconds: fc
      .integer({ min: Math.ceil(300 / intervalSeconds), max: Math.floor(86_400 / intervalSeconds) })
      .map((legs) => legs * intervalSeconds),
    priceTolerancePpm: fc.integer({ min: 0, max: 999_999 }),
  }),
);

const kindOf = fc.oneof(
  fc.record({ kind: fc.constant("short-term" as const), goodTilBlock: expiry }),
  fc.record({ kind: fc.constant("long-term" as const), goodTilBlockTime: expiry }),
  fc.record({
    kind: fc.constant("conditional" as const),
    goodTilBlockTime: expiry,
    conditionType: fc.constantFrom("STOP_LOSS" as const, "TAKE_PROFIT" as const),
    triggerSubticks: positive64,
  }),
  fc.record({
    kind: fc.constant("twap" as const),
    goodTilBlockTime: expiry,
    twap: twapOf,
  }),
);

const paramsOf = fc
  .record({
    number: fc.integer({ min: 0, max: 128_000 }),
    clientId: uint32,
    clobPairId: uint32,
    side: fc.constantFrom("BUY" as const, "SELL" as const),
    quantums: positive64,
    subticks: positive64,
    timeInForce: fc.constantFrom(
      "GTC" as const,
      "IOC" as const,
      "POST_ONLY" as const,
      "FILL_OR_KILL" as const,
    ),
    reduceOnly: fc.boolean(),
    clientMetadata: uint32,
    router: fc.boolean(),
    builderFeePpm: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
  })
  .chain((common) => kindOf.map((kind) => ({ common, kind })));

type Input = typeof paramsOf extends fc.Arbitrary<infer Value> ? Value : never;

/** The message protobuf-es `create` builds for the same order. */
function expected({ common, kind }: Input): clob.MsgPlaceOrder {
  const order = create(clob.OrderSchema, {
    orderId: create(clob.OrderIdSchema, {
      subaccountId: create(subaccounts.SubaccountIdSchema, { owner, number: common.number }),
      clientId: common.clientId,
      orderFlags: ORDER_FLAGS[kind.kind],
      clobPairId: common.clobPairId,
    }),
    side: SIDES[common.side],
    quantums: common.quantums,
    subticks: common.subticks,
    goodTilOneof:
      kind.kind === "short-term"
        ? { case: "goodTilBlock", value: kind.goodTilBlock }
        : { case: "goodTilBlockTime", value: kind.goodTilBlockTime },
    timeInForce: TIF[common.timeInForce],
    reduceOnly: common.reduceOnly,
    clientMetadata: common.clientMetadata,
    conditionType: kind.kind === "conditional" ? CONDITIONS[kind.conditionType] : 0,
    conditionalOrderTriggerSubticks: kind.kind === "conditional" ? kind.triggerSubticks : 0n,
    orderRouterAddress: common.router ? builder : "",
    ...(kind.kind === "twap"
      ? {
          twapParameters: {
            duration: kind.twap.durationSeconds,
            interval: kind.twap.intervalSeconds,
            priceTolerance: kind.twap.priceTolerancePpm,
          },
        }
      : {}),
    ...(common.builderFeePpm === undefined
      ? {}
      : { builderCodeParameters: { builderAddress: builder, feePpm: common.builderFeePpm } }),
  });
  return create(clob.MsgPlaceOrderSchema, { order });
}

function actual({ common, kind }: Input): clob.MsgPlaceOrder {
  const params: PlaceOrderParams = {
    subaccount: { owner, number: common.number },
    clientId: common.clientId,
    clobPairId: common.clobPairId,
    side: common.side,
    quantums: common.quantums,
    subticks: common.subticks,
    timeInForce: common.timeInForce,
    reduceOnly: common.reduceOnly,
    clientMetadata: common.clientMetadata,
    ...(common.router ? { orderRouterAddress: builder } : {}),
    ...(common.builderFeePpm === undefined
      ? {}
      : { builderCode: { builderAddress: builder, feePpm: common.builderFeePpm } }),
    ...kind,
  };
  const message = placeOrderMsg(params);
  expect(message.typeUrl).toBe("/perpx.clob.v1.MsgPlaceOrder");
  return message.value;
}

/** Every own key, nested: the shape `create` gives (which fields are present, unset ones absent). */
function keysOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, keysOf((value as Record<string, unknown>)[key])]),
  );
}

describe("placeOrderMsg builds what protobuf-es create builds", () => {
  it("equal messages, same fields present, same prototypes, same bytes", () => {
    fc.assert(
      fc.property(paramsOf, (input) => {
        const mine = actual(input);
        const theirs = expected(input);
        expect(equals(clob.MsgPlaceOrderSchema, mine, theirs)).toBe(true);
        expect(keysOf(mine)).toEqual(keysOf(theirs));
        expect(Object.getPrototypeOf(mine.order)).toBe(Object.getPrototypeOf(theirs.order));
        expect(Object.getPrototypeOf(mine.order?.orderId)).toBe(Object.getPrototypeOf(theirs.order?.orderId));
        expect(toBinary(clob.MsgPlaceOrderSchema, mine)).toEqual(toBinary(clob.MsgPlaceOrderSchema, theirs));
      }),
      { numRuns: 300 },
    );
  });
});
