/**
 * `@perpx/core` takes its environment as an argument: resolving a network reads no `PERPX_*`
 * variable from `process.env` (the workspace hygiene test covers import-time effects).
 */
import { describe, expect, it, vi } from "vitest";
import { envReadsOf } from "../../../tests/support/env.js";

describe("resolveNetwork", () => {
  it("never reads process.env", async () => {
    const envReads = await envReadsOf(async () => {
      vi.resetModules();
      const core = await import("../src/index.js");
      expect(core.resolveNetwork({ network: "testnet" }).network.chainId).toBeTruthy();
      expect(() =>
        core.resolveNetwork({ network: "local", env: { PERPX_NODE_RPC_URL: "http://h:1" } }),
      ).not.toThrow();
    });
    expect(envReads.filter((key) => key.startsWith("PERPX_"))).toEqual([]);
  });
});
