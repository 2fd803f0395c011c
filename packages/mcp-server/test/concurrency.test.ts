import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Exact, encodeCredential } from "@perpx/core";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import type { RunningMcpServer } from "../src/index.js";
import { refused, type TradingAccount, useMcpNet } from "./support.js";

const net = useMcpNet();

/** A hang, not a duration: every bound below only catches one. */
const HANG_MS = 240_000;
const LIMIT = "1000";
/** Limits where only the position limit binds: 400 USD orders, room for two. */
const LIMITS = { maxPositionNotional: LIMIT, maxWritesPerMinute: 10_000 };
const BUY = { ticker: "BTC-USD", side: "BUY", type: "MARKET", notionalUsd: "400" };

interface Outcome {
  kind: "placed" | "refused" | "unknown";
  /** The refusal's or the unknown outcome's error. */
  error?: { code: string; message: string; limit?: string; order?: { clientId: number } };
  /** The oracle price the checks used (placed and unknown orders). */
  markPrice?: string;
  state?: string;
}

async function place(client: Client, args: Record<string, unknown>): Promise<Outcome> {
  const result = (await client.callTool({ name: "place_order", arguments: args })) as CallToolResult;
  // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
  const content = result.structuredContent as Record<string, any>;
  if (!result.isError) {
    return { kind: "placed", markPrice: content.risk.markPrice, state: content.verification.state };
  }
  const error = content.error;
  if (error.code === "TIMEOUT_UNKNOWN") return { kind: "unknown", error, markPrice: error.risk.markPrice };
  return { kind: "refused", error };
}

/** `calls` MARKET buys of 400 USD at once, spread over the clients. */
function burst(clients: Client[], calls: number, clientIdBase: number): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: calls }, (_, i) =>
      place(clients[i % clients.length] as Client, { ...BUY, clientId: clientIdBase + i }),
    ),
  );
}

/** Looks up every order whose outcome was unknown until the store holds no reservation of the account. */
async function settled(
  account: TradingAccount,
  server: RunningMcpServer,
  client: Client,
  outcomes: Outcome[],
) {
  const unknown = outcomes.filter((o) => o.kind === "unknown").map((o) => o.error?.order?.clientId);
  await expect
    .poll(
      async () => {
        for (const clientId of unknown)
          await client.callTool({ name: "get_order", arguments: { clientId, ticker: "BTC-USD" } });
        return server.store.reservations(account.owner.address);
      },
      { timeout: HANG_MS, interval: 250 },
    )
    .toEqual([]);
}

/** The BTC-USD position on chain (base units, absolute). */
async function position(account: TradingAccount): Promise<Exact> {
  const held = (await account.client.account()).positions.find((p) => p.market === "BTC-USD");
  return new Exact(held?.size ?? "0").abs();
}

/**
 * Holds the outcome to the limit: the position on chain, at the lowest oracle price a check that
 * let an order through used, is within it; every refusal is RISK_LIMIT naming maxPositionNotional.
 * Prints the counts.
 */
async function expectHeld(label: string, account: TradingAccount, outcomes: Outcome[]) {
  const size = await position(account);
  const marks = outcomes
    .filter((o) => o.markPrice !== undefined)
    .map((o) => new Exact(o.markPrice as string));
  const lowest = marks.reduce((a, b) => (b.lessThan(a) ? b : a), marks[0] ?? new Exact(0));
  const count = (kind: Outcome["kind"]) => outcomes.filter((o) => o.kind === kind).length;
  const filled = outcomes.filter((o) => o.state === "FILLED" || o.state === "PARTIALLY_FILLED").length;
  console.log(
    `[reserve] ${label}: calls ${outcomes.length}, filled ${filled}, refused ${count("refused")}, unknown ${count("unknown")}, position ${size.toFixed()} BTC = ${size.times(lowest).toDecimalPlaces(2, "halfExpand").toFixed()} USD (limit ${LIMIT})`,
  );
  expect(size.times(lowest).lessThanOrEqualTo(LIMIT), `${size} BTC at ${lowest}`).toBe(true);
  const passed = outcomes.filter((o) => o.kind !== "refused").length;
  expect(marks, "every order let through reports the oracle price its check used").toHaveLength(passed);
  expect(filled, JSON.stringify(outcomes.find((o) => o.kind !== "placed")?.error)).toBeGreaterThan(0);
  for (const outcome of outcomes.filter((o) => o.kind === "refused")) {
    expect(outcome.error).toMatchObject({
      code: "RISK_LIMIT",
      limit: "maxPositionNotional",
      message: expect.stringMatching(/maxPositionNotional 1000 USD/),
    });
  }
}

describe("limits hold under concurrency: exposure is reserved per master account before signing", () => {
  for (const calls of [20, 100]) {
    it(
      `${calls} parallel MARKET buys of 400 USD on one session never take the position above maxPositionNotional ${LIMIT}`,
      async () => {
        const account = await net.account();
        const server = await net.startServer({ limits: LIMITS, verifyTimeoutMs: 30_000 });
        const client = await net.connect(account.credential, server);
        const outcomes = await burst([client], calls, 10_000);
        await settled(account, server, client, outcomes);
        await expectHeld(`${calls} calls, one session`, account, outcomes);
      },
      HANG_MS,
    );
  }

  it(
    "40 parallel buys over four sessions of one account (two trading keys) share its reservations",
    async () => {
      const account = await net.account();
      const second = LocalWallet.generate();
      await account.client.context.node.registerTradingKey({
        owner: account.owner,
        publicKey: second.publicKey,
      });
      const other = encodeCredential({
        masterAddress: account.owner.address,
        tradingPrivateKey: second.exportPrivateKeyHex(),
      });
      const server = await net.startServer({ limits: LIMITS, verifyTimeoutMs: 30_000 });
      const sessions = [
        await net.connect(account.credential, server),
        await net.connect(account.credential, server),
        await net.connect(other, server),
        await net.connect(other, server),
      ];
      const outcomes = await burst(sessions, 40, 20_000);
      await settled(account, server, sessions[0] as Client, outcomes);
      await expectHeld("40 calls, four sessions, two keys", account, outcomes);
    },
    HANG_MS,
  );

  it(
    "an order whose outcome is UNKNOWN holds its reservation until a look-up knows it",
    async () => {
      const account = await net.account();
      const server = await net.startServer({ limits: LIMITS });
      const client = await net.connect(account.credential, server);
      const owner = account.owner.address;
      let first: Outcome;
      let second: { code: string; message: string; limit?: string };
      // No block comes: the order matched at CheckTx, and its fill is not seen in time.
      net.devnet.producer.setBlockTimeMs(0);
      try {
        first = await place(client, { ...BUY, notionalUsd: "600", clientId: 31, verifyTimeoutMs: 1_000 });
        expect(first.kind).toBe("unknown");
        expect((await server.store.reservations(owner)).map((r) => r.clientId)).toEqual([31]);
        // The chain still shows no position; the reservation alone refuses 600 USD more.
        expect((await position(account)).isZero()).toBe(true);
        second = await refused(client, "place_order", { ...BUY, notionalUsd: "600", clientId: 32 });
      } finally {
        net.devnet.producer.setBlockTimeMs(100);
      }
      expect(second).toMatchObject({ code: "RISK_LIMIT", limit: "maxPositionNotional" });
      expect((await server.store.reservations(owner)).map((r) => r.clientId)).toEqual([31]);
      // Blocks again: get_order finds it filled, and its reservation is released.
      await settled(account, server, client, [first]);
      expect((await position(account)).isZero()).toBe(false);
    },
    HANG_MS,
  );
});

describe("counts under concurrency: exactly the limit passes, refusals hold nothing", () => {
  /** A resting LIMIT buy 3% under the oracle. */
  const resting = (price: Exact, clientId: number) => ({
    ticker: "BTC-USD",
    side: "BUY",
    type: "LIMIT",
    size: "0.001",
    price: price.times("0.97").toFixed(0, "floor"),
    clientId,
  });
  const oracleOf = async (client: Client) => {
    const result = (await client.callTool({
      name: "get_market",
      arguments: { ticker: "BTC-USD" },
    })) as CallToolResult;
    // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
    return new Exact((result.structuredContent as any).market.oraclePrice);
  };
  /** How many open orders the indexer lists for the account. */
  const openCount = async (client: Client) => {
    const result = (await client.callTool({ name: "get_open_orders", arguments: {} })) as CallToolResult;
    // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
    return (result.structuredContent as any).orders.length as number;
  };

  it(
    "8 parallel resting orders over two sessions with maxOpenOrders 3: exactly 3 rest, 5 are RISK_LIMIT",
    async () => {
      const account = await net.account();
      const server = await net.startServer({ limits: { maxOpenOrders: 3, maxWritesPerMinute: 10_000 } });
      const sessions = [
        await net.connect(account.credential, server),
        await net.connect(account.credential, server),
      ];
      const price = await oracleOf(sessions[0] as Client);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => place(sessions[i % 2] as Client, resting(price, 40_000 + i))),
      );
      expect(outcomes.filter((o) => o.kind === "placed").map((o) => o.state)).toEqual([
        "RESTING",
        "RESTING",
        "RESTING",
      ]);
      const refusals = outcomes.filter((o) => o.kind === "refused");
      expect(refusals).toHaveLength(5);
      for (const outcome of refusals)
        expect(outcome.error).toMatchObject({ code: "RISK_LIMIT", limit: "maxOpenOrders" });
      await expect.poll(() => openCount(sessions[0] as Client), { timeout: HANG_MS, interval: 250 }).toBe(3);
      // The refused ones held nothing: once the resting ones are listed, no reservation is left.
      await expect
        .poll(() => server.store.reservations(account.owner.address), { timeout: HANG_MS, interval: 250 })
        .toEqual([]);
    },
    HANG_MS,
  );

  it(
    "10 parallel calls with one client id over two sessions: one order is sent, 9 are DUPLICATE_CLIENT_ID",
    async () => {
      const account = await net.account();
      const server = await net.startServer({ limits: { maxWritesPerMinute: 10_000 } });
      const sessions = [
        await net.connect(account.credential, server),
        await net.connect(account.credential, server),
      ];
      const price = await oracleOf(sessions[0] as Client);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => place(sessions[i % 2] as Client, resting(price, 41_000))),
      );
      expect(outcomes.filter((o) => o.kind === "placed").map((o) => o.state)).toEqual(["RESTING"]);
      const refusals = outcomes.filter((o) => o.kind === "refused");
      expect(refusals.map((o) => o.error?.code)).toEqual(
        Array.from({ length: 9 }, () => "DUPLICATE_CLIENT_ID"),
      );
      await expect.poll(() => openCount(sessions[0] as Client), { timeout: HANG_MS, interval: 250 }).toBe(1);
      // The duplicates released what they reserved before their claim failed.
      await expect
        .poll(() => server.store.reservations(account.owner.address), { timeout: HANG_MS, interval: 250 })
        .toEqual([]);
    },
    HANG_MS,
  );
  it(
    "12 parallel write calls of one trading key over two sessions with maxWritesPerMinute 5: exactly 5 run, 7 are RATE_LIMITED",
    async () => {
      const account = await net.account();
      const server = await net.startServer({ limits: { maxWritesPerMinute: 5 } });
      const sessions = [
        await net.connect(account.credential, server),
        await net.connect(account.credential, server),
      ];
      const price = await oracleOf(sessions[0] as Client);
      const results = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const result = (await (sessions[i % 2] as Client).callTool({
            name: "place_order",
            arguments: { ...resting(price, 42_000 + i), dryRun: true },
          })) as CallToolResult;
          // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
          return result.structuredContent as Record<string, any>;
        }),
      );
      expect(results.filter((r) => r.dryRun === true)).toHaveLength(5);
      const limited = results.filter((r) => r.error !== undefined);
      expect(limited).toHaveLength(7);
      for (const { error } of limited) {
        expect(error).toMatchObject({
          code: "RATE_LIMITED",
          message: expect.stringMatching(/5 write call\(s\) a minute/),
        });
      }
    },
    HANG_MS,
  );
});
