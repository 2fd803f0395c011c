/**
 * `close()` in the middle of a burst of places: every pending call settles (a value, or a typed
 * error), and calls after `close()` are refused typed before anything is signed.
 */
import { isAbortedError, isPerpxError } from "@perpx/errors";
import { describe, expect, it, vi } from "vitest";
import { recordingSigner, useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });

describe("close() during a burst", () => {
  it("every pending place settles, typed, and places after close are refused typed", async () => {
    const { signer, signed } = recordingSigner(net.wallets[0]!);
    const client = await net.connect({ wallet: signer });
    await client.deposit({ amount: "1000" });
    const before = signed.length;
    const bid = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" } as const;
    const burst = Array.from({ length: 60 }, (_, i) =>
      client.placeOrder(i % 2 === 0 ? bid : { ...bid, goodTil: { blocks: 20 } }),
    );
    const settled = Promise.allSettled(burst);
    await vi.waitFor(() => expect(signed.length - before).toBeGreaterThan(5), {
      timeout: 30_000,
      interval: 5,
    });
    client.close();
    const outcomes = await settled;
    for (const outcome of outcomes) {
      if (outcome.status === "rejected")
        expect(isPerpxError(outcome.reason), String(outcome.reason)).toBe(true);
    }
    const signedAtClose = signed.length;
    const after = await client.placeOrder(bid).catch((e: unknown) => e);
    expect(isAbortedError(after), String(after)).toBe(true);
    expect(String(after)).toContain("closed");
    const withdraw = await client.withdraw({ amount: "1" }).catch((e: unknown) => e);
    expect(isAbortedError(withdraw), String(withdraw)).toBe(true);
    const cancel = await client.cancelAll().catch((e: unknown) => e);
    expect(isAbortedError(cancel), String(cancel)).toBe(true);
    expect(signed.length).toBe(signedAtClose);
  }, 60_000);
});
