import { Exact } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { type McpStore, openPostgresStore } from "../src/index.js";
import {
  authorizeUrl,
  consentOverHttp,
  fundedEvmWallet,
  OAUTH_SECRET,
  originOf,
  pkcePair,
  registerClient,
  tokenRequest,
} from "./oauth-support.js";
import { usePostgres } from "./postgres-support.js";
import { account as raceAccount, raceClaims, raceReservations } from "./race.js";
import { call, refused, useMcpNet } from "./support.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
type Loose = Record<string, any>;

const net = useMcpNet();
const pg = usePostgres();

describe("two server instances on one Postgres", () => {
  it("reserve atomically across stores: 40 reservations at once over two stores with room for 3 store 3", async () => {
    const stores = [
      await openPostgresStore({ connectionString: pg.url() }),
      await openPostgresStore({ connectionString: pg.url() }),
    ];
    try {
      expect(await raceReservations(stores, 40, 3)).toBe(3);
      expect(await stores[1]?.reservations(raceAccount)).toHaveLength(3);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it("give a client id's claim back across stores only while no outcome is recorded: 40 claims at once then claim it once", async () => {
    const stores = [
      await openPostgresStore({ connectionString: pg.url() }),
      await openPostgresStore({ connectionString: pg.url() }),
    ];
    try {
      expect(await raceClaims(stores, 40)).toEqual({
        firstClaimed: true,
        claimedWhileHeld: 0,
        released: [true, false],
        claimedAtOnce: 1,
        settled: { release: false, claim: { claimed: false, outcome: { state: "RESTING", txHash: "AB" } } },
      });
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it("hold the position limit for 40 parallel MARKET buys of one account split over both, and release every reservation", async () => {
    const limits = { maxPositionNotional: "1000", maxWritesPerMinute: 10_000 };
    const [one, two] = await Promise.all(
      [0, 1].map(async () =>
        net.startServer({
          limits,
          verifyTimeoutMs: 30_000,
          store: await openPostgresStore({ connectionString: pg.url() }),
        }),
      ),
    );
    if (!one || !two) throw new Error("no servers");
    const account = await net.account();
    const sessions = [await net.connect(account.credential, one), await net.connect(account.credential, two)];
    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const result = (await (sessions[i % 2] as (typeof sessions)[number]).callTool({
          name: "place_order",
          arguments: {
            ticker: "BTC-USD",
            side: "BUY",
            type: "MARKET",
            notionalUsd: "400",
            clientId: 40_000 + i,
          },
        })) as { isError?: boolean; structuredContent: Loose };
        return result;
      }),
    );
    const placed = results.filter((r) => !r.isError).map((r) => r.structuredContent);
    const refusals = results.filter((r) => r.isError).map((r) => r.structuredContent.error);
    const held = (await account.client.account()).positions.find((p) => p.market === "BTC-USD");
    const size = new Exact(held?.size ?? "0").abs();
    const marks = placed.map((p) => new Exact(p.risk.markPrice));
    const lowest = marks.reduce((a, b) => (b.lessThan(a) ? b : a), marks[0] ?? new Exact(0));
    console.log(
      `[reserve] 40 calls, two instances on one Postgres: filled ${placed.filter((p) => p.verification.state === "FILLED").length}, refused ${refusals.length}, position ${held?.size ?? "0"} BTC = ${size.times(lowest).toFixed(2, "halfExpand")} USD (limit 1000)`,
    );
    expect(placed.length).toBeGreaterThan(0);
    expect(size.times(lowest).lessThanOrEqualTo("1000")).toBe(true);
    for (const error of refusals) {
      expect(error).toMatchObject({ code: "RISK_LIMIT", limit: "maxPositionNotional" });
    }
    // Each order's reservation is released after its answer, once its outcome counts elsewhere.
    await expect.poll(() => one.store.reservations(account.owner.address)).toEqual([]);
  }, 240_000);

  it("share the write rate: a credential's calls on either count toward one budget", async () => {
    const limits = { maxWritesPerMinute: 3 };
    const [one, two] = await Promise.all(
      [0, 1].map(async () =>
        net.startServer({ limits, store: await openPostgresStore({ connectionString: pg.url() }) }),
      ),
    );
    if (!one || !two) throw new Error("no servers");
    const account = await net.account();
    const a = await net.connect(account.credential, one);
    const b = await net.connect(account.credential, two);
    const oracle = new Exact((await call(a, "get_market", { ticker: "BTC-USD" })).market.oraclePrice);
    const dry = (clientId: number) => ({
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      size: "0.001",
      price: oracle.times("0.97").toFixed(0, "floor"),
      clientId,
      dryRun: true,
    });
    expect((await call(a, "place_order", dry(1))).dryRun).toBe(true);
    expect((await call(b, "place_order", dry(2))).dryRun).toBe(true);
    expect((await call(a, "place_order", dry(3))).dryRun).toBe(true);
    const over = await refused(b, "place_order", dry(4));
    expect(over).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/3 write call\(s\) a minute/),
    });
  });

  it("share idempotency: a client id used on one is refused as a duplicate on the other; the audit log is shared", async () => {
    const stores: McpStore[] = [
      await openPostgresStore({ connectionString: pg.url() }),
      await openPostgresStore({ connectionString: pg.url() }),
    ];
    const [one, two] = await Promise.all(stores.map((store) => net.startServer({ store })));
    const account = await net.account();
    const a = await net.connect(account.credential, one);
    const b = await net.connect(account.credential, two);
    const oracle = new Exact((await call(a, "get_market", { ticker: "BTC-USD" })).market.oraclePrice);
    const order = {
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      size: "0.001",
      price: oracle.times("0.97").toFixed(0, "floor"),
      clientId: 701,
    };
    expect((await call(a, "place_order", order)).verification.state).toBe("RESTING");
    const duplicate = await refused(b, "place_order", order);
    expect(duplicate.code).toBe("DUPLICATE_CLIENT_ID");
    const onChain = await account.client.context.node.getStatefulOrder({
      order: {
        subaccount: { owner: account.owner.address, number: 0 },
        clientId: 701,
        clobPairId: 0,
        kind: "long-term",
      },
    });
    expect(onChain).toBeDefined();
    const audit = await stores[1]?.auditLog(account.owner.address);
    expect(audit?.map((e) => e.outcome)).toEqual([
      expect.objectContaining({ verification: expect.objectContaining({ state: "RESTING" }) }),
      expect.objectContaining({ refused: expect.stringMatching(/clientId 701 was already used/) }),
    ]);
  });

  it("share OAuth state: a code issued on one is redeemed once, on either; its token opens sessions on both", async () => {
    const options = { auth: "oauth" as const, oauth: { secret: OAUTH_SECRET } };
    const [one, two] = await Promise.all([
      net.startServer({ ...options, store: await openPostgresStore({ connectionString: pg.url() }) }),
      net.startServer({ ...options, store: await openPostgresStore({ connectionString: pg.url() }) }),
    ]);
    if (!one || !two) throw new Error("no servers");
    const redirect = "http://127.0.0.1:7/callback";
    const client = await registerClient(originOf(one.url), redirect);
    const { verifier, challenge } = pkcePair();
    const evm = await fundedEvmWallet(net.devnet);
    const back = await consentOverHttp(
      originOf(one.url),
      authorizeUrl(originOf(one.url), { clientId: client.client_id, redirectUri: redirect, challenge }),
      evm,
    );
    const form = {
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: back.searchParams.get("code") ?? "",
      code_verifier: verifier,
    };
    const tokens = await tokenRequest(originOf(two.url), form);
    expect(tokens.status).toBe(200);
    expect(await tokenRequest(originOf(one.url), form)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    // The reuse revoked the grant everywhere.
    const revoked = await fetch(one.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.body.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(revoked.status).toBe(401);

    const again = await consentOverHttp(
      originOf(two.url),
      authorizeUrl(originOf(two.url), { clientId: client.client_id, redirectUri: redirect, challenge }),
      evm,
    );
    const fresh = await tokenRequest(originOf(one.url), {
      ...form,
      code: again.searchParams.get("code") ?? "",
    });
    expect(fresh.status).toBe(200);
    for (const server of [one, two]) {
      const session = await net.connect(fresh.body.access_token ?? "", server);
      expect((await call(session, "get_account")).account.address).toBe(evm.address);
    }
  });
});
