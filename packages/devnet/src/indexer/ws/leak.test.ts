/**
 * Nothing leaks on stop: a child process that ran the server with clients in every state (batched
 * with a batch pending, never answering pings, waiting for a snapshot) exits on its own once the
 * server is closed.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("../../..", import.meta.url));

it("the process exits by itself after close(), every client told 1012", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/indexer-ws-child.ts"], {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  // A hang guard only: a child that keeps a handle never exits; a slow one is waited for.
  const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  // 'close', not 'exit': the pipes may still hold the child's last output when it exits.
  const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
  clearTimeout(killer);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  expect(out.trim()).toBe(
    `stopped ${JSON.stringify({ codes: [1012, 1012, 1012], listeners: 0, connections: 0, topics: 0 })}`,
  );
}, 150_000);
