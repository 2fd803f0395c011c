import { addressBytes, addressBytesToHex } from "@perpx/address";
import { describe, expect, it } from "vitest";
import { createFakeChainApp } from "../../test/support/fake-chain-app.js";
import { GrantLog, startFaucetServer } from "./faucet.js";

describe("the faucet's grant log", () => {
  it("limits each address within the window and forgets grants older than it", () => {
    const log = new GrantLog(10_000);
    log.grant("a", 1_000);
    expect(log.recent("a", 5_000)).toBe(1_000);
    expect(log.recent("a", 11_000)).toBeUndefined();
    for (let i = 0; i < 5_000; i++) log.grant(`old-${i}`, 2_000);
    // A window later, the next sweep (when the log has doubled) drops every expired grant.
    for (let i = 0; i < 4_000; i++) log.grant(`new-${i}`, 20_000 + i);
    expect(log.size).toBe(4_000);
    expect(log.recent("new-0", 21_000)).toBe(20_000);
    expect(log.recent("old-1", 21_000)).toBeUndefined();
  });

  it("keeps nothing without a window", () => {
    const log = new GrantLog(0);
    log.grant("a", 1);
    expect(log.size).toBe(0);
    expect(log.recent("a", 1)).toBeUndefined();
  });
});

describe("the faucet's durability", () => {
  it("answers 500 naming the failure, not 200, when the credit cannot be made durable", async () => {
    const app = createFakeChainApp();
    let durableCalls = 0;
    const faucet = await startFaucetServer({
      control: app.control,
      port: 0,
      durable: () => {
        durableCalls++;
        throw new Error("disk full");
      },
    });
    try {
      const res = await fetch(`${faucet.url}/faucet/tokens`, {
        method: "POST",
        body: JSON.stringify({ address: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9" }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ code: "internal", message: "disk full" });
      expect(durableCalls).toBe(1);
    } finally {
      await faucet.close();
    }
  });
});

describe("the faucet's window under a burst", () => {
  it("funds an address once for 24 requests at once, in either form; the 23 others are 429 with Retry-After", async () => {
    const app = createFakeChainApp();
    const faucet = await startFaucetServer({ control: app.control, port: 0, rateLimitWindowMs: 60_000 });
    const address = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";
    const forms = [address, addressBytesToHex(addressBytes(address))];
    try {
      const answers = await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const res = await fetch(`${faucet.url}/faucet/tokens`, {
            method: "POST",
            body: JSON.stringify({ address: forms[i % 2], subaccountNumber: i % 3 }),
          });
          return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
        }),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(23);
      for (const answer of refused) {
        expect(answer).toMatchObject({ status: 429, body: { code: "rate_limited" } });
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
      expect(app.funded.map((f) => f.address)).toEqual([address]);
      expect(app.fundedSubaccounts).toHaveLength(1);
    } finally {
      await faucet.close();
    }
  });
});
