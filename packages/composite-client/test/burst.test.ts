/**
 * A burst on one client: concurrent places with one explicit client id send one order, and the
 * book of placed orders keeps only the orders that have not ended over a long run.
 */
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { type PlacedOrders, placeHumanOrder } from "../src/index.js";
import { cancelPlacedOrder } from "../src/trading.js";
import { reachState, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });

describe("a burst of places on one client", () => {
  it("concurrent places with the same client id: one is sent, the others are refused typed before signing", async () => {
    const { signer, signed } = recordingSigner(net.wallets[0]!);
    const client = await net.connect({ wallet: signer });
    await client.deposit({ amount: "1000" });
    const before = signed.length;
    const clientId = 77_000_001;
    const order = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000", clientId } as const;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => client.placeOrder({ ...order, price: String(1000 + i) })),
    );
    const placed = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(4);
    for (const error of refused) {
      expect(isInvalidArgumentError(error), String(error)).toBe(true);
      expect(String(error)).toContain("clientId");
      expect(String(error)).toContain(String(clientId));
    }
    expect(signed.length - before).toBe(1);
  });

  it("the book of placed orders drops the orders that ended (expired, cancelled) as new ones are placed", async () => {
    const client = await net.connect({ wallet: net.wallets[1]! });
    await client.deposit({ amount: "1000" });
    const placed: PlacedOrders = new Map();
    const bid = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" } as const;
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const shortTerm = await Promise.all(
        Array.from({ length: 40 }, () =>
          placeHumanOrder(client.context, placed, { ...bid, goodTil: { blocks: 20 } }),
        ),
      );
      const longTerm = await placeHumanOrder(client.context, placed, bid);
      await cancelPlacedOrder(client.context, placed, { market: "BTC-USD", clientId: longTerm.clientId });
      expect((await reachState(longTerm, "CANCELED")).status).toBe("CANCELED");
      for (const handle of shortTerm) expect((await reachState(handle, "EXPIRED")).status).toBe("EXPIRED");
      // A sweep keeps what may still be open (one round, and the last one while the height catches
      // up) and the book may double before the next: bounded by a few rounds, never all of them.
      expect(placed.size).toBeLessThanOrEqual(4 * 41);
    }
    const live = await placeHumanOrder(client.context, placed, bid);
    expect(placed.has(`BTC-USD/${live.clientId}`)).toBe(true);
    expect(placed.size).toBeLessThanOrEqual(4 * 41);
  });
});
