/**
 * `perpx-explorer`: the package's bin (on the built package, whose bundle it serves) serves the
 * network it is given and prints its URL, with endpoints from the environment; run from source with
 * tsx, it refuses bad input with exit status 2 and a message naming what was wrong.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const cwd = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const CLI = ["--import", "tsx", "src/cli.ts"];
const ENDPOINTS = {
  PERPX_NODE_RPC_URL: "https://rpc.example",
  PERPX_NODE_REST_URL: "https://rest.example",
  PERPX_INDEXER_URL: "https://indexer.example",
  PERPX_INDEXER_WS_URL: "wss://indexer.example",
};

/** Runs the CLI to its end; resolves with its exit status and output. */
async function exits(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});

describe("perpx-explorer", () => {
  it("serves a network from the environment's endpoints and prints its URL; SIGTERM stops it", async () => {
    child = spawn(process.execPath, ["bin/perpx-explorer.js", "--network", "testnet", "--port", "0"], {
      cwd,
      env: { ...process.env, ...ENDPOINTS },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const first = await Promise.race([
      once(child.stdout!, "data").then(([data]) => String(data)),
      once(child, "exit").then(([code]) => `exited with ${String(code)}`),
    ]);
    const match = /^perpx-explorer: (http:\/\/127\.0\.0\.1:\d+\/) \(testnet, perpx-testnet-1\)\n$/.exec(
      first.toString(),
    );
    expect(match, first).not.toBeNull();
    const config = await (await fetch(`${match![1]}config.json`)).json();
    expect(config.endpoints).toEqual({
      nodeRpc: "https://rpc.example",
      nodeRest: "https://rest.example",
      indexer: "https://indexer.example",
      indexerWs: "wss://indexer.example/v4/ws",
    });
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  }, 60_000);

  it("refuses an unknown network, a bad port and missing endpoints with status 2", async () => {
    const network = await exits(["--network", "devnet"]);
    expect(network.code).toBe(2);
    expect(network.stderr).toContain('--network must be local, testnet or mainnet, got "devnet"');
    const port = await exits(["--port", "http"]);
    expect([port.code, port.stderr]).toEqual([
      2,
      'perpx-explorer: --port must be an integer from 0 to 65535, got "http"\n',
    ]);
    const missing = await exits(["--network", "mainnet"], { PERPX_NODE_RPC_URL: "" });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("PERPX_NODE_RPC_URL");
  }, 60_000);

  it("prints its usage with --help", async () => {
    const help = await exits(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("perpx-explorer --network local|testnet|mainnet [--port N] [--host HOST]");
  }, 60_000);
});
