/**
 * `close()` leaves nothing running: a process that connected (height followed by polling or by a
 * block subscription, markets cached on a schedule) and closed exits by itself.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ENDPOINT_ENV_VARS } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { endpointsOf, useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });
const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));

function exitAfterClose(
  mode: string,
): Promise<{ code: number | null; afterCloseMs: number; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, PERPX_NETWORK: "local" };
  const endpoints = { ...endpointsOf(net.devnet), grpc: net.devnet.endpoints.grpc };
  for (const [name, url] of Object.entries(endpoints)) {
    env[ENDPOINT_ENV_VARS[name as keyof typeof ENDPOINT_ENV_VARS]] = url;
  }
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, mode], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let closedAt: number | undefined;
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("closed")) closedAt = performance.now();
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A process that does not exit is killed after 15 s; the assertions below then fail.
    const guard = setTimeout(() => proc.kill("SIGKILL"), 15_000);
    proc.on("error", reject);
    proc.on("exit", (code) => {
      clearTimeout(guard);
      resolve({
        code,
        afterCloseMs: closedAt === undefined ? Number.POSITIVE_INFINITY : performance.now() - closedAt,
        stderr,
      });
    });
  });
}

describe("close() leaves nothing running", () => {
  it.each([["poll"], ["ws"]])(
    "a client following the height by %s: the process exits by itself within 1 s of close()",
    async (mode) => {
      const result = await exitAfterClose(mode);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.afterCloseMs).toBeLessThan(1_000);
    },
    30_000,
  );
});
