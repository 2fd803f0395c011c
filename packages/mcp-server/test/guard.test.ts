/**
 * The request handler never rejects, whatever its hooks throw: a `log` that throws after a request
 * was answered, or while a failing `health` is turned into a 500. Before, the rejection of
 * `handle` was unhandled (the server calls it as `void handle(req, res)`), which ends a Node
 * process; vitest fails the run on it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { expect, it } from "vitest";
import { type McpRoutes, mcpHttpHandler } from "../src/http.js";

it("a log and a health check that throw: answered, and handle() resolves", async () => {
  let healthy = true;
  let logs = 0;
  const routes: McpRoutes = {
    allowHost: () => true,
    allowOrigin: () => false,
    openSession: async () => new McpServer({ name: "perpx-mcp", version: "0.0.0" }),
    health: () => {
      if (!healthy) throw new Error("the health check failed");
      return { status: "ok" };
    },
    log: () => {
      logs++;
      throw new Error("stderr is gone");
    },
    sessionIdleMs: 60_000,
  };
  const { handle, closeAll } = mcpHttpHandler(routes);
  const outcomes: Promise<void>[] = [];
  const http = createServer((req, res) => {
    outcomes.push(handle(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/health`;
  try {
    expect((await fetch(url)).status).toBe(200);
    healthy = false;
    expect((await fetch(url)).status).toBe(500);
    await expect(Promise.all(outcomes)).resolves.toEqual([undefined, undefined]);
    expect(logs).toBe(2);
  } finally {
    await closeAll();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});
