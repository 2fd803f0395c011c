/**
 * The built `perpx-devnet start --json --state DIR` (`pnpm --filter @perpx/devnet build` first) killed
 * with SIGKILL in the middle of producing blocks and answering credits, then restarted on the same
 * directory, round after round: the chain resumes at a height at least the highest any client saw,
 * with the same block there, every acknowledged credit kept (a control `POST` answers only once
 * its effect is written), and it goes on producing blocks. SIGTERM then exits 0 and frees its ports.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { isPortFree, sparePorts } from "../../../tests/support/spare-ports.js";
import { GENESIS_ACCOUNTS } from "../src/index.js";
import { killChildren, type StartedCli, startCli } from "./support/cli-child.js";

const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-kill-"));

afterAll(() => {
  killChildren();
  rmSync(dir, { recursive: true, force: true });
});

const built = { built: true };
const receiver = GENESIS_ACCOUNTS[3]!.address;
const DENOM = "ukilltest";

async function rpc<T>(run: StartedCli, path: string): Promise<T> {
  const answer = (await (await fetch(`${run.ready.endpoints.nodeRpc}/${path}`)).json()) as { result: T };
  return answer.result;
}

async function height(run: StartedCli): Promise<number> {
  const status = await rpc<{ sync_info: { latest_block_height: string } }>(run, "status");
  return Number(status.sync_info.latest_block_height);
}

async function blockHash(run: StartedCli, at: number): Promise<string> {
  return (await rpc<{ block_id: { hash: string } }>(run, `block?height=${at}`)).block_id.hash;
}

async function balance(run: StartedCli): Promise<bigint> {
  const url = `${run.ready.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${receiver}/by_denom?denom=${DENOM}`;
  const answer = (await (await fetch(url)).json()) as { balance?: { amount: string } };
  return BigInt(answer.balance?.amount ?? "0");
}

describe("perpx-devnet start --state, killed mid-flow and restarted", () => {
  it("resumes at a consistent height with every acknowledged credit, round after round", async () => {
    let acked = 0n;
    let sent = 0n;
    let seenHeight = 0;
    let seenHash = "";
    for (let round = 0; round < 3; round++) {
      const run = await startCli(["--state", dir, "--block-time-ms", "2"], built);
      // What the previous round's clients saw is there: the highest height, with the same block.
      const resumedAt = await height(run);
      expect(resumedAt).toBeGreaterThanOrEqual(seenHeight);
      if (seenHeight > 0) expect(await blockHash(run, seenHeight)).toBe(seenHash);
      // Every credit answered 200 is kept; one in flight at the kill may be kept too.
      const credited = await balance(run);
      expect(credited).toBeGreaterThanOrEqual(acked);
      expect(credited).toBeLessThanOrEqual(sent);
      acked = credited;
      sent = credited;
      // And the chain goes on.
      await vi.waitFor(async () => expect(await height(run)).toBeGreaterThan(resumedAt + 2), {
        timeout: 60_000,
        interval: 20,
      });

      // Credits from 6 clients while blocks come every 2 ms; kill once 20 more are acknowledged,
      // with others still in flight.
      let stop = false;
      const target = acked + 20n;
      const reachedTarget = new Promise<void>((resolve) => {
        const client = async () => {
          while (!stop) {
            sent += 1n;
            const res = await fetch(`${run.ready.endpoints.devnetControl}/devnet/fund`, {
              method: "POST",
              body: JSON.stringify({ address: receiver, coins: [{ denom: DENOM, amount: "1" }] }),
            }).catch(() => undefined);
            if (res === undefined) return; // the process is gone
            if (res.status === 200) acked += 1n;
            else throw new Error(`fund answered ${res.status}: ${await res.text()}`);
            if (acked >= target) resolve();
          }
        };
        for (let i = 0; i < 6; i++) void client();
      });
      await reachedTarget;
      seenHeight = await height(run);
      seenHash = await blockHash(run, seenHeight);
      run.child.kill("SIGKILL");
      stop = true;
      expect((await run.exited).signal).toBe("SIGKILL");
    }

    // Spare ports for the RPC and the control, which no parallel test takes once they are released.
    const [rpcPort, controlPort] = (await sparePorts(2)) as [number, number];
    const ports = ["--port-rpc", String(rpcPort), "--port-control", String(controlPort)];
    const last = await startCli(["--state", dir, "--block-time-ms", "2", ...ports], built);
    expect(await height(last)).toBeGreaterThanOrEqual(seenHeight);
    expect(await blockHash(last, seenHeight)).toBe(seenHash);
    expect(await balance(last)).toBeGreaterThanOrEqual(acked);
    expect(await isPortFree(rpcPort)).toBe(false);
    last.child.kill("SIGTERM");
    expect(await last.exited).toEqual({ code: 0, signal: null });
    expect(await isPortFree(rpcPort)).toBe(true);
    expect(await isPortFree(controlPort)).toBe(true);
    // The lock is released and no temp file is left by the clean stop.
    expect(readdirSync(dir).sort()).toEqual(["blocks.log", "state.bin", "tls-ca.pem", "tls-key.pem"]);
  }, 300_000);
});
