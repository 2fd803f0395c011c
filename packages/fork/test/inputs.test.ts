/**
 * Inputs `startFork` refuses before anything is read or started: a repeated account, a shadow with
 * no live indexer WebSocket, and a `stateDir` resumed with another network or other accounts than
 * the fork saved there started with. Endpoints that refuse every connection show that nothing was
 * asked: a query would fail with a transport error instead.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addressToHex } from "@perpx/address";
import { InvalidArgumentError, MissingEndpointError } from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import { describe, expect, it } from "vitest";
import { FORK_STATE_FILE, startFork } from "../src/index.js";

const dead = { grpc: "http://127.0.0.1:1", indexer: "http://127.0.0.1:1" };
const alice = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";

describe("inputs startFork refuses before anything starts", () => {
  it("an account given twice, in either form", async () => {
    const started = startFork({
      from: "local",
      endpoints: dead,
      accounts: [alice, addressToHex(alice)],
      ports: "free",
      shadow: false,
    });
    await expect(started).rejects.toThrow(InvalidArgumentError);
    await expect(started).rejects.toThrow(/accounts\[1\].*accounts\[0\] again/);
  });

  it("a shadow with no live indexer WebSocket", async () => {
    const started = startFork({ from: "testnet", endpoints: dead, ports: "free" });
    await expect(started).rejects.toThrow(MissingEndpointError);
    await expect(started).rejects.toThrow(/indexerWs|PERPX_INDEXER_WS_URL/);
  });

  it("a state directory resumed as a fork of another network, or with other accounts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fork-inputs-"));
    try {
      const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
      const [first, second] = live.accounts;
      try {
        const fork = await startFork({
          from: "local",
          endpoints: live.endpoints,
          accounts: [first!.address],
          ports: "free",
          blockTimeMs: 0,
          shadow: false,
          stateDir: dir,
        });
        await fork.stop();
      } finally {
        await live.stop();
      }
      const resume = (from: "local" | "testnet", accounts: string[]) =>
        startFork({
          from,
          endpoints: { ...dead, indexerWs: "ws://127.0.0.1:1" },
          accounts,
          ports: "free",
          blockTimeMs: 0,
          shadow: false,
          stateDir: dir,
        });
      const files = readdirSync(dir).sort();
      const otherNetwork = resume("testnet", []);
      await expect(otherNetwork).rejects.toThrow(InvalidArgumentError);
      await expect(otherNetwork).rejects.toThrow(/from.*a fork of local, not testnet/);
      const otherAccount = resume("local", [second!.address]);
      await expect(otherAccount).rejects.toThrow(InvalidArgumentError);
      await expect(otherAccount).rejects.toThrow(
        `accounts[0]: ${second!.address} is not on the fork in ${dir}`,
      );
      await expect(resume("local", ["garbage"])).rejects.toThrow(/accounts\[0\]: must be a perpx1/);
      expect(readdirSync(dir).sort()).toEqual(files);
      expect(files).toContain(FORK_STATE_FILE);
      // The same command line again resumes it (the account in either form).
      const again = await resume("local", [addressToHex(first!.address)]);
      try {
        expect(again.resumed).toBe(true);
        expect(again.state.accounts.map((a) => a.address)).toEqual([first!.address]);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a shadow given the live indexer but the preset's WebSocket, or the other way round", async () => {
    for (const [endpoints, env] of [
      [{ ...dead }, {}],
      [{ grpc: dead.grpc }, { PERPX_INDEXER_WS_URL: "ws://127.0.0.1:1" }],
    ] as const) {
      const started = startFork({ from: "local", endpoints, env, ports: "free" });
      await expect(started).rejects.toThrow(InvalidArgumentError);
      await expect(started).rejects.toThrow(/endpoints\.indexer(Ws)?: .*give both/);
    }
  });
});

describe("the live node the caller names", () => {
  it("reads over the named node RPC, not the preset's gRPC default", async () => {
    const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
    try {
      // `local`'s preset has a gRPC default (127.0.0.1:9090); the caller named only the RPC.
      const fork = await startFork({
        from: "local",
        endpoints: { nodeRpc: live.endpoints.nodeRpc, indexer: live.endpoints.indexer },
        env: {},
        ports: "free",
        blockTimeMs: 0,
        shadow: false,
      });
      try {
        expect(fork.state.height).toBeGreaterThan(0n);
      } finally {
        await fork.stop();
      }
    } finally {
      await live.stop();
    }
  });
});
