/**
 * `close()` ends everything: a process that built a client, used it (a block subscription over a
 * WebSocket included) and closed it exits by itself, with no timer, socket or listener left.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { useDevnet } from "./support.js";

const net = useDevnet();
const dir = mkdtempSync(join(tmpdir(), "perpx-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));

/** Runs the child; resolves with how long it lived after printing "closed", ms (or the failure). */
function exitAfterClose(
  transports: string,
): Promise<{ code: number | null; afterCloseMs: number; stderr: string }> {
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, net.devnet.caPem);
  const { nodeRpc: rpc, nodeRest: rest, grpcTls } = net.devnet.endpoints;
  const ws = rpc.replace(/^http/, "ws");
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", child, transports, rpc, ws, rest, grpcTls, caFile],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let closedAt: number | undefined;
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("closed")) closedAt = performance.now();
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A process that does not exit is killed after 10 s; the assertion below then fails.
    const guard = setTimeout(() => proc.kill("SIGKILL"), 10_000);
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
  it.each([["http"], ["ws"], ["rest"], ["grpc"], ["ws,rest,grpc"]])(
    "a client on %s: the process exits by itself within 1 s of close()",
    async (transports) => {
      const result = await exitAfterClose(transports);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.afterCloseMs).toBeLessThan(1_000);
    },
    30_000,
  );
});
