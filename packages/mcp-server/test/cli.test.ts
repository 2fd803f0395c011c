import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { endpointsOf, useMcpNet } from "./support.js";

const net = useMcpNet();
const packageDir = join(import.meta.dirname, "..");
const cli = join(packageDir, "src", "cli.ts");

function run(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, ["--import", "tsx", cli, ...args], {
    cwd: packageDir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("perpx-mcp", () => {
  it("serves one network from the PERPX_*_URL variables, prints its URL with --json, and stops on SIGTERM", async () => {
    const endpoints = endpointsOf(net.devnet);
    const child = run(["--network", "local", "--port", "0", "--database", ":memory:", "--json"], {
      PERPX_NODE_RPC_URL: endpoints.nodeRpc,
      PERPX_NODE_REST_URL: endpoints.nodeRest,
      PERPX_GRPC_URL: endpoints.grpc,
      PERPX_INDEXER_URL: endpoints.indexer,
      PERPX_GRPC_CA: net.devnet.caPem,
    });
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const ready = JSON.parse(line) as { ready: boolean; url: string };
    expect(ready.ready).toBe(true);
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const health = (await (await fetch(new URL("/health", ready.url))).json()) as { chainId: string };
    expect(health.chainId).toBe("perpx-local-1");
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("serves OAuth mode with --auth oauth and the secret from PERPX_MCP_OAUTH_SECRET; refuses it without one", async () => {
    const endpoints = endpointsOf(net.devnet);
    const env = {
      PERPX_NODE_RPC_URL: endpoints.nodeRpc,
      PERPX_NODE_REST_URL: endpoints.nodeRest,
      PERPX_GRPC_URL: endpoints.grpc,
      PERPX_INDEXER_URL: endpoints.indexer,
      PERPX_DEVNET_CONTROL_URL: endpoints.devnetControl,
      PERPX_GRPC_CA: net.devnet.caPem,
    };
    const args = ["--network", "local", "--port", "0", "--database", ":memory:", "--auth", "oauth", "--json"];
    const child = run(args, {
      ...env,
      PERPX_MCP_OAUTH_SECRET: "a cli test secret that is long enough to use",
    });
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const { url } = JSON.parse(line) as { url: string };
    const prm = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))).json()) as {
      resource: string;
    };
    expect(prm.resource).toBe(url);
    child.kill("SIGTERM");
    expect((await once(child, "exit"))[0]).toBe(0);

    const refused = run(args, { ...env, PERPX_MCP_OAUTH_SECRET: "" });
    let stderr = "";
    refused.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    // "close", not "exit": the child's last output can still be in its pipes when it exits.
    expect((await once(refused, "close"))[0]).toBe(1);
    expect(stderr).toMatch(/oauth\.secret.*at least 32 characters/);
  });

  it("refuses a missing or unknown network with usage, exit code 2", async () => {
    for (const args of [[], ["--network", "moon"]]) {
      const child = run(args);
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += String(chunk);
      });
      const [code] = await once(child, "close"); // its stderr is all read (not so at "exit")
      expect(code).toBe(2);
      expect(stderr).toMatch(/--network must be testnet, mainnet or local/);
    }
  });
});
