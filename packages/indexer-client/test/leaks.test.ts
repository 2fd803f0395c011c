/**
 * A call leaves nothing running behind it: no deadline timer, no retry sleep, whether it
 * succeeded, retried, timed out or was aborted (the server's own timers settle when its sockets
 * close, so the count is awaited, not sampled).
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createIndexerClient } from "../src/index.js";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server.js";

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({
    "/v4/height": (_url, call) =>
      call === 1 ? { status: 500, body: {} } : { body: { height: "1", time: "x" } },
    "/v4/time": { body: {}, delayMs: 20_000 },
  });
});
afterAll(() => server.close());

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

it("leaves no timer behind after successes, retries, timeouts and aborts", async () => {
  const before = timers();
  const client = createIndexerClient({
    baseUrl: server.baseUrl,
    timeoutMs: 60_000,
    retry: { retries: 2, baseDelayMs: 1 },
  });
  await client.getHeight();
  await client.getTime({ timeoutMs: 100 }).catch(() => undefined);
  const controller = new AbortController();
  const pending = client.getTime({ signal: controller.signal });
  await vi.waitFor(() => expect(server.requests.filter((r) => r.path === "/v4/time")).toHaveLength(2));
  controller.abort();
  await pending.catch(() => undefined);
  await vi.waitFor(() => expect(timers()).toBe(before), { timeout: 10_000 });
});
