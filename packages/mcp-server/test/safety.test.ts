import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import type { RunningMcpServer, TradingLimits } from "../src/index.js";
import { call, refused, type TradingAccount, useMcpNet } from "./support.js";

const net = useMcpNet();

/** A trading session on a server with these limits, for a fresh account. */
async function session(
  limits: Partial<TradingLimits> | ((equity: number) => Partial<TradingLimits>) = {},
): Promise<{ client: Client; account: TradingAccount; server: RunningMcpServer }> {
  const account = await net.account();
  const equity = Number((await account.client.account()).equity);
  const server = await net.startServer({ limits: typeof limits === "function" ? limits(equity) : limits });
  return { client: await net.connect(account.credential, server), account, server };
}

/** What the chain holds for the account: positions, and whether each client id rests in state. */
async function chainState(account: TradingAccount, clientIds: number[]) {
  const { node } = account.client.context;
  const resting = await Promise.all(
    clientIds.map(async (clientId) =>
      Boolean(
        await node.getStatefulOrder({
          order: {
            subaccount: { owner: account.owner.address, number: 0 },
            clientId,
            clobPairId: 0,
            kind: "long-term",
          },
        }),
      ),
    ),
  );
  return { positions: (await account.client.account()).positions.map((p) => [p.market, p.size]), resting };
}

async function oracle(client: Client, ticker = "BTC-USD"): Promise<number> {
  return Number((await call(client, "get_market", { ticker })).market.oraclePrice);
}

const limit = (clientId: number, price: number, size = "0.001", extra: Record<string, unknown> = {}) => ({
  ticker: "BTC-USD",
  side: "BUY",
  type: "LIMIT",
  size,
  price: String(Math.floor(price)),
  clientId,
  ...extra,
});

describe("safety limits: every refusal sends nothing (checked on chain)", () => {
  it("refuses by market allowlist, price band, order notional, bad shape, off-grid size and slippage", async () => {
    const { client, account } = await session({
      allowedMarkets: ["BTC-USD"],
      priceBandBps: 300,
      maxOrderNotional: "200",
    });
    const price = await oracle(client);
    const ids = [101, 102, 103, 104, 105];
    const cases: [Record<string, unknown>, string][] = [
      [{ ...limit(101, price), ticker: "ETH-USD", price: "3000" }, "MARKET_NOT_ALLOWED"],
      [limit(102, price * 0.9), "PRICE_BAND"],
      [limit(103, price * 0.99, "0.01"), "RISK_LIMIT"],
      [{ ...limit(104, price * 0.99), notionalUsd: "50" }, "INVALID_INPUT"],
      [limit(105, price * 0.99, "0.00012345"), "QUANTIZATION"],
      [{ ticker: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippageBps: 501 }, "RISK_LIMIT"],
    ];
    for (const [args, code] of cases) {
      const error = await refused(client, "place_order", args);
      expect(error.code, JSON.stringify(args)).toBe(code);
    }
    expect(
      (await refused(client, "place_order", { ...limit(106, price * 0.9), ticker: "SOL-USD" })).message,
    ).toMatch(/SOL-USD is not among the markets/);
    for (const size of ["-1", "1e3", "0"]) {
      const bad = await refused(client, "place_order", { ...limit(107, price), size });
      expect(bad, size).toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/a positive decimal string[\s\S]*at size/),
      });
    }
    const listed = (await call(client, "list_markets", { allowedOnly: true })).markets;
    expect(listed.map((m: { ticker: string }) => m.ticker)).toEqual(["BTC-USD"]);
    expect(await chainState(account, ids)).toEqual({ positions: [], resting: ids.map(() => false) });
  });

  it("refuses above the max position notional and max leverage, and a reduce-only order that would open", async () => {
    // Leverage allows about 110 USD of positions: one 80 USD BTC position, not 60 USD more of ETH.
    const { client, account } = await session((equity) => ({
      maxPositionNotional: "150",
      maxLeverage: (110 / equity).toFixed(6),
    }));
    const filled = await call(client, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "80",
    });
    expect(filled.verification.state).toBe("FILLED");
    await expect
      .poll(async () => (await chainState(account, [])).positions.length, { timeout: 5_000, interval: 100 })
      .toBe(1);
    const before = await chainState(account, []);
    expect(
      (
        await refused(client, "place_order", {
          ticker: "BTC-USD",
          side: "BUY",
          type: "MARKET",
          notionalUsd: "80",
        })
      ).code,
    ).toBe("RISK_LIMIT");
    const leverage = await refused(client, "place_order", {
      ticker: "ETH-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "60",
    });
    expect(leverage).toMatchObject({ code: "RISK_LIMIT", message: expect.stringMatching(/leverage/) });
    const reduce = await refused(client, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      notionalUsd: "20",
      reduceOnly: true,
    });
    expect(reduce.code).toBe("REDUCE_ONLY");
    expect(await chainState(account, [])).toEqual(before);
    const closing = await call(client, "place_order", {
      ticker: "BTC-USD",
      side: "SELL",
      type: "MARKET",
      size: filled.order.size,
      reduceOnly: true,
    });
    expect(closing.verification.state).toBe("FILLED");
    expect((await chainState(account, [])).positions).toEqual([]);
  });

  it("refuses above the max open orders, asks confirmation above a notional, and previews with dryRun", async () => {
    const { client, account } = await session({ maxOpenOrders: 1, confirmAboveNotional: "50" });
    const price = (await oracle(client)) * 0.97;
    const preview = await call(client, "place_order", limit(201, price, "0.001", { dryRun: true }));
    expect(preview).toMatchObject({ dryRun: true, order: { clientId: 201, size: "0.001" } });
    expect(preview.checks.map((c: { check: string }) => c.check)).toEqual(
      expect.arrayContaining(["market_allowlist", "price_band", "max_leverage", "quantization", "client_id"]),
    );
    expect(await chainState(account, [201])).toEqual({ positions: [], resting: [false] });
    expect((await refused(client, "place_order", limit(201, price))).code).toBe("CONFIRMATION_REQUIRED");
    expect(await chainState(account, [201])).toEqual({ positions: [], resting: [false] });
    const placed = await call(client, "place_order", limit(201, price, "0.001", { confirm: true }));
    expect(placed.verification.state).toBe("RESTING");
    await expect
      .poll(async () => (await call(client, "get_open_orders")).orders.length, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(1);
    expect((await refused(client, "place_order", limit(202, price, "0.0005"))).code).toBe("RISK_LIMIT");
    expect(await chainState(account, [201, 202])).toEqual({ positions: [], resting: [true, false] });
  });

  it("refuses a reused client id as a duplicate: one order on chain", async () => {
    const { client, account } = await session();
    const price = (await oracle(client)) * 0.97;
    expect((await call(client, "place_order", limit(301, price))).verification.state).toBe("RESTING");
    const again = await refused(client, "place_order", limit(301, price));
    expect(again).toMatchObject({ code: "DUPLICATE_CLIENT_ID", message: expect.stringMatching(/get_order/) });
    const dry = await refused(client, "place_order", limit(301, price, "0.001", { dryRun: true }));
    expect(dry.code).toBe("DUPLICATE_CLIENT_ID");
    await expect
      .poll(async () => (await call(client, "get_open_orders")).orders.length, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(1);
    expect(await chainState(account, [301])).toEqual({ positions: [], resting: [true] });
  });

  it("refuses with INSUFFICIENT_COLLATERAL when the free collateral does not cover the initial margin", async () => {
    const { client, account } = await session({
      maxOrderNotional: "1000000",
      maxPositionNotional: "1000000",
      maxLeverage: "1000",
      confirmAboveNotional: "1000000",
    });
    const price = (await oracle(client)) * 0.99;
    // 1.5 times what the free collateral carries at the market's initial margin fraction.
    const imf = Number(
      (await call(client, "get_market", { ticker: "BTC-USD" })).market.initialMarginFraction,
    );
    const free = Number((await account.client.account()).freeCollateral);
    const size = (Math.ceil(((free * 1.5) / (price * imf)) * 10_000) / 10_000).toString();
    const error = await refused(client, "place_order", limit(401, price, size));
    expect(error).toMatchObject({
      code: "INSUFFICIENT_COLLATERAL",
      message: expect.stringMatching(/USDC of free collateral \(initial margin\), the subaccount has \d+/),
    });
    const { required, freeCollateral } = error as unknown as { required: string; freeCollateral: string };
    expect(Number(required)).toBeGreaterThan(Number(freeCollateral));
    expect(freeCollateral).toBe((await account.client.account()).freeCollateral);
    expect(await chainState(account, [401])).toEqual({ positions: [], resting: [false] });
  });

  it("answers TIMEOUT_UNKNOWN (isError, with the tx hash) when an order's fate is not seen in time, and never resubmits", async () => {
    const { client, account, server } = await session();
    const price = Math.floor((await oracle(client)) * 0.95);
    // No block comes while the order is watched: it was accepted at CheckTx, its fate is unknown.
    net.devnet.producer.setBlockTimeMs(0);
    let error: { code: string; message: string; txHash?: string; order?: { clientId: number } };
    try {
      const result = (await client.callTool({
        name: "place_order",
        arguments: { ...limit(701, price), timeInForce: "IOC", verifyTimeoutMs: 1_000 },
      })) as unknown as { isError?: boolean; structuredContent: { error: typeof error } };
      expect(result.isError).toBe(true);
      error = result.structuredContent.error;
    } finally {
      net.devnet.producer.setBlockTimeMs(100);
    }
    expect(error).toMatchObject({
      code: "TIMEOUT_UNKNOWN",
      message: expect.stringMatching(/get_order with clientId 701.*do not resubmit/),
      txHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      order: { clientId: 701 },
    });
    const audit = await server.store.auditLog(account.owner.address);
    expect(audit).toEqual([
      expect.objectContaining({
        tool: "place_order",
        txHash: error.txHash,
        outcome: expect.objectContaining({ verification: expect.objectContaining({ state: "UNKNOWN" }) }),
      }),
    ]);
    // Blocks again: the IOC order ends unfilled; the server sent it once and holds its id as used.
    expect((await refused(client, "place_order", limit(701, price))).code).toBe("DUPLICATE_CLIENT_ID");
    expect(await chainState(account, [701])).toEqual({ positions: [], resting: [false] });
  });

  it("refuses a credential's write calls above its rate with RATE_LIMITED and a retry-after hint, sending nothing", async () => {
    const account = await net.account();
    const other = await net.account();
    // The server allows 5 writes a minute; this account's own limit is 2 (a credential only tightens).
    const server = await net.startServer({
      limits: { maxWritesPerMinute: 5 },
      accountLimits: { [account.owner.address]: { maxWritesPerMinute: 2 } },
    });
    const client = await net.connect(account.credential, server);
    const price = (await oracle(client)) * 0.97;
    expect((await call(client, "place_order", limit(801, price))).verification.state).toBe("RESTING");
    expect((await call(client, "place_order", limit(802, price, "0.001", { dryRun: true }))).dryRun).toBe(
      true,
    );
    const error = (await refused(client, "place_order", limit(803, price))) as {
      code: string;
      message: string;
      retryAfterMs?: number;
      retryAfterSeconds?: number;
    };
    expect(error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/2 write call\(s\) a minute/),
    });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(error.retryAfterSeconds).toBe(Math.ceil((error.retryAfterMs ?? 0) / 1000));
    // Cancels are writes too; reads are not counted.
    expect((await refused(client, "cancel_order", { clientId: 801, ticker: "BTC-USD" })).code).toBe(
      "RATE_LIMITED",
    );
    expect((await call(client, "get_trading_limits")).limits.maxWritesPerMinute).toBe(2);
    // A second session of the same credential shares the budget; another credential has its own.
    const again = await net.connect(account.credential, server);
    expect((await refused(again, "place_order", limit(804, price))).code).toBe("RATE_LIMITED");
    const neighbour = await net.connect(other.credential, server);
    expect((await call(neighbour, "place_order", limit(805, price))).verification.state).toBe("RESTING");
    expect(await chainState(account, [801, 802, 803, 804])).toEqual({
      positions: [],
      resting: [true, false, false, false],
    });
    const audit = await server.store.auditLog(account.owner.address);
    expect(audit.map((e) => e.tool)).toEqual(["place_order", "place_order"]);
  });
});
