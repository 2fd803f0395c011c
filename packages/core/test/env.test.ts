/**
 * `@perpx/core` takes its environment as an argument: resolving a network reads no `PERPX_*`
 * variable from `process.env` (the workspace hygiene test covers import-time effects).
 */
import { describe, expect, it, vi } from "vitest";

describe("resolveNetwork", () => {
  it("never reads process.env", async () => {
    const envReads: string[] = [];
    const realEnv = process.env;
    process.env = new Proxy(realEnv, {
      get(target, key, receiver) {
        if (typeof key === "string") envReads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    try {
      vi.resetModules();
      const core = await import("../src/index.js");
      expect(core.resolveNetwork({ network: "testnet" }).network.chainId).toBeTruthy();
      expect(() =>
        core.resolveNetwork({ network: "local", env: { PERPX_NODE_RPC_URL: "http://h:1" } }),
      ).not.toThrow();
    } finally {
      process.env = realEnv;
    }
    expect(envReads.filter((key) => key.startsWith("PERPX_"))).toEqual([]);
  });
});
