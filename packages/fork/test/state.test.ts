/**
 * `stateDir`: a fork persists, and resumes as the same fork (chain id, moniker, what happened on
 * it) without the live network, which is gone by then.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnet } from "@perpx/devnet";
import { createNodeClient, getBalance } from "@perpx/node-client";
import { getNodeInfo } from "@perpx/node-client/queries";
import { afterAll, describe, expect, it } from "vitest";
import { FORK_STATE_FILE, startFork } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "fork-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a fork with a state directory", () => {
  it("resumes as the same fork, with what happened on it, once the live network is gone", async () => {
    const live = await startDevnet({ ports: "free", blockTimeMs: 0, profile: "testnet" });
    const alice = live.accounts[0]!;
    const first = await startFork({
      from: "testnet",
      endpoints: live.endpoints,
      accounts: [alice.address],
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
      stateDir: dir,
    });
    expect(first.resumed).toBe(false);
    await live.stop();
    // On the fork only: a credit, and blocks.
    first.devnet.app.control.fund(alice.address, [{ denom: "uusdc", amount: 5n }]);
    first.devnet.mine(3);
    const height = first.devnet.app.latestBlock().height;
    await first.stop();

    const again = await startFork({
      from: "testnet",
      endpoints: live.endpoints,
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
      stateDir: dir,
    });
    try {
      expect(again.resumed).toBe(true);
      expect(again.state.accounts.map((a) => a.address)).toEqual([alice.address]);
      expect(again.devnet.chainId).toBe("perpx-testnet-1");
      expect(again.devnet.app.latestBlock().height).toBe(height);
      const node = createNodeClient({ grpc: again.devnet.endpoints.grpc });
      expect((await getNodeInfo(node)).moniker).toBe("perpx-FORK");
      const usdc = await getBalance(node, { address: alice.address, denom: "uusdc" });
      expect(usdc.amount).toBe(alice.balances.find((b) => b.denom === "uusdc")!.amount + 5n);
    } finally {
      await again.stop();
    }
    expect(FORK_STATE_FILE).toBe("fork.json");
  });
});
