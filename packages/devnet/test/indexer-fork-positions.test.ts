/**
 * A devnet started from a fork state holding a perpetual position: the indexer seeds it from the
 * genesis block's subaccount updates, so `GET /v4/addresses/:address/subaccountNumber/:n` lists it
 * in `openPerpetualPositions` (as its equity counts it) and `/v4/perpetualPositions` answers it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "../src/index.js";
import { forkAccount, localFork } from "./support/fork-state.js";

const owner = GENESIS_ACCOUNTS[0]?.address as string;
// 0.01 BTC long, beside 1,000 USDC.
const fork = localFork("fork positions test", 41n, {
  accounts: [
    forkAccount(owner, 0n, 1_000_000_000n, [{ perpetualId: 0, quantums: 100_000_000n, fundingIndex: 0n }]),
  ],
});

let devnet: Devnet;
const stateDir = mkdtempSync(join(tmpdir(), "perpx-fork-positions-"));

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fork, stateDir });
});

afterAll(async () => {
  await devnet?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function indexer(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${devnet.endpoints.indexer}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("a position restored from a fork genesis", () => {
  it("is in openPerpetualPositions, and its equity counts it", async () => {
    const { status, body } = await indexer(`/v4/addresses/${owner}/subaccountNumber/0`);
    expect(status).toBe(200);
    const subaccount = body.subaccount as Record<string, unknown>;
    // 1,000 USDC + 0.01 BTC at about 65,000 (the oracle walked from the fork's price).
    expect(Number(subaccount.equity)).toBeGreaterThan(1600);
    expect(subaccount.openPerpetualPositions).toMatchObject({
      "BTC-USD": { market: "BTC-USD", status: "OPEN", side: "LONG", size: "0.01", subaccountNumber: 0 },
    });
    const positions = await indexer(`/v4/perpetualPositions?address=${owner}&subaccountNumber=0&status=OPEN`);
    expect(positions.body.positions).toMatchObject([{ market: "BTC-USD", size: "0.01" }]);
  });

  it("is still there after blocks and a restart from the state directory", async () => {
    devnet.mine(3);
    await devnet.stop();
    devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fork, stateDir });
    devnet.mine(1);
    const { body } = await indexer(`/v4/addresses/${owner}/subaccountNumber/0`);
    const subaccount = body.subaccount as Record<string, unknown>;
    expect(Number(subaccount.equity)).toBeGreaterThan(1600);
    expect(subaccount.openPerpetualPositions).toMatchObject({ "BTC-USD": { size: "0.01", status: "OPEN" } });
  });
});
