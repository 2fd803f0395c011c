import { describe, expect, it, vi } from "vitest";
import { call, refused, useMcpNet } from "./support.js";

const net = useMcpNet();

/** A price on BTC-USD's tick at `fraction` of the oracle (rounded down to a whole dollar). */
async function farPrice(client: Parameters<typeof call>[0], fraction: number): Promise<string> {
  const { market } = await call(client, "get_market", { ticker: "BTC-USD" });
  return String(Math.floor(Number(market.oraclePrice) * fraction));
}

describe("read tools", () => {
  it("answers every read tool with structured content and decimal strings", async () => {
    const { credential } = await net.account();
    const client = await net.connect(credential);
    // Every read tool the server lists is called below (a new one must join this test).
    const reads = (await client.listTools()).tools
      .filter((t) => t.annotations?.readOnlyHint)
      .map((t) => t.name);
    expect(reads.sort()).toEqual([
      "get_account",
      "get_candles",
      "get_fills",
      "get_funding_and_pnl",
      "get_market",
      "get_open_orders",
      "get_order",
      "get_orderbook",
      "get_positions",
      "get_recent_trades",
      "get_trading_limits",
      "list_markets",
    ]);
    const { markets } = await call(client, "list_markets");
    expect(markets.map((m: { ticker: string }) => m.ticker)).toEqual(
      expect.arrayContaining(["BTC-USD", "ETH-USD"]),
    );
    expect(typeof markets[0].oraclePrice).toBe("string");
    expect(markets.every((m: { tradableByThisServer: boolean }) => m.tradableByThisServer)).toBe(true);
    const { market } = await call(client, "get_market", { ticker: "BTC-USD" });
    expect(market).toMatchObject({ ticker: "BTC-USD", status: "ACTIVE" });
    expect(await refused(client, "get_market", { ticker: "NOPE-USD" })).toMatchObject({ code: "NOT_FOUND" });
    expect((await refused(client, "get_market", { ticker: "btc" })).message).toMatch(/ticker/);
    const book = await call(client, "get_orderbook", { ticker: "BTC-USD", depth: 3 });
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.bids.length).toBeLessThanOrEqual(3);
    expect(Number(book.bids[0].price)).toBeLessThan(Number(book.asks[0].price));
    expect(Number(book.spread)).toBeGreaterThan(0);
    await call(client, "place_order", { ticker: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001" });
    await vi.waitFor(
      async () => {
        expect(
          (await call(client, "get_recent_trades", { ticker: "BTC-USD", limit: 5 })).trades.length,
        ).toBeGreaterThan(0);
        expect((await call(client, "get_fills", { ticker: "BTC-USD" })).fills.length).toBeGreaterThan(0);
        expect((await call(client, "get_positions")).positions[0]).toMatchObject({
          market: "BTC-USD",
          side: "LONG",
        });
      },
      { timeout: 10_000, interval: 200 },
    );
    const candles = (await call(client, "get_candles", { ticker: "BTC-USD", resolution: "1MIN" })).candles;
    expect(candles.length).toBeGreaterThan(0);
    const starts = candles.map((c: { startedAt: string }) => c.startedAt);
    expect(starts).toEqual([...starts].sort());
    const { account } = await call(client, "get_account");
    expect(Number(account.equity)).toBeGreaterThan(800);
    expect(typeof account.freeCollateral).toBe("string");
    const funding = await call(client, "get_funding_and_pnl", { ticker: "BTC-USD" });
    expect(Array.isArray(funding.fundingPayments) && Array.isArray(funding.historicalPnl)).toBe(true);
    expect(Array.isArray(funding.historicalFunding)).toBe(true);
    const limits = await call(client, "get_trading_limits");
    expect(limits.limits.maxLeverage).toBe("5");
    expect(limits.dailyLoss.tripped).toBe(false);
  });
});

describe("trading", () => {
  it("places a resting limit order, finds it, and cancels it with a verified CANCELED", async () => {
    const { credential, client: chain, owner } = await net.account();
    const client = await net.connect(credential);
    const price = await farPrice(client, 0.95);
    const placed = await call(client, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      size: "0.001",
      price,
    });
    expect(placed.verification.state).toBe("RESTING");
    expect(placed.txHash).toMatch(/^[0-9A-F]{64}$/);
    const { clientId } = placed.order;
    const onChain = await chain.context.node.getStatefulOrder({
      order: { subaccount: { owner: owner.address, number: 0 }, clientId, clobPairId: 0, kind: "long-term" },
    });
    expect(onChain).toBeDefined();
    await vi.waitFor(
      async () => {
        const open = (await call(client, "get_open_orders", { ticker: "BTC-USD" })).orders;
        expect(open.map((o: { clientId: string }) => o.clientId)).toContain(String(clientId));
      },
      { timeout: 10_000, interval: 200 },
    );
    const found = await call(client, "get_order", { clientId, ticker: "BTC-USD" });
    expect(found.order).toMatchObject({ clientId: String(clientId), side: "BUY", price });
    const cancelled = await call(client, "cancel_order", { clientId, ticker: "BTC-USD" });
    expect(cancelled.results).toEqual([
      expect.objectContaining({ cancelled: true, finalStatus: "CANCELED", filledBeforeCancel: "0" }),
    ]);
    await vi.waitFor(async () => {
      const gone = await chain.context.node.getStatefulOrder({
        order: {
          subaccount: { owner: owner.address, number: 0 },
          clientId,
          clobPairId: 0,
          kind: "long-term",
        },
      });
      expect(gone).toBeUndefined();
    });
  });

  it("fills a MARKET order by notional and answers FILLED with its fills", async () => {
    const { credential, client: chain } = await net.account();
    const client = await net.connect(credential);
    const placed = await call(client, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "100",
    });
    expect(placed.verification).toMatchObject({ state: "FILLED", final: true });
    expect(placed.verification.filledSize).toBe(placed.order.size);
    expect(placed.verification.fills.length).toBeGreaterThan(0);
    expect(Number(placed.order.size) * Number(placed.order.price)).toBeLessThanOrEqual(100.01);
    const { positions } = await chain.account();
    expect(positions).toEqual([expect.objectContaining({ market: "BTC-USD" })]);
  });

  it("cancels orders by client id in a batch, and every open order with cancel_all_orders", async () => {
    const { credential } = await net.account();
    const client = await net.connect(credential);
    const low = await farPrice(client, 0.93);
    const resting = [];
    for (let i = 0; i < 2; i++) {
      resting.push(
        await call(client, "place_order", {
          ticker: "BTC-USD",
          side: "BUY",
          type: "LIMIT",
          size: "0.001",
          price: low,
        }),
      );
    }
    await vi.waitFor(
      async () => {
        expect((await call(client, "get_open_orders")).orders.length).toBe(2);
      },
      { timeout: 10_000, interval: 200 },
    );
    const batch = await call(client, "batch_cancel_orders", {
      ticker: "BTC-USD",
      clientIds: [resting[0]?.order.clientId],
    });
    expect(batch.results).toEqual([expect.objectContaining({ cancelled: true })]);
    expect((await refused(client, "cancel_all_orders", {})).code).toBe("CONFIRMATION_REQUIRED");
    const all = await call(client, "cancel_all_orders", { allMarkets: true, confirm: true });
    expect(all.results).toEqual([
      expect.objectContaining({ clientId: String(resting[1]?.order.clientId), cancelled: true }),
    ]);
    await vi.waitFor(
      async () => {
        expect((await call(client, "get_open_orders")).orders).toEqual([]);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
