import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it, vi } from "vitest";
import { openSlowClients } from "../../../tests/support/slowloris.js";
import { call, refused, useMcpNet } from "./support.js";

const net = useMcpNet();
const WRITE_TOOLS = ["place_order", "cancel_order", "batch_cancel_orders", "cancel_all_orders"];

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(net.server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });

/** Opens a session with raw HTTP; answers its id. */
async function rawSession(credential: string): Promise<string> {
  const response = await post(initialize, { authorization: `Bearer ${credential}` });
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  expect(id).toMatch(/^[\x21-\x7e]+$/);
  return id as string;
}

describe("slow clients", () => {
  it("closes 200 slowloris sockets at its header timeout while /health keeps answering", async () => {
    const health = async () => {
      const answer = await fetch(new URL("/health", net.server.url));
      return ((await answer.json()) as { status: string }).status;
    };
    const slow = await openSlowClients(net.server.port, 200, { path: "/mcp" });
    try {
      expect(slow.open()).toBe(200);
      expect(await health()).toBe("ok");
      // 20 s bounds a hang only: the default header timeout (10 s) is what must end them.
      await vi.waitFor(
        async () => {
          expect(await health()).toBe("ok");
          expect(slow.closedByServer()).toBe(200);
        },
        { timeout: 20_000, interval: 250 },
      );
    } finally {
      slow.stop();
    }
  }, 60_000);

  it("refuses header and request timeouts out of range, naming them, before connecting", async () => {
    for (const [options, field] of [
      [{ headersTimeoutMs: 0 }, "headersTimeoutMs"],
      [{ requestTimeoutMs: 2.5 }, "requestTimeoutMs"],
      [{ headersTimeoutMs: 5_000, requestTimeoutMs: 4_000 }, "requestTimeoutMs"],
    ] as const) {
      const error = await net.startServer(options).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error), field).toBe(true);
      expect(String(error)).toContain(field);
    }
  });
});

describe("transport and static bearer auth", () => {
  it("answers /health with the network it is fixed to", async () => {
    const health = (await (await fetch(new URL("/health", net.server.url))).json()) as { height: string };
    expect(health).toMatchObject({ status: "ok", network: "local", chainId: "perpx-local-1" });
    expect(BigInt(health.height)).toBeGreaterThan(0n);
  });

  it("initializes a trading session and lists read and write tools, each with input and output schemas", async () => {
    const { credential } = await net.account();
    const client = await net.connect(credential);
    expect(client.getServerVersion()?.name).toBe("perpx-mcp");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...WRITE_TOOLS, "list_markets", "get_trading_limits"]));
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
    expect(tools.find((t) => t.name === "place_order")?.annotations?.destructiveHint).toBe(true);
    expect(tools.find((t) => t.name === "get_market")?.annotations?.readOnlyHint).toBe(true);
    expect((await call(client, "get_trading_limits")).readOnly).toBe(false);
  });

  it("keeps a credential without a trading key read-only: no write tool listed, and a call is refused with READ_ONLY_SESSION", async () => {
    const { readOnly, client: chain, owner } = await net.account();
    const client = await net.connect(readOnly);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of WRITE_TOOLS) expect(names).not.toContain(name);
    expect(names).toContain("get_account");
    expect((await call(client, "get_trading_limits")).readOnly).toBe(true);
    // A read-only session reads its account like a trading one.
    expect(Number((await call(client, "get_account")).account.equity)).toBeGreaterThan(0);
    expect((await call(client, "get_open_orders")).orders).toEqual([]);
    const writes: [string, Record<string, unknown>][] = [
      ["place_order", { ticker: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001" }],
      ["cancel_order", { clientId: 1, ticker: "BTC-USD" }],
      ["batch_cancel_orders", { ticker: "BTC-USD", clientIds: [1] }],
      ["cancel_all_orders", { ticker: "BTC-USD" }],
    ];
    for (const [name, args] of writes) {
      const error = await refused(client, name, args);
      expect(error.code, name).toBe("READ_ONLY_SESSION");
      expect(error.message, name).toMatch(new RegExp(`^${name} needs a trading credential`));
    }
    // An unknown tool is not a read-only refusal.
    expect(await refused(client, "no_such_tool")).toEqual({
      code: "NOT_FOUND",
      message: "Tool no_such_tool not found",
    });
    expect((await chain.account()).positions).toEqual([]);
    expect(await net.server.store.auditLog(owner.address)).toEqual([]);
  });

  it("refuses a missing or malformed credential with 401 and a clear message that never echoes the key", async () => {
    const missing = await post(initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(((await missing.json()) as { error_description: string }).error_description).toMatch(
      /Authorization/,
    );
    const key = `${"ab".repeat(31)}cd`;
    const badAddress = Buffer.from(
      JSON.stringify({ tradingPrivateKey: key, masterAddress: "perpx1nope" }),
    ).toString("base64");
    for (const [token, why] of [
      ["not*base64", /base64/],
      [Buffer.from("{not json").toString("base64"), /JSON/],
      [badAddress, /masterAddress/],
    ] as const) {
      const response = await post(initialize, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text).error_description).toMatch(why);
      expect(text).not.toContain(key);
      expect(response.headers.get("www-authenticate")).not.toContain(key);
    }
    const unregistered = Buffer.from(
      JSON.stringify({ tradingPrivateKey: key, masterAddress: (await net.account()).owner.address }),
    ).toString("base64");
    const response = await post(initialize, { authorization: `Bearer ${unregistered}` });
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/has not registered this trading key/);
    expect(net.logs.join("\n")).not.toContain(key);
  });

  it("speaks Streamable HTTP: sessions, GET streams, DELETE, protocol version, 405, 404", async () => {
    const { credential, readOnly } = await net.account();
    const auth = { authorization: `Bearer ${credential}` };
    const id = await rawSession(credential);
    const version = { "mcp-session-id": id, "mcp-protocol-version": LATEST_PROTOCOL_VERSION };
    const initialized = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { ...auth, ...version },
    );
    expect(initialized.status).toBe(202);
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...auth, ...version });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("place_order");
    const noSession = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, auth);
    expect(noSession.status).toBe(400);
    const unknown = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { ...auth, "mcp-session-id": "nope" },
    );
    expect(unknown.status).toBe(404);
    const badVersion = await post(
      { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { ...auth, ...version, "mcp-protocol-version": "1999-01-01" },
    );
    expect(badVersion.status).toBe(400);
    const other = await post(
      { jsonrpc: "2.0", id: 5, method: "tools/list" },
      { authorization: `Bearer ${readOnly}`, ...version },
    );
    expect(other.status).toBe(403);
    const controller = new AbortController();
    const stream = await fetch(net.server.url, {
      headers: { ...auth, ...version, accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
    controller.abort();
    const put = await fetch(net.server.url, { method: "PUT", headers: auth });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toContain("POST");
    const ended = await fetch(net.server.url, { method: "DELETE", headers: { ...auth, ...version } });
    expect(ended.status).toBe(200);
    const after = await post({ jsonrpc: "2.0", id: 6, method: "tools/list" }, { ...auth, ...version });
    expect(after.status).toBe(404);
  });

  it("refuses foreign origins and hosts (DNS rebinding) with 403, and binds to 127.0.0.1", async () => {
    const { credential } = await net.account();
    expect(new URL(net.server.url).hostname).toBe("127.0.0.1");
    const evil = await post(initialize, {
      authorization: `Bearer ${credential}`,
      origin: "https://evil.example",
    });
    expect(evil.status).toBe(403);
    const local = await post(initialize, {
      authorization: `Bearer ${credential}`,
      origin: "http://localhost:3000",
    });
    expect(local.status).toBe(200);
    await local.body?.cancel();
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        net.server.url,
        { method: "POST", headers: { host: "evil.example", "content-type": "application/json" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it("closes sessions left idle: the client must initialize again", async () => {
    const { credential } = await net.account();
    const server = await net.startServer({ sessionIdleMs: 300 });
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${credential}`,
      },
      body: JSON.stringify(initialize),
    });
    await response.body?.cancel();
    const id = response.headers.get("mcp-session-id") ?? "";
    // The session opened, then was closed for idleness (its log lines; a count of 1 read here would
    // race the reaper: a pause of this process over 300 ms after the answer closes it first).
    expect(id).not.toBe("");
    expect(net.logs.filter((line) => line.startsWith(`session ${id} opened for `))).toHaveLength(1);
    await vi.waitFor(() => expect(net.logs).toContain(`session ${id} closed after 300 ms idle`));
    expect(server.sessionCount()).toBe(0);
    const after = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${credential}`,
        "mcp-session-id": id,
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
  });
});
