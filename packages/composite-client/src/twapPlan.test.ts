import { isInvalidOrderError } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import { placeOrderMsg } from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import { planContext as context } from "../test/fixtures/btc-market.js";
import { type HumanOrder, orderKind, planOrder } from "./orderPlan.js";

const twap = { durationSeconds: 600, intervalSeconds: 120, priceTolerance: "0.25%" };
const base: HumanOrder = { market: "BTC-USD", side: "BUY", type: "TWAP", size: "0.005", twap };

function refusedField(order: HumanOrder): unknown {
  try {
    planOrder(order, context);
  } catch (error) {
    return isInvalidOrderError(error) ? error.field : error;
  }
  return "accepted";
}

describe("planning a TWAP order", () => {
  it("plans a market TWAP: kind twap, price 0, the schedule in seconds, the tolerance in ppm", () => {
    expect(orderKind({ type: "TWAP" })).toBe("twap");
    const wire = planOrder(base, context);
    expect(wire).toMatchObject({ kind: "twap", quantums: 50_000_000n, subticks: 0n, clientId: 7 });
    expect(wire.kind === "twap" && wire.twap).toEqual({
      durationSeconds: 600,
      intervalSeconds: 120,
      priceTolerancePpm: 2_500,
    });
    expect(wire.kind === "twap" && wire.goodTilBlockTime).toBe(1_700_000_000 + 28 * 24 * 3600);
    const owner = LocalWallet.fromPrivateKey("07".repeat(32)).address;
    const order = placeOrderMsg({ ...wire, subaccount: { owner, number: 0 } }).value.order;
    expect([
      order?.orderId?.orderFlags,
      order?.twapParameters?.duration,
      order?.twapParameters?.priceTolerance,
    ]).toEqual([128, 600, 2_500]);
  });

  it("plans a limit TWAP at its price, with a builder code and a router", () => {
    const extras = {
      builderCode: { builderAddress: "perpx1builder", feePpm: 100 },
      orderRouterAddress: "perpx1router",
    };
    const wire = planOrder({ ...base, price: "60000", goodTil: { seconds: 3_600 }, ...extras }, context);
    expect(wire).toMatchObject({
      kind: "twap",
      subticks: 6_000_000_000n,
      goodTilBlockTime: 1_700_003_600,
      ...extras,
    });
  });

  it("refuses what a TWAP cannot be, naming the field", () => {
    const { twap: _, ...noSchedule } = base;
    expect(refusedField(noSchedule)).toBe("twap");
    expect(refusedField({ ...base, twap: { ...twap, intervalSeconds: 29 } })).toBe("twap.intervalSeconds");
    expect(refusedField({ ...base, twap: { ...twap, durationSeconds: 660 } })).toBe("twap.durationSeconds");
    expect(refusedField({ ...base, twap: { ...twap, priceTolerance: "100%" } })).toBe("twap.priceTolerance");
    expect(refusedField({ ...base, twap: { ...twap, priceTolerance: "1 %" } })).toBe("twap.priceTolerance");
    expect(refusedField({ ...base, size: "0.0004" })).toBe("quantums");
    expect(refusedField({ ...base, postOnly: true })).toBe("postOnly");
    expect(refusedField({ ...base, timeInForce: "GTC" })).toBe("timeInForce");
    expect(refusedField({ ...base, reduceOnly: true })).toBe("reduceOnly");
    expect(refusedField({ ...base, slippage: "1%" })).toBe("slippage");
    expect(refusedField({ ...base, goodTil: { blocks: 5 } })).toBe("goodTil");
    expect(refusedField({ ...base, triggerPrice: "50000" })).toBe("triggerPrice");
    expect(refusedField({ ...base, type: "LIMIT", price: "60000" })).toBe("twap");
    const unknownKey = refusedField({ ...base, twap: { ...twap, legs: 5 } as never });
    expect(isPerpxError(unknownKey) && unknownKey.name).toBe("UnknownOptionError");
  });
});
