/**
 * `place_order` with a TWAP: the schema takes its schedule, the safety checks take the whole
 * order's notional (not one suborder's), and the answer says it is a TWAP with its schedule.
 */
import { describe, expect, it } from "vitest";
import { call, refused, useMcpNet } from "./support.js";

const net = useMcpNet();
const twap = (extra: Record<string, unknown> = {}) => ({
  ticker: "BTC-USD",
  side: "BUY",
  type: "TWAP",
  size: "0.005",
  twap: { durationSeconds: 300, intervalSeconds: 60, priceToleranceBps: 100 },
  ...extra,
});

describe("place_order with a TWAP", () => {
  it("places a market TWAP and answers its schedule; the chain runs its first suborder", async () => {
    const { credential, client: chain } = await net.account();
    const client = await net.connect(credential);
    const preview = await call(client, "place_order", twap({ dryRun: true }));
    expect(preview.dryRun).toBe(true);
    expect(preview.order.type).toBe("TWAP");
    expect(preview.order.twap).toEqual({
      durationSeconds: 300,
      intervalSeconds: 60,
      priceToleranceBps: 100,
      suborders: 5,
      suborderSize: "0.001",
      schedule: "5 suborders of 0.001 every 60 s over 300 s, each within 100 bps of the oracle",
    });
    // The checks priced the whole order at the oracle moved by the tolerance.
    expect(Number(preview.order.price)).toBeCloseTo(Number(preview.risk.markPrice) * 1.01, 6);
    expect(preview.risk.positionAfter).toBe("0.005");
    const placed = await call(client, "place_order", twap());
    expect(placed.message).toMatch(
      /^TWAP order (RESTING|PARTIALLY_FILLED): 5 suborders of 0\.001 every 60 s/,
    );
    expect(placed.order.twap.suborders).toBe(5);
    // Its first suborder (placed by the block that took the TWAP) fills against the market maker;
    // the next comes only an interval (60 s) later.
    let size: string | undefined;
    while (size === undefined) {
      await chain.context.height.waitAbove(chain.height());
      size = (await chain.account()).positions.find((p) => p.market === "BTC-USD")?.size;
    }
    expect(size).toBe("0.001");
  });

  it("checks the whole TWAP's notional and its tolerance against the limits, sending nothing when refused", async () => {
    const { credential, client: chain } = await net.account();
    const oracle = Number((await chain.getMarket({ ticker: "BTC-USD" })).oraclePrice);
    // One suborder (0.001 BTC) fits the limit, the whole order (0.005 BTC) does not.
    const server = await net.startServer({
      limits: { maxOrderNotional: String(Math.ceil(oracle * 0.003)), maxSlippageBps: 200 },
    });
    const client = await net.connect(credential, server);
    const whole = await refused(client, "place_order", twap());
    expect(whole.code).toBe("RISK_LIMIT");
    const loose = await refused(
      client,
      "place_order",
      twap({ size: "0.001", twap: { durationSeconds: 300, intervalSeconds: 60, priceToleranceBps: 300 } }),
    );
    expect([loose.code, loose.message]).toEqual([
      "RISK_LIMIT",
      "twap.priceToleranceBps 300 is above the limit maxSlippageBps 200",
    ]);
    const shapes: Record<string, unknown>[] = [
      twap({ twap: undefined }),
      twap({ reduceOnly: true }),
      twap({ timeInForce: "IOC" }),
      twap({ twap: { durationSeconds: 310, intervalSeconds: 60 } }),
      { ...twap(), type: "LIMIT", price: "30000" },
    ];
    for (const args of shapes)
      expect((await refused(client, "place_order", args)).code).toBe("INVALID_INPUT");
    const outOfRange = await refused(
      client,
      "place_order",
      twap({ twap: { durationSeconds: 300, intervalSeconds: 20 } }),
    );
    expect(outOfRange.code).toBe("INVALID_INPUT");
    expect((await chain.account()).positions).toEqual([]);
  });
});
