/**
 * Delays past 2^31 - 1 ms (about 24.8 days) are as long as asked, and a delay that is no number of
 * milliseconds is refused by name: `setTimeout`/`setInterval` alone fire both at once (a 30-day
 * `result()` wait answered at once, a 30-day refresh or poll run every millisecond).
 */
import { isInvalidArgumentError } from "@perpx/errors";
import type { NodeClient } from "@perpx/node-client";
import { expect, it, vi } from "vitest";
import { failOnTimerOverflow } from "../../../tests/support/timer-overflow.js";
import { connectContext } from "./client.js";
import { startLiveFeed } from "./feed.js";
import { handleOver } from "./handle.js";
import { startHeightTracker } from "./height.js";
import { createMarketCache } from "./markets.js";
import type { OrderResult, TrackedOrder } from "./tracking.js";

const DAYS_30 = 30 * 86_400_000;

failOnTimerOverflow();

const order = {
  wire: { clientId: 1, kind: "short-term" },
  orderId: {},
  market: { ticker: "BTC-USD" },
} as unknown as TrackedOrder;

function state(status: OrderResult["status"], final: boolean): OrderResult {
  return { status, final, filledSize: "0", fills: [], averagePrice: undefined, fees: "0", reason: undefined };
}

/** A node whose every read is counted. */
function countingNode(): { node: NodeClient; calls: () => number } {
  let calls = 0;
  const node = {
    getMarket: async ({ ticker }: { ticker: string }) => {
      calls++;
      return { ticker };
    },
    getLatestBlock: async () => {
      calls++;
      return { height: BigInt(calls), time: new Date(0) };
    },
  } as unknown as NodeClient;
  return { node, calls: () => calls };
}

it("result({ timeoutMs: 30 days }) waits for the final state past a 5 ms result()", async () => {
  let release: (() => void) | undefined;
  const handle = handleOver(order, async (onUpdate) => {
    onUpdate(state("RESTING", false));
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    onUpdate(state("FILLED", true));
  });
  const quiet = handleOver(
    order,
    (_onUpdate, signal) =>
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
  );
  let settled = false;
  const long = handle.result({ timeoutMs: DAYS_30 }).finally(() => {
    settled = true;
  });
  expect((await quiet.result({ timeoutMs: 5 })).status).toBe("UNKNOWN");
  expect(settled).toBe(false);
  release?.();
  expect((await long).status).toBe("FILLED");
});

it("result() refuses a timeoutMs that is no non-negative number of ms, by name, before following", async () => {
  const follow = vi.fn(async () => {});
  const handle = handleOver(order, follow);
  for (const timeoutMs of [Number.NaN, -1, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
    const error = await handle.result({ timeoutMs }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(error) && error.argument, String(timeoutMs)).toBe("timeoutMs");
  }
  expect(follow).not.toHaveBeenCalled();
});

it("a 30-day market refresh interval does not refresh while a 5 ms one refreshes twice", async () => {
  const slow = countingNode();
  const quick = countingNode();
  const slowCache = createMarketCache({ node: slow.node, refreshIntervalMs: DAYS_30 });
  const quickCache = createMarketCache({ node: quick.node, refreshIntervalMs: 5 });
  await slowCache.get("BTC-USD");
  await quickCache.get("BTC-USD");
  await vi.waitFor(() => expect(quick.calls()).toBeGreaterThanOrEqual(3));
  expect(slow.calls()).toBe(1);
  slowCache.stop();
  quickCache.stop();
});

it("createMarketCache and connect refuse a refresh interval that is no number of ms, by name", async () => {
  const { node, calls } = countingNode();
  for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
    const error = (() => {
      try {
        createMarketCache({ node, refreshIntervalMs: bad }).stop();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isInvalidArgumentError(error) && error.argument, String(bad)).toBe("refreshIntervalMs");
    const refused = await connectContext({ network: "local", marketRefreshIntervalMs: bad }).catch(
      (e: unknown) => e,
    );
    expect(isInvalidArgumentError(refused) && refused.argument, String(bad)).toBe("marketRefreshIntervalMs");
  }
  // 0 keeps its documented meaning: no schedule.
  createMarketCache({ node, refreshIntervalMs: 0 }).stop();
  expect(calls()).toBe(0);
});

it("a 30-day height poll does not poll while a 5 ms one polls twice", async () => {
  const slow = countingNode();
  const quick = countingNode();
  const slowHeight = await startHeightTracker({ node: slow.node, pollIntervalMs: DAYS_30 });
  const quickHeight = await startHeightTracker({ node: quick.node, pollIntervalMs: 5 });
  await vi.waitFor(() => expect(quick.calls()).toBeGreaterThanOrEqual(3));
  expect(slow.calls()).toBe(1);
  slowHeight.stop();
  quickHeight.stop();
});

it("startHeightTracker refuses a pollIntervalMs that is no positive number of ms, before any query", async () => {
  const { node, calls } = countingNode();
  for (const bad of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY]) {
    const error = await startHeightTracker({ node, pollIntervalMs: bad }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(error) && error.argument, String(bad)).toBe("pollIntervalMs");
  }
  expect(calls()).toBe(0);
});

it("startLiveFeed refuses a staleMs that is no positive number of ms, by name, before opening anything", async () => {
  const { node } = countingNode();
  const height = await startHeightTracker({ node, pollIntervalMs: 1_000 });
  const markets = createMarketCache({ node, refreshIntervalMs: 0 });
  for (const staleMs of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY]) {
    // Port 9 (discard) is closed: without the check, the connect fails with a transport error.
    const error = await startLiveFeed({ url: "ws://127.0.0.1:9/v4/ws", height, markets, staleMs }).catch(
      (e: unknown) => e,
    );
    expect(isInvalidArgumentError(error) && error.argument, String(staleMs)).toBe("staleMs");
  }
  height.stop();
  markets.stop();
});
