/**
 * The `perpx-devnet` CLI as a child process: `--json` readiness line, state that survives SIGKILL
 * (balances and sequences), clean SIGTERM.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import { GasPrice, SigningStargateClient, StargateClient } from "@cosmjs/stargate";
import { envTemplate, resolveNetwork } from "@perpx/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GENESIS_ACCOUNTS, STATE_FILE, TLS_FILES } from "../src/index.js";
import { LIQUIDITY_SIGNER_LABEL } from "../src/liquidity/maker.js";
import { devnetSigner } from "../src/liquidity/signer.js";
import { killChildren, runCli, startCli, startCliEnv } from "./support/cli-child.js";

const dirs: string[] = [];

afterAll(() => {
  killChildren();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-cli-"));
  dirs.push(dir);
  return dir;
}

// Each test's timeout is a hang guard: 120 s for each CLI it starts (the ready-line guard of
// ./support/cli-child.ts, tsx compiling the sources on a loaded machine), plus 30 s.
describe("perpx-devnet start", () => {
  it("prints one ready line, keeps balances and sequences across SIGKILL, and stops on SIGTERM", async () => {
    const dir = stateDir();
    const first = await startCli(["--state", dir, "--block-time-ms", "20"]);
    expect(first.ready.ready).toBe(true);
    expect(Object.keys(first.ready.endpoints).sort()).toEqual(
      [
        "devnetControl",
        "evmRpc",
        "evmWs",
        "faucet",
        "grpc",
        "grpcTls",
        "indexer",
        "indexerWs",
        "nodeRest",
        "nodeRpc",
        "nodeRpcWs",
        "sourceL1Rpc",
        "sourceL2Rpc",
      ].sort(),
    );
    expect(first.ready.stateDir).toBe(dir);
    expect(readFileSync(join(dir, TLS_FILES.cert), "utf8")).toBe(first.ready.caPem);

    const alice = GENESIS_ACCOUNTS[0]!;
    const bob = GENESIS_ACCOUNTS[1]!.address;
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice.mnemonic, { prefix: "perpx" });
    const client = await SigningStargateClient.connectWithSigner(first.ready.endpoints.nodeRpc, wallet, {
      gasPrice: GasPrice.fromString("0.025uusdc"),
      broadcastPollIntervalMs: 50,
    });
    const sent = await client.sendTokens(alice.address, bob, [{ denom: "uusdc", amount: "777" }], "auto");
    expect(sent.code).toBe(0);
    // Let a few more blocks be written after the tx's block, then kill without warning.
    await vi.waitFor(async () => expect(await client.getHeight()).toBeGreaterThan(sent.height + 2));
    const account = await client.getAccount(alice.address);
    const balance = await client.getBalance(bob, "uusdc");
    const height = await client.getHeight();
    client.disconnect();
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(first.stdout().trim().split("\n")).toHaveLength(1);
    expect(readFileSync(join(dir, STATE_FILE)).length).toBeGreaterThan(0);

    const second = await startCli(["--state", dir, "--block-time-ms", "20"]);
    expect(second.ready.caPem).toBe(first.ready.caPem);
    const reader = await StargateClient.connect(second.ready.endpoints.nodeRpc);
    expect(await reader.getHeight()).toBeGreaterThanOrEqual(height - 1);
    expect((await reader.getAccount(alice.address))?.sequence).toBe(account?.sequence);
    expect(await reader.getBalance(bob, "uusdc")).toEqual(balance);
    expect((await reader.getTx(sent.transactionHash))?.height).toBe(sent.height);
    reader.disconnect();

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dir, STATE_FILE))).toBe(true);
    expect(second.stdout().trim().split("\n")).toHaveLength(1);
  }, 270_000);

  it("never leaves a state it cannot resume from, however often it is killed mid-run", async () => {
    const dir = stateDir();
    let lastHeight = 0;
    for (let i = 0; i < 4; i++) {
      const run = await startCli(["--state", dir, "--block-time-ms", "5"]);
      const status = await (await fetch(`${run.ready.endpoints.devnetControl}/devnet/status`)).json();
      expect(Number((status as { height: string }).height)).toBeGreaterThanOrEqual(lastHeight);
      await new Promise((r) => setTimeout(r, 100 + 70 * i));
      const latest = await (await fetch(`${run.ready.endpoints.devnetControl}/devnet/status`)).json();
      lastHeight = Number((latest as { height: string }).height) - 1;
      run.child.kill("SIGKILL");
      await run.exited;
    }
    const leftovers = readdirSync(dir).filter((name) => name.includes(".tmp-"));
    expect(leftovers.length).toBeLessThanOrEqual(1);
  }, 510_000);

  it("keeps --pruning-keep-recent blocks in memory and answers older heights as a pruned node", async () => {
    const run = await startCli(["--block-time-ms", "0", "--pruning-keep-recent", "2"]);
    await fetch(`${run.ready.endpoints.devnetControl}/devnet/blocks`, {
      method: "POST",
      body: '{"count":5}',
    });
    const status = (await (await fetch(`${run.ready.endpoints.nodeRpc}/status`)).json()) as {
      result: { sync_info: { latest_block_height: string; earliest_block_height: string } };
    };
    expect(status.result.sync_info).toMatchObject({ latest_block_height: "6", earliest_block_height: "5" });
    const old = (await (await fetch(`${run.ready.endpoints.nodeRpc}/block?height=2`)).json()) as {
      error: { data: string };
    };
    expect(old.error.data).toBe("height 2 is not available, lowest height is 5");
    run.child.kill("SIGKILL");
    await run.exited;
  }, 150_000);

  it("runs the devnet-owned market maker with --liquidity, funded from the start", async () => {
    const run = await startCli(["--block-time-ms", "0", "--liquidity"]);
    const maker = devnetSigner(LIQUIDITY_SIGNER_LABEL).address;
    const answer = (await (
      await fetch(`${run.ready.endpoints.nodeRest}/perpx/subaccounts/v1/subaccount/${maker}/0`)
    ).json()) as { subaccount: { asset_positions: Array<{ asset_id: number; quantums: string }> } };
    expect(answer.subaccount.asset_positions[0]).toMatchObject({ asset_id: 0, quantums: "10000000000000" });
    run.child.kill("SIGKILL");
    await run.exited;
  }, 150_000);

  it("--print-env prints core's template for the profile filled with the running devnet's URLs", async () => {
    const template = envTemplate("local");
    const started = await startCliEnv([], template.split("\n").length - 1);
    const names = (text: string) => [...text.matchAll(/^(?:# )?(PERPX_[A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(names(started.printed)).toEqual(names(template));
    const env = Object.fromEntries(
      [...started.printed.matchAll(/^(PERPX_[A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const config = resolveNetwork({ env, requireEndpoints: true });
    expect(config.network.name).toBe("local");
    expect(config.endpoints.nodeRpc).not.toBe("http://127.0.0.1:26657"); // this devnet's free port
    const status = await fetch(`${config.endpoints.nodeRpc}/status`);
    expect(status.ok).toBe(true);
    const markets = await fetch(`${config.endpoints.indexer}/v4/perpetualMarkets`);
    expect(markets.ok).toBe(true);
    started.child.kill("SIGTERM");
    expect((await started.exited).code).toBe(0);
    expect(started.stdout()).toBe(started.printed);
  }, 150_000);

  it("stops cleanly on SIGINT", async () => {
    const run = await startCli(["--block-time-ms", "10"]);
    run.child.kill("SIGINT");
    expect(await run.exited).toEqual({ code: 0, signal: null });
  }, 150_000);

  it("refuses a bad flag with a usage error", async () => {
    const run = await runCli(["start", "--profile", "moon"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--profile");
    const delay = await runCli(["start", "--ibc-relay-delay-blocks", "100001"]);
    expect(delay.code).toBe(2);
    expect(delay.stderr).toContain("--ibc-relay-delay-blocks must be an integer from 0 to 100000");
  }, 270_000);
});
