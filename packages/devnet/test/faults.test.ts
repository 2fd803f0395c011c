/**
 * Faults of a devnet child process (`perpx-devnet start --state DIR`): an acknowledged credit
 * survives kill -9, and a state directory serves one devnet at a time.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { StargateClient } from "@cosmjs/stargate";
import { addressBytesToBech32 } from "@perpx/core";
import { afterAll, describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS, LOCK_FILE } from "../src/index.js";
import { killChildren, runCli, type StartedCli, startCli } from "./support/cli-child.js";

const dirs: string[] = [];
afterAll(() => {
  killChildren();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-faults-"));
  dirs.push(dir);
  return dir;
}

/** A fresh address nobody funded (so any balance it has came from the credit under test). */
const FRESH = addressBytesToBech32(new Uint8Array(20).fill(7));
const BOB = GENESIS_ACCOUNTS[1]!.address;

async function balance(run: StartedCli, address: string, denom: string): Promise<bigint> {
  const client = await StargateClient.connect(run.ready.endpoints.nodeRpc);
  try {
    return BigInt((await client.getBalance(address, denom)).amount);
  } finally {
    client.disconnect();
  }
}

async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function kill9(run: StartedCli): Promise<void> {
  run.child.kill("SIGKILL");
  expect((await run.exited).signal).toBe("SIGKILL");
}

// Each test's timeout is a hang guard: 120 s for each CLI it starts (the ready-line guard of
// ./support/cli-child.ts), plus 30 s.
describe("a devnet child process under kill -9", () => {
  it("keeps a faucet credit and a /devnet/fund credit answered 200 just before the kill", async () => {
    const dir = stateDir();
    // Blocks only on demand: no block can carry the credits to disk before the kill.
    const first = await startCli(["--state", dir, "--block-time-ms", "0"]);
    const before = await balance(first, BOB, "uusdc");
    const faucet = await postJson(`${first.ready.endpoints.faucet}/faucet/tokens`, { address: FRESH });
    expect(faucet.status).toBe(200);
    const fund = await postJson(`${first.ready.endpoints.devnetControl}/devnet/fund`, {
      address: BOB,
      coins: [{ denom: "uusdc", amount: "4242" }],
    });
    expect(fund.status).toBe(200);
    await kill9(first);

    const second = await startCli(["--state", dir, "--block-time-ms", "0"]);
    expect(await balance(second, FRESH, "uusdc")).toBe(1_000_000_000n);
    expect(await balance(second, FRESH, "aperpx")).toBe(10n * 10n ** 18n);
    expect(await balance(second, BOB, "uusdc")).toBe(before + 4242n);
    await kill9(second);
  }, 270_000);

  it("refuses a second devnet on a state directory in use, naming the holder, and takes over after kill -9", async () => {
    const dir = stateDir();
    const first = await startCli(["--state", dir, "--block-time-ms", "0"]);
    const holder = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"));
    expect(holder).toMatchObject({ pid: first.child.pid, host: hostname() });

    const refused = await runCli(["start", "--json", "--state", dir, "--port-rpc", "0"]);
    expect(refused.code).toBe(1);
    const line = JSON.parse(refused.stdout.trim().split("\n")[0]!);
    expect(line.ready).toBe(false);
    expect(line.error).toContain(`held by pid ${first.child.pid} on ${hostname()}`);
    expect(refused.stderr).toContain(join(dir, LOCK_FILE));
    // The refused devnet touched nothing: the first still serves from the directory.
    const funded = await postJson(`${first.ready.endpoints.devnetControl}/devnet/fund`, {
      address: FRESH,
      coins: [{ denom: "uusdc", amount: "5" }],
    });
    expect(funded.status).toBe(200);

    await kill9(first);
    // The lock names a dead pid now: the next devnet takes it over, with the state intact.
    const second = await startCli(["--state", dir, "--block-time-ms", "0"]);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(second.child.pid);
    expect(await balance(second, FRESH, "uusdc")).toBe(5n);
    await kill9(second);
  }, 390_000);
});
