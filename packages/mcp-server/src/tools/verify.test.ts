import type { OrderHandle, OrderResult } from "@perpx/composite-client";
import { describe, expect, it, vi } from "vitest";
import { verifyPlaced } from "./verify.js";

/** A handle whose `result` answers each of `answers` in turn (the last one from then on). */
function handle(kind: OrderHandle["kind"], answers: OrderResult[]) {
  const asked: number[] = [];
  const fake = {
    clientId: 7,
    orderId: {} as OrderHandle["orderId"],
    kind,
    market: "BTC-USD",
    async result(options: { timeoutMs?: number } = {}) {
      asked.push(options.timeoutMs ?? 0);
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)] as OrderResult;
      // As the real handle does, an answer of UNKNOWN comes when its timeout passed.
      if (answer.status === "UNKNOWN") await new Promise((resolve) => setTimeout(resolve, options.timeoutMs));
      return answer;
    },
    updates: () => {
      throw new Error("not used");
    },
  } satisfies OrderHandle;
  return { fake, asked };
}

const none = { fills: [], averagePrice: undefined, fees: "0", reason: undefined };
const unknown: OrderResult = { status: "UNKNOWN", final: false, filledSize: "0", ...none };
const resting: OrderResult = { status: "RESTING", final: false, filledSize: "0", ...none };

describe("verifyPlaced", () => {
  it("answers a stateful order's state after the settle time", async () => {
    const { fake, asked } = handle("long-term", [resting]);
    expect((await verifyPlaced(fake, { timeoutMs: 10_000, statefulSettleMs: 500 })).state).toBe("RESTING");
    expect(asked).toEqual([500]);
  });

  it("keeps watching while nothing was observed, then answers UNKNOWN at the timeout, never placing again", async () => {
    const { fake, asked } = handle("long-term", [unknown]);
    // The clock is the test's: a loaded machine cannot fire the handle's timers late.
    vi.useFakeTimers();
    try {
      const pending = verifyPlaced(fake, { timeoutMs: 60, statefulSettleMs: 20 });
      await vi.advanceTimersByTimeAsync(60);
      const verified = await pending;
      expect(verified).toEqual({ state: "UNKNOWN", final: false, filledSize: "0", fills: [], fees: "0" });
      expect(asked).toEqual([20, 20, 20]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows a short-term order for the whole timeout, and reports its fills, price and fees", async () => {
    const filled: OrderResult = {
      status: "FILLED",
      final: true,
      filledSize: "0.01",
      fills: [{ size: "0.01", height: 12n, role: "taker", price: "65000", fee: "0.325" }],
      averagePrice: "65000",
      fees: "0.325",
      reason: undefined,
    };
    const { fake, asked } = handle("short-term", [filled]);
    expect(await verifyPlaced(fake, { timeoutMs: 9_000, statefulSettleMs: 500 })).toEqual({
      state: "FILLED",
      final: true,
      filledSize: "0.01",
      fills: [{ size: "0.01", height: "12", role: "taker", price: "65000", fee: "0.325" }],
      averagePrice: "65000",
      fees: "0.325",
    });
    expect(asked).toEqual([9_000]);
  });
});
