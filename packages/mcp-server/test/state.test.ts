import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Exact } from "@perpx/core";
import { afterAll, describe, expect, it } from "vitest";
import { useMcpNet } from "./support.js";

const net = useMcpNet();
const dir = mkdtempSync(join(tmpdir(), "perpx-mcp-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("state that survives a restart, and secrets that never leave", () => {
  it("keeps the daily-loss breaker, client-id idempotency and the audit log across a restart (SQLite)", async () => {
    const account = await net.account();
    const database = join(dir, "state.sqlite");
    const accountLimits = { [account.owner.address]: { maxDailyLoss: "0.01" } };
    const seen: unknown[] = [];
    const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      seen.push(result);
      // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
      return result as { isError?: boolean; structuredContent: Record<string, any> };
    };
    // The trades come first, on a server without the tight limit: with it, the MARKET buy's worst
    // case (its slippage) is already above the day's loss budget and is refused before it is sent.
    const setup = await net.startServer({ database });
    const s = await net.connect(account.credential, setup);
    const oracle = new Exact(
      (await tool(s, "get_market", { ticker: "BTC-USD" })).structuredContent.market.oraclePrice,
    );
    const resting = await tool(s, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      size: "0.001",
      price: oracle.times("0.97").toFixed(0, "floor"),
      clientId: 501,
    });
    expect(resting.structuredContent.verification.state).toBe("RESTING");
    const bought = await tool(s, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "300",
    });
    expect(bought.structuredContent.verification.state).toBe("FILLED");
    await setup.close();

    const first = await net.startServer({ database, accountLimits });
    const a = await net.connect(account.credential, first);
    // Fees and the spread cost more than 0.01 USD: the breaker trips once the loss is seen.
    await expect
      .poll(async () => (await tool(a, "get_trading_limits")).structuredContent.dailyLoss.tripped, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(true);
    const positions = (await account.client.account()).positions.map((p) => p.size);
    const blocked = await tool(a, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "20",
    });
    expect(blocked.isError).toBe(true);
    expect(blocked.structuredContent.error.code).toBe("CIRCUIT_BREAKER");
    expect((await account.client.account()).positions.map((p) => p.size)).toEqual(positions);
    await first.close();

    const second = await net.startServer({ database, accountLimits });
    const b = await net.connect(account.credential, second);
    expect((await tool(b, "get_trading_limits")).structuredContent.dailyLoss.tripped).toBe(true);
    const stillBlocked = await tool(b, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "20",
    });
    expect(stillBlocked.structuredContent.error.code).toBe("CIRCUIT_BREAKER");
    const size = bought.structuredContent.order.size as string;
    const reused = await tool(b, "place_order", {
      ticker: "BTC-USD",
      side: "SELL",
      type: "MARKET",
      size,
      reduceOnly: true,
      clientId: 501,
    });
    expect(reused.structuredContent.error.code).toBe("DUPLICATE_CLIENT_ID");
    expect(reused.structuredContent.error.existing.state).toBe("RESTING");
    const closed = await tool(b, "place_order", {
      ticker: "BTC-USD",
      side: "SELL",
      type: "MARKET",
      size,
      reduceOnly: true,
    });
    expect(closed.structuredContent.verification?.state, JSON.stringify(closed.structuredContent)).toBe(
      "FILLED",
    );
    const cancelled = await tool(b, "cancel_order", { clientId: 501, ticker: "BTC-USD" });
    expect(cancelled.structuredContent.results[0].finalStatus).toBe("CANCELED");

    const audit = await second.store.auditLog(account.owner.address);
    expect(audit.map((e) => e.tool)).toEqual([
      "place_order",
      "place_order",
      "place_order",
      "place_order",
      "place_order",
      "place_order",
      "cancel_order",
    ]);
    expect(audit[0]?.txHash).toMatch(/^[0-9A-F]{64}$/);
    expect(audit[0]?.outcome).toMatchObject({ verification: { state: "RESTING" } });
    expect(audit[2]?.outcome).toMatchObject({ refused: expect.stringMatching(/daily-loss breaker/) });

    // Nothing the server emitted (logs, tool results, audit rows) carries the key or the credential.
    const key = account.key.exportPrivateKeyHex();
    const everything = JSON.stringify([net.logs, seen, audit]);
    for (const secret of [key, key.toUpperCase(), account.credential])
      expect(everything).not.toContain(secret);
    expect(net.logs.some((line) => line.includes("POST /mcp 200"))).toBe(true);
  });
});
