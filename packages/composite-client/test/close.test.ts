/**
 * `close()` leaves nothing running: a process that connected (height followed by polling or by a
 * block subscription, markets cached on a schedule) and closed holds no timer, socket or handle of
 * the client's afterwards and exits by itself, however long that takes on a loaded machine.
 */
import { fileURLToPath } from "node:url";
import { ENDPOINT_ENV_VARS } from "@perpx/core";
import { describe, expect, it } from "vitest";
import {
  CLOSE_TEST_TIMEOUT_MS,
  type ExitAfterClose,
  exitAfterClose,
} from "../../../tests/support/exit-after-close.js";
import { endpointsOf, useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });
const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));

/** Runs the child in `mode` with the devnet's endpoints in the environment. */
function runChild(mode: string): Promise<ExitAfterClose> {
  const env: Record<string, string | undefined> = { ...process.env, PERPX_NETWORK: "local" };
  const endpoints = { ...endpointsOf(net.devnet), grpc: net.devnet.endpoints.grpc };
  for (const [name, url] of Object.entries(endpoints)) {
    env[ENDPOINT_ENV_VARS[name as keyof typeof ENDPOINT_ENV_VARS]] = url;
  }
  const cwd = fileURLToPath(new URL("..", import.meta.url));
  return exitAfterClose({ script: child, args: [mode], cwd, env });
}

describe("close() leaves nothing running", () => {
  it.each([["poll"], ["ws"]])(
    "a client following the height by %s: nothing is left after close() and the process exits by itself",
    async (mode) => {
      const result = await runChild(mode);
      expect(result.stderr).toBe("");
      expect(result.left).toEqual([]);
      expect(result.code).toBe(0);
    },
    CLOSE_TEST_TIMEOUT_MS,
  );
});
