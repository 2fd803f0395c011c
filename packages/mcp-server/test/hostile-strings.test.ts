/**
 * A huge string where a tool takes a ticker is refused as INVALID_INPUT naming `ticker` before the
 * tool runs: it costs no write of the credential's rate, writes no audit row, and is not answered as
 * UPSTREAM_UNAVAILABLE (the indexer's refusal of a huge URL, which an agent would retry).
 */

import { describe, expect, it } from "vitest";
import { call, refused, useMcpNet } from "./support.js";

const net = useMcpNet();

describe("hostile strings", () => {
  it("refuses a 500 000-character ticker on every tool taking one, before running it", async () => {
    const account = await net.account();
    const server = await net.startServer({ limits: { maxWritesPerMinute: 1 } });
    const client = await net.connect(account.credential, server);
    const huge = `${"A".repeat(500_000)}-USD`;
    const order = { side: "BUY", type: "LIMIT", size: "0.001", price: "1000" };
    const calls: [string, Record<string, unknown>][] = [
      ["place_order", { ...order, ticker: huge }],
      ["cancel_all_orders", { ticker: huge }],
      ["batch_cancel_orders", { ticker: huge, clientIds: [1] }],
      ["cancel_order", { ticker: huge, clientId: 1 }],
      ["get_market", { ticker: huge }],
      ["get_orderbook", { ticker: huge }],
      ["get_recent_trades", { ticker: huge }],
      ["get_positions", { ticker: huge }],
      ["get_order", { ticker: huge, clientId: 1 }],
    ];
    for (const [tool, args] of calls) {
      const error = await refused(client, tool, args);
      expect(error.code, tool).toBe("INVALID_INPUT");
      expect(error.message, tool).toContain("ticker");
      expect(error.message.length, tool).toBeLessThan(1_000);
    }
    expect(await server.store.auditLog(account.owner.address)).toEqual([]);
    // The credential's one write a minute is still there.
    const { market } = await call(client, "get_market", { ticker: "BTC-USD" });
    const price = String(Math.floor(Number(market.oraclePrice) * 0.95));
    const preview = await call(client, "place_order", { ...order, ticker: "BTC-USD", price, dryRun: true });
    expect(preview.dryRun).toBe(true);
  });
});
