/**
 * A hostile agent's tool calls at the edges of JSON and of the input schemas, sent as raw JSON-RPC
 * (so that `1e400`, `-0` and an own `__proto__` key reach the server as written): each is refused
 * with the README's code naming the argument (or, for a tool the session does not have,
 * `NOT_FOUND`), before the tool runs, and the devnet sees no transaction of the account.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { call, countBroadcasts, type TradingAccount, useMcpNet } from "./support.js";

const net = useMcpNet();

/** A session spoken to in raw JSON-RPC over Streamable HTTP. */
async function rawSession(url: string, credential: string) {
  const headers = {
    Authorization: `Bearer ${credential}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-06-18",
  };
  const post = (body: string, session?: string) =>
    fetch(url, {
      method: "POST",
      headers: session ? { ...headers, "Mcp-Session-Id": session } : headers,
      body,
    });
  const init = await post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "hostile", version: "0" },
      },
    }),
  );
  const session = init.headers.get("mcp-session-id") ?? "";
  await init.text();
  await (await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), session)).text();
  let id = 10;
  /** Calls `tool` with `args` written as raw JSON; answers the HTTP status and the JSON-RPC message. */
  return async (tool: string, args: string) => {
    const body = `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${args}}}`;
    const response = await post(body, session);
    const text = await response.text();
    const data = text.split("\n").find((line) => line.startsWith("data:"));
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON-RPC messages loosely
    const message: any = JSON.parse(data ? data.slice(5) : text);
    return {
      status: response.status,
      rpcError: message.error as { code: number; message: string } | undefined,
      error: message.result?.structuredContent?.error as { code: string; message: string } | undefined,
    };
  };
}

describe("hostile tool arguments (raw JSON-RPC)", () => {
  let account: TradingAccount;
  let raw: Awaited<ReturnType<typeof rawSession>>;
  let order: string;
  beforeAll(async () => {
    account = await net.account();
    const client = await net.connect(account.credential);
    const { market } = await call(client, "get_market", { ticker: "BTC-USD" });
    raw = await rawSession(net.server.url, account.credential);
    const price = String(Math.floor(Number(market.oraclePrice) * 0.95));
    order = `"ticker":"BTC-USD","side":"BUY","type":"LIMIT","size":"0.001","price":"${price}"`;
  });

  it("refuses an argument named __proto__ on every tool as an unknown one, naming it: never dropped unseen", async () => {
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const cases: [string, string][] = [
        ["place_order", `{${order},"__proto__":{"confirm":true}}`],
        [
          "place_order",
          `{${order},"twap":{"durationSeconds":300,"intervalSeconds":60,"__proto__":{}},"type":"TWAP"}`,
        ],
        ["cancel_all_orders", `{"ticker":"BTC-USD","__proto__":{"allMarkets":true}}`],
        ["cancel_all_orders", `{"__proto__":{"allMarkets":true,"confirm":true}}`],
        ["get_trading_limits", `{"__proto__":{"readOnly":true}}`],
        ["list_markets", `{"__proto__":null}`],
      ];
      for (const [tool, args] of cases) {
        const { error } = await raw(tool, args);
        expect(error?.code, `${tool} ${args}`).toBe("INVALID_INPUT");
        expect(error?.message, `${tool} ${args}`).toContain('"__proto__"');
      }
      expect(broadcasts.count()).toBe(0);
      expect(await net.server.store.auditLog(account.owner.address)).toEqual([]);
    } finally {
      broadcasts.restore();
    }
  });

  it("answers a tool name of Object.prototype (__proto__, constructor, toString) NOT_FOUND, as any unknown tool", async () => {
    for (const tool of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "nope"]) {
      const { error } = await raw(tool, "{}");
      expect(error, tool).toEqual({ code: "NOT_FOUND", message: `Tool ${tool} not found` });
    }
  });

  it("refuses a client id above uint32 on every tool taking one, naming it, before looking it up or counting a write", async () => {
    const server = await net.startServer({ limits: { maxWritesPerMinute: 1 } });
    const limited = await rawSession(server.url, account.credential);
    const cases: [string, string, string][] = [
      ["get_order", `{"ticker":"BTC-USD","clientId":4294967301}`, "clientId"],
      ["cancel_order", `{"ticker":"BTC-USD","clientId":4294967296}`, "clientId"],
      ["batch_cancel_orders", `{"ticker":"BTC-USD","clientIds":[1,4294967296]}`, "clientIds"],
      ["place_order", `{${order},"clientId":4294967296}`, "clientId"],
    ];
    for (const [tool, args, field] of cases) {
      const { error } = await limited(tool, args);
      expect(error?.code, tool).toBe("INVALID_INPUT");
      expect(error?.message, tool).toContain(field);
    }
    // The one write a minute was not spent on them.
    const preview = await limited("cancel_all_orders", `{"ticker":"BTC-USD"}`);
    expect(preview.error).toBeUndefined();
  });

  it("refuses numbers at JSON's edges and wrong types with INVALID_INPUT naming the argument (held before)", async () => {
    const broadcasts = countBroadcasts(net.devnet, account.owner.address);
    try {
      const cases: [string, string, string][] = [
        ["place_order", `{${order},"clientId":1e400}`, "clientId"],
        ["place_order", `{${order},"goodTilSeconds":9007199254740993}`, "goodTilSeconds"],
        ["place_order", `{${order},"clientId":"１"}`, "clientId"],
        ["place_order", `{${order},"clientId":[1]}`, "clientId"],
        ["place_order", `{"ticker":"BTC-USD","side":"BUY","type":"MARKET","size":"1e3"}`, "size"],
        ["place_order", `{"ticker":"BTC-USD","side":"BUY","type":"MARKET","size":"٣"}`, "size"],
        ["place_order", `{${order},"constructor":{}}`, "constructor"],
        ["get_account", `{"subaccountNumber":1e400}`, "subaccountNumber"],
        ["get_orderbook", `{"ticker":"BTC-USD","depth":"1"}`, "depth"],
        ["get_candles", `{"ticker":"BTC-USD","resolution":"constructor"}`, "resolution"],
      ];
      for (const [tool, args, field] of cases) {
        const { error } = await raw(tool, args);
        expect(error?.code, `${tool} ${args}`).toBe("INVALID_INPUT");
        expect(error?.message, `${tool} ${args}`).toContain(field);
      }
      // Arguments that are not an object: JSON-RPC's invalid params, not an internal error.
      for (const args of ["[1,2]", '"x"', "null"]) {
        const { rpcError } = await raw("place_order", args);
        expect(rpcError?.code, args).toBe(-32602);
      }
      // A 1 MB string anywhere: the body is refused whole.
      expect((await raw("place_order", `{${order},"ticker":"${"A".repeat(1_048_576)}"}`)).status).toBe(413);
      expect(broadcasts.count()).toBe(0);
    } finally {
      broadcasts.restore();
    }
  });
});
