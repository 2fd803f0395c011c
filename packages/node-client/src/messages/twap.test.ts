import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { isInvalidOrderError } from "@perpx/core";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalWallet } from "../wallet/localWallet.js";
import { placeOrderMsg } from "./clob.js";
import type { PlaceOrderParams } from "./orderTypes.js";
import { TWAP_LIMITS, type TwapParams, twapLegs, twapParametersOf } from "./twap.js";

const owner = LocalWallet.fromPrivateKey("07".repeat(32)).address;
const router = LocalWallet.fromPrivateKey("08".repeat(32)).address;
const btc = {
  clobPairId: 0,
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};

function twapOrder(twap: TwapParams, patch: Partial<PlaceOrderParams> = {}): PlaceOrderParams {
  return {
    subaccount: { owner, number: 0 },
    clientId: 7,
    side: "BUY",
    clobPairId: 0,
    quantums: 50_000_000n,
    subticks: 0n,
    kind: "twap",
    goodTilBlockTime: 1_900_000_000,
    twap,
    ...patch,
  } as PlaceOrderParams;
}

/** The field an InvalidOrderError names, or the error itself when it is something else. */
function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return isInvalidOrderError(error) ? error.field : error;
  }
  return "accepted";
}

const validTwap = fc.integer({ min: 30, max: 3_600 }).chain((intervalSeconds) =>
  fc.record({
    intervalSeconds: fc.constant(intervalSeconds),
    durationSeconds: fc
      .integer({ min: Math.ceil(300 / intervalSeconds), max: Math.floor(86_400 / intervalSeconds) })
      .map((legs) => legs * intervalSeconds),
    priceTolerancePpm: fc.integer({ min: 0, max: 999_999 }),
  }),
);

describe("TWAP orders in placeOrderMsg", () => {
  it("round-trips every schedule the chain takes through the wire, market and limit", () => {
    fc.assert(
      fc.property(
        validTwap,
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.integer({ min: 0, max: 0xffff_ffff }),
        (twap, subticks, clientId) => {
          const message = placeOrderMsg(twapOrder(twap, { subticks, clientId, orderRouterAddress: router }));
          const decoded = fromBinary(
            clob.MsgPlaceOrderSchema,
            toBinary(clob.MsgPlaceOrderSchema, message.value),
          );
          const order = decoded.order as clob.Order;
          expect(order.orderId?.orderFlags).toBe(128);
          expect(order.orderId?.clientId).toBe(clientId);
          expect(order.subticks).toBe(subticks);
          expect(order.goodTilOneof).toEqual({ case: "goodTilBlockTime", value: 1_900_000_000 });
          expect(order.orderRouterAddress).toBe(router);
          expect([
            order.twapParameters?.duration,
            order.twapParameters?.interval,
            order.twapParameters?.priceTolerance,
          ]).toEqual([twap.durationSeconds, twap.intervalSeconds, twap.priceTolerancePpm]);
          expect(twapLegs(twap) * twap.intervalSeconds).toBe(twap.durationSeconds);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses what the chain refuses, naming the field, at every bound", () => {
    const base = { durationSeconds: 300, intervalSeconds: 60 };
    const t = TWAP_LIMITS;
    expect(
      refusal(() => placeOrderMsg(twapOrder({ ...base, intervalSeconds: t.minIntervalSeconds - 1 }))),
    ).toBe("twap.intervalSeconds");
    expect(refusal(() => placeOrderMsg(twapOrder({ durationSeconds: 7_200, intervalSeconds: 3_601 })))).toBe(
      "twap.intervalSeconds",
    );
    expect(
      refusal(() => placeOrderMsg(twapOrder({ ...base, durationSeconds: 270, intervalSeconds: 30 }))),
    ).toBe("twap.durationSeconds");
    expect(refusal(() => placeOrderMsg(twapOrder({ durationSeconds: 86_430, intervalSeconds: 30 })))).toBe(
      "twap.durationSeconds",
    );
    expect(refusal(() => placeOrderMsg(twapOrder({ durationSeconds: 310, intervalSeconds: 60 })))).toBe(
      "twap.durationSeconds",
    );
    expect(refusal(() => placeOrderMsg(twapOrder({ ...base, priceTolerancePpm: 1_000_000 })))).toBe(
      "twap.priceTolerancePpm",
    );
    expect(refusal(() => placeOrderMsg(twapOrder({ ...base, priceTolerancePpm: -1 })))).toBe(
      "twap.priceTolerancePpm",
    );
    expect(refusal(() => placeOrderMsg(twapOrder({ ...base, intervalSeconds: 60.5 })))).toBe(
      "twap.intervalSeconds",
    );
    expect(refusal(() => placeOrderMsg(twapOrder(undefined as unknown as TwapParams)))).toBe("twap");
    // The edges themselves are taken.
    expect(refusal(() => placeOrderMsg(twapOrder({ durationSeconds: 300, intervalSeconds: 30 })))).toBe(
      "accepted",
    );
    expect(
      refusal(() =>
        placeOrderMsg(
          twapOrder({ durationSeconds: 86_400, intervalSeconds: 3_600, priceTolerancePpm: 999_999 }),
        ),
      ),
    ).toBe("accepted");
  });

  it("with a market, refuses a TWAP whose suborders would be under one step", () => {
    const order = (size: string) =>
      twapOrder({ durationSeconds: 300, intervalSeconds: 60 }, {
        market: btc,
        size,
        price: "0",
        clobPairId: undefined,
        quantums: undefined,
        subticks: undefined,
      } as never);
    // 5 legs of 0.0001 BTC (one step each) is the least; 0.0004 BTC would leave a leg under a step.
    expect(placeOrderMsg(order("0.0005")).value.order?.quantums).toBe(5_000_000n);
    expect(refusal(() => placeOrderMsg(order("0.0004")))).toBe("quantums");
  });

  it("takes a zero price only on a TWAP (a market TWAP)", () => {
    expect(
      placeOrderMsg(twapOrder({ durationSeconds: 300, intervalSeconds: 60 })).value.order?.subticks,
    ).toBe(0n);
    const longTerm = {
      ...twapOrder({ durationSeconds: 300, intervalSeconds: 60 }),
      kind: "long-term",
    } as PlaceOrderParams;
    expect(refusal(() => placeOrderMsg(longTerm))).toBe("subticks");
  });

  it("twapParametersOf gives the chain's message", () => {
    const p = twapParametersOf({ durationSeconds: 600, intervalSeconds: 120, priceTolerancePpm: 2_500 });
    expect([p.$typeName, p.duration, p.interval, p.priceTolerance]).toEqual([
      "perpx.clob.v1.TwapParameters",
      600,
      120,
      2_500,
    ]);
  });
});

describe("builder codes and order routers in placeOrderMsg", () => {
  const longTerm = (patch: Partial<PlaceOrderParams>) =>
    ({
      ...twapOrder({ durationSeconds: 300, intervalSeconds: 60 }),
      kind: "long-term",
      subticks: 100_000n,
      ...patch,
    }) as PlaceOrderParams;

  it("refuses a builder fee outside the chain's 1 to 10,000 ppm (clob 50), naming builderCode.feePpm", () => {
    for (const feePpm of [0, 10_001, 2.5]) {
      expect(
        refusal(() => placeOrderMsg(longTerm({ builderCode: { builderAddress: router, feePpm } }))),
      ).toBe("builderCode.feePpm");
    }
    const order = placeOrderMsg(longTerm({ builderCode: { builderAddress: router, feePpm: 10_000 } })).value
      .order;
    expect([order?.builderCodeParameters?.builderAddress, order?.builderCodeParameters?.feePpm]).toEqual([
      router,
      10_000,
    ]);
  });

  it("refuses a router or builder that is not an address, before anything is signed", () => {
    expect(() => placeOrderMsg(longTerm({ orderRouterAddress: "perpx1nope" }))).toThrow(/address/i);
    expect(() => placeOrderMsg(longTerm({ builderCode: { builderAddress: "nope", feePpm: 5 } }))).toThrow(
      /address/i,
    );
  });
});
