/**
 * Upgrade history: a fork copies every applied upgrade it can discover on the live network, not
 * only the names its preset knows. The live network here applied two the testnet preset does not
 * list (`v26.16` between known ones, and `v27.6`, its running version); a devnet cannot apply an
 * upgrade by governance, so it is started from a state with that history.
 */
import { startDevnet } from "@perpx/devnet";
import { createIndexerConnection } from "@perpx/indexer-client/rest";
import { createNodeClient } from "@perpx/node-client";
import { getAppliedPlan } from "@perpx/node-client/queries";
import { describe, expect, it } from "vitest";
import { readForkState, startFork } from "../src/index.js";
import { upgradeCandidates } from "../src/upgrades.js";

describe("the upgrade names a fork asks the live network about", () => {
  it("covers the known names and every vMAJOR.MINOR from the oldest major known to the running one", () => {
    const names = upgradeCandidates(["v26.12", "v27.5", "v27.5-rc1"]);
    expect(names).toContain("v27.5-rc1");
    expect(names).toContain("v26.0");
    expect(names).toContain("v26.17");
    expect(names).not.toContain("v26.18");
    expect(names).toContain("v27.10");
    expect(names).not.toContain("v27.11");
    expect(names.some((n) => n.startsWith("v25."))).toBe(false);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("a fork's upgrade history", () => {
  it("is every upgrade the live network applied that the reader can discover", async () => {
    const plain = await startDevnet({ ports: "free", blockTimeMs: 0, profile: "testnet" });
    const read = await readForkState({
      node: createNodeClient({ grpc: plain.endpoints.grpc }),
      indexer: createIndexerConnection({ baseUrl: plain.endpoints.indexer }),
      source: "a devnet",
    });
    await plain.stop();
    const history = [
      ...read.upgrades,
      { version: "v26.16", height: 3_000_000n },
      { version: "v27.6", height: 5_100_000n },
    ].sort((a, b) => (a.height < b.height ? -1 : 1));
    const live = await startDevnet({ ports: "free", blockTimeMs: 0, fork: { ...read, upgrades: history } });
    try {
      const liveNode = createNodeClient({ grpc: live.endpoints.grpc });
      expect(await getAppliedPlan(liveNode, { name: "v26.16" })).toBe(3_000_000n);
      const fork = await startFork({
        from: "testnet",
        endpoints: live.endpoints,
        ports: "free",
        blockTimeMs: 0,
        shadow: false,
      });
      try {
        expect(fork.state.upgrades).toEqual(history);
        expect(fork.state.fromPreset).toBeUndefined();
        const forkNode = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
        expect(await getAppliedPlan(forkNode, { name: "v26.16" })).toBe(3_000_000n);
        expect(await getAppliedPlan(forkNode, { name: "v27.6" })).toBe(5_100_000n);
      } finally {
        await fork.stop();
      }
    } finally {
      await live.stop();
    }
  });
});
