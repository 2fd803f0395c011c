/**
 * An MCP client's `notifications/cancelled` (the SDK's `extra.signal` in the tool) stops a write
 * tool while nothing of it was sent: nothing reaches the chain, the call is recorded as cancelled,
 * and its client id holds no order. Once the order went out, the cancel cannot unsend it: the call
 * runs to its end and its outcome is recorded, so a retry with the same client id is a duplicate,
 * not a second order. Each cancel is sent at a state (the server holding the call at its last store
 * step before signing, or the order seen at CheckTx), and the server has handled the notification
 * once its POST is answered.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { type McpStore, openSqliteStore, type RunningMcpServer } from "../src/index.js";
import { call, countBroadcasts, refused, type TradingAccount, useMcpNet } from "./support.js";

const net = useMcpNet();
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
});

/** One hold of a store step: resolves `reached` when a call gets there, and holds it until `open()`. */
interface Hold {
  reached: Promise<void>;
  open(): void;
}

/** The store steps a test can hold a call at. */
type Step = "claimOrder" | "claimed" | "take";

/**
 * An SQLite store whose `claimOrder` (the last step of `place_order` before it signs; `claimed`:
 * once the claim is made) or `writes.take` (the first step of a cancel tool) can hold the next call
 * until the test opens it.
 */
function holdingStore() {
  const store = openSqliteStore({ path: ":memory:" });
  const armed = new Map<Step, { arrived: () => void; opened: Promise<void> }>();
  const wait = async (step: Step) => {
    const hold = armed.get(step);
    if (!hold) return;
    armed.delete(step);
    hold.arrived();
    await hold.opened;
  };
  const held: McpStore = {
    ...store,
    claimOrder: async (key) => {
      await wait("claimOrder");
      const claim = await store.claimOrder(key);
      await wait("claimed");
      return claim;
    },
    writes: {
      take: async (...args) => {
        await wait("take");
        return store.writes.take(...args);
      },
    },
  };
  return {
    store: held,
    hold(step: Step): Hold {
      let arrived!: () => void;
      let open!: () => void;
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      armed.set(step, { arrived, opened });
      return { reached, open };
    },
  };
}

/** An MCP client whose `notifications/cancelled` POSTs can be awaited (answered: handled by the server). */
async function cancellingClient(credential: string, server: RunningMcpServer) {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${credential}` } },
  });
  const cancels: Promise<void>[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sent = send(message, options);
    if ("method" in message && message.method === "notifications/cancelled") cancels.push(sent);
    return sent;
  };
  const client = new Client({ name: "perpx-mcp-cancel-test", version: "0" });
  await client.connect(transport);
  await client.listTools();
  clients.push(client);
  return { client, cancels };
}

/** Calls a tool with a signal; the call's own promise rejects once the client cancels it. */
function callCancellable(client: Client, name: string, args: Record<string, unknown>, signal: AbortSignal) {
  return client.callTool({ name, arguments: args }, undefined, { signal }).catch((e: unknown) => e);
}

async function session() {
  const account = await net.account();
  const holding = holdingStore();
  const server = await net.startServer({ store: holding.store });
  const { client, cancels } = await cancellingClient(account.credential, server);
  const oracle = Number((await call(client, "get_market", { ticker: "BTC-USD" })).market.oraclePrice);
  return { account, server, client, cancels, holding, price: String(Math.floor(oracle * 0.95)) };
}

const restingLimit = (clientId: number, price: string) => ({
  ticker: "BTC-USD",
  side: "BUY",
  type: "LIMIT",
  size: "0.001",
  price,
  clientId,
});

/** Whether a long-term order of the account's subaccount 0 rests in the chain's state. */
async function rests(account: TradingAccount, clientId: number): Promise<boolean> {
  const subaccount = { owner: account.owner.address, number: 0 };
  const order = { subaccount, clientId, clobPairId: 0, kind: "long-term" } as const;
  return Boolean(await account.client.context.node.getStatefulOrder({ order }));
}

/** The audit log's entries of `tool` for the account, once there are `count`. */
async function audited(server: RunningMcpServer, account: TradingAccount, tool: string, count = 1) {
  const entries = async () =>
    (await server.store.auditLog(account.owner.address)).filter((entry) => entry.tool === tool);
  await expect.poll(async () => (await entries()).length).toBe(count);
  return entries();
}

describe("a cancelled write tool call", () => {
  it("place_order cancelled before its order was signed sends nothing and records it; its id is given back", async () => {
    const { account, server, client, cancels, holding, price } = await session();
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const hold = holding.hold("claimOrder");
      const controller = new AbortController();
      const placing = callCancellable(client, "place_order", restingLimit(901, price), controller.signal);
      await hold.reached;
      controller.abort(new Error("the user changed their mind"));
      await cancels[0];
      hold.open();
      const [entry] = await audited(server, account, "place_order");
      expect(entry?.outcome).toEqual({
        refused: "the request was cancelled before the order was sent: nothing was sent",
      });
      expect(entry?.txHash ?? undefined).toBeUndefined();
      expect(await placing).toBeInstanceOf(Error); // the client gave up on it: no answer comes
      expect(broadcasts.count()).toBe(0);
      expect(await rests(account, 901)).toBe(false);
      expect(await server.store.reservations(account.owner.address)).toEqual([]);
      // The id was claimed before the cancel and given back: a retry with it places the order, once.
      expect((await call(client, "place_order", restingLimit(901, price))).verification.state).toBe(
        "RESTING",
      );
      expect(broadcasts.count()).toBe(1);
      expect((await refused(client, "place_order", restingLimit(901, price))).code).toBe(
        "DUPLICATE_CLIENT_ID",
      );
      expect(broadcasts.count()).toBe(1);
    } finally {
      broadcasts.restore();
    }
  });

  it("two calls racing for one client id, the holder cancelled before sending: the other is refused while it holds the id, then places it once", async () => {
    const { account, server, client, cancels, holding, price } = await session();
    const racer = await net.connect(account.credential, server);
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const hold = holding.hold("claimed");
      const controller = new AbortController();
      const first = callCancellable(client, "place_order", restingLimit(905, price), controller.signal);
      await hold.reached;
      // The first call holds the claim: the racer is a duplicate of an order in flight, sends nothing.
      const raced = (await refused(racer, "place_order", restingLimit(905, price))) as {
        code: string;
        existing?: unknown;
      };
      expect(raced).toMatchObject({ code: "DUPLICATE_CLIENT_ID", existing: null });
      controller.abort(new Error("never mind"));
      await cancels[0];
      hold.open();
      const entries = await audited(server, account, "place_order", 2);
      expect(entries.map((entry) => entry.outcome)).toContainEqual({
        refused: "the request was cancelled before the order was sent: nothing was sent",
      });
      expect(await first).toBeInstanceOf(Error);
      expect(broadcasts.count()).toBe(0);
      expect(
        await server.store.orderOutcome({ account: account.owner.address, ticker: "BTC-USD", clientId: 905 }),
      ).toBe(undefined);
      // Given back: the racer's retry places the order, and only once.
      const [again, twice] = await Promise.all([
        racer.callTool({ name: "place_order", arguments: restingLimit(905, price) }),
        client.callTool({ name: "place_order", arguments: restingLimit(905, price) }),
      ]);
      const outcomes = [again, twice].map((r) =>
        r.isError ? (r.structuredContent as { error: { code: string } }).error.code : "PLACED",
      );
      expect(outcomes.sort()).toEqual(["DUPLICATE_CLIENT_ID", "PLACED"]);
      expect(broadcasts.count()).toBe(1);
      expect(await rests(account, 905)).toBe(true);
    } finally {
      broadcasts.restore();
    }
  });

  it("place_order cancelled after its order went out runs to its end: outcome recorded, a retry is a duplicate", async () => {
    const { account, server, client, cancels, price } = await session();
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const controller = new AbortController();
      const placing = callCancellable(client, "place_order", restingLimit(902, price), controller.signal);
      await expect.poll(() => broadcasts.count()).toBe(1);
      controller.abort(new Error("too late"));
      await cancels[0];
      const [entry] = await audited(server, account, "place_order");
      expect(entry?.txHash).toMatch(/^[0-9A-F]{64}$/);
      expect(entry?.outcome).toMatchObject({ verification: { state: "RESTING" } });
      expect(await placing).toBeInstanceOf(Error);
      const again = (await refused(client, "place_order", restingLimit(902, price))) as {
        code: string;
        existing?: unknown;
      };
      expect(again).toMatchObject({
        code: "DUPLICATE_CLIENT_ID",
        existing: { state: "RESTING", txHash: entry?.txHash },
      });
      expect(broadcasts.count()).toBe(1);
      expect(await rests(account, 902)).toBe(true);
    } finally {
      broadcasts.restore();
    }
  });

  it("place_order whose send fails after its bytes went out records UNKNOWN with the tx hash: a retry is a duplicate", async () => {
    const { account, server, client, price } = await session();
    // The node takes the bytes and answers an error instead of a CheckTx result.
    const app = net.devnet.app as { checkTx: (tx: Uint8Array) => unknown };
    const original = app.checkTx;
    const needle = Buffer.from(account.owner.address);
    app.checkTx = (tx) => {
      if (Buffer.from(tx).includes(needle)) throw new Error("the node fell over mid-CheckTx");
      return original.call(app, tx);
    };
    let error: { code: string; txHash?: string; message: string };
    try {
      error = (await refused(client, "place_order", restingLimit(904, price))) as typeof error;
    } finally {
      app.checkTx = original;
    }
    expect(error).toMatchObject({ code: "TIMEOUT_UNKNOWN", txHash: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(error.message).toMatch(/get_order.*do not resubmit/);
    const [entry] = await audited(server, account, "place_order");
    expect(entry).toMatchObject({ txHash: error.txHash, outcome: { unknown: expect.any(String) } });
    // It may be on the chain: its reservation stays, and its id is taken with the tx hash.
    expect(await server.store.reservations(account.owner.address)).toHaveLength(1);
    const again = (await refused(client, "place_order", restingLimit(904, price))) as {
      code: string;
      existing?: unknown;
    };
    expect(again).toMatchObject({
      code: "DUPLICATE_CLIENT_ID",
      existing: { state: "UNKNOWN", txHash: error.txHash },
    });
  });

  it("cancel_order cancelled before its cancel was sent sends nothing: the order still rests", async () => {
    const { account, server, client, cancels, holding, price } = await session();
    expect((await call(client, "place_order", restingLimit(903, price))).verification.state).toBe("RESTING");
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const hold = holding.hold("take");
      const controller = new AbortController();
      const cancelling = callCancellable(
        client,
        "cancel_order",
        { clientId: 903, ticker: "BTC-USD" },
        controller.signal,
      );
      await hold.reached;
      controller.abort(new Error("keep it"));
      await cancels[0];
      hold.open();
      const [entry] = await audited(server, account, "cancel_order");
      expect(entry?.outcome).toEqual({
        refused: "the request was cancelled before its cancel transaction was sent: nothing was sent",
      });
      expect(await cancelling).toBeInstanceOf(Error);
      expect(broadcasts.count()).toBe(0);
      expect(await rests(account, 903)).toBe(true);
      // Not cancelled after all: a cancel that is not cancelled goes through.
      const done = await call(client, "cancel_order", { clientId: 903, ticker: "BTC-USD" });
      expect(done.results).toMatchObject([{ clientId: "903", cancelled: true }]);
    } finally {
      broadcasts.restore();
    }
  });
});
