/**
 * `close()` ends everything: a process that built a client, used it (a block subscription over a
 * WebSocket included) and closed it holds no timer, socket or handle of the client's afterwards and
 * exits by itself, however long that takes on a loaded machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  CLOSE_TEST_TIMEOUT_MS,
  type ExitAfterClose,
  exitAfterClose,
} from "../../../tests/support/exit-after-close.js";
import { useDevnet } from "./support.js";

const net = useDevnet();
const dir = mkdtempSync(join(tmpdir(), "perpx-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));

/** Runs the child on `transports`; resolves with what it left after close() and how it exited. */
function runChild(transports: string): Promise<ExitAfterClose> {
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, net.devnet.caPem);
  const { nodeRpc: rpc, nodeRest: rest, grpcTls } = net.devnet.endpoints;
  const ws = rpc.replace(/^http/, "ws");
  return exitAfterClose({
    script: child,
    args: [transports, rpc, ws, rest, grpcTls, caFile],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
  });
}

describe("close() leaves nothing running", () => {
  it.each([["http"], ["ws"], ["rest"], ["grpc"], ["ws,rest,grpc"]])(
    "a client on %s: nothing is left after close() and the process exits by itself",
    async (transports) => {
      const result = await runChild(transports);
      expect(result.stderr).toBe("");
      expect(result.left).toEqual([]);
      expect(result.code).toBe(0);
    },
    CLOSE_TEST_TIMEOUT_MS,
  );
});
