/**
 * The server's waits are checked before anything starts: a `NaN` or negative one would answer every
 * write UNKNOWN at once (or now fail it after sending), or close every session on the reaper's next
 * tick (every 10 ms), silently.
 */
import { isInvalidArgumentError } from "@perpx/errors";
import { expect, it } from "vitest";
import { startMcpServer } from "./server.js";

const closed = "http://127.0.0.1:9";

it("refuses a verifyTimeoutMs, statefulSettleMs or sessionIdleMs that is no number of ms, naming it, before connecting", async () => {
  const cases = [
    ["verifyTimeoutMs", Number.NaN],
    ["verifyTimeoutMs", -1],
    ["verifyTimeoutMs", 0],
    ["verifyTimeoutMs", Number.POSITIVE_INFINITY],
    ["statefulSettleMs", Number.NaN],
    ["statefulSettleMs", -5],
    ["sessionIdleMs", Number.NaN],
    ["sessionIdleMs", -1],
    ["sessionIdleMs", 0],
    ["sessionIdleMs", "60000"],
  ] as const;
  for (const [name, value] of cases) {
    const error = await startMcpServer({
      network: "local",
      endpoints: { nodeRpc: closed, indexer: closed, grpc: closed },
      [name]: value as number,
    }).then(
      async (server) => {
        await server.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(isInvalidArgumentError(error) && error.argument, `${name}: ${String(value)}`).toBe(name);
  }
});
