/**
 * `stateDir`: a fork persists, and resumes as the same fork (chain id, moniker, what happened on
 * it) without the live network, which is gone by then.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidArgumentError } from "@perpx/core";
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

describe("a state directory whose fork.json is not a fork state", () => {
  it("is refused with an error naming the file, before anything starts", async () => {
    const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
    const saved = mkdtempSync(join(tmpdir(), "fork-state-"));
    let text: string;
    try {
      const fork = await startFork({
        from: "local",
        endpoints: live.endpoints,
        accounts: [live.accounts[0]!.address],
        ports: "free",
        blockTimeMs: 0,
        shadow: false,
        stateDir: saved,
      });
      await fork.stop();
      text = readFileSync(join(saved, FORK_STATE_FILE), "utf8");
    } finally {
      await live.stop();
      rmSync(saved, { recursive: true, force: true });
    }
    const state = JSON.parse(text) as Record<string, unknown> & { accounts: Array<Record<string, unknown>> };
    const variants = {
      truncated: text.slice(0, text.length / 2),
      null: "null",
      empty: "{}",
      array: "[]",
      "no markets": JSON.stringify({ ...state, markets: undefined }),
      "a market without a price": JSON.stringify({
        ...state,
        markets: (state.markets as Array<Record<string, unknown>>).map(({ price: _price, ...m }) => m),
      }),
      "a sequence that is a string": JSON.stringify({
        ...state,
        accounts: state.accounts.map((a) => ({ ...a, sequence: "3" })),
      }),
    };
    for (const [name, content] of Object.entries(variants)) {
      const dir = mkdtempSync(join(tmpdir(), "fork-state-"));
      try {
        const path = join(dir, FORK_STATE_FILE);
        writeFileSync(path, content);
        const started = startFork({
          from: "local",
          endpoints: {
            nodeRpc: "http://127.0.0.1:1",
            indexer: "http://127.0.0.1:1",
            indexerWs: "ws://127.0.0.1:1",
          },
          ports: "free",
          blockTimeMs: 0,
          shadow: false,
          stateDir: dir,
        });
        await expect(started, name).rejects.toThrow(InvalidArgumentError);
        await expect(started, name).rejects.toThrow(`${path} is not a fork state`);
        // Nothing started: the directory holds the file and nothing else.
        expect(readdirSync(dir), name).toEqual([FORK_STATE_FILE]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
