/**
 * `close()` ends everything: a process that built a client, used it (a block subscription over a
 * WebSocket included) and closed it exits by itself, with no timer, socket or listener left.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type ExitAfterClose, exitAfterClose } from "../../../tests/support/exit-after-close.js";
import { useDevnet } from "./support.js";

const net = useDevnet();
const dir = mkdtempSync(join(tmpdir(), "perpx-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));

/** Runs the child on `transports`; resolves with how long it lived after printing "closed". */
function runChild(transports: string): Promise<ExitAfterClose> {
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, net.devnet.caPem);
  const { nodeRpc: rpc, nodeRest: rest, grpcTls } = net.devnet.endpoints;
  const ws = rpc.replace(/^http/, "ws");
  return exitAfterClose({
    script: child,
    args: [transports, rpc, ws, rest, grpcTls, caFile],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    killAfterMs: 10_000,
  });
}

describe("close() leaves nothing running", () => {
  it.each([["http"], ["ws"], ["rest"], ["grpc"], ["ws,rest,grpc"]])(
    "a client on %s: the process exits by itself within 1 s of close()",
    async (transports) => {
      const result = await runChild(transports);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.afterCloseMs).toBeLessThan(1_000);
    },
    30_000,
  );
});
