import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRateLimiter, takeWrite } from "./rate-limit.js";
import { ToolFailure } from "./tools/result.js";

const WINDOW = 1_000;
/** Call times: non-decreasing gaps, some equal, some beyond a window. */
const times = fc.array(fc.integer({ min: 0, max: 600 }), { maxLength: 60 }).map((gaps) => {
  let now = 0;
  return gaps.map((gap) => {
    now += gap;
    return now;
  });
});

describe("createRateLimiter (property)", () => {
  it("never allows more than the limit in any window, and allows a call whenever fewer were allowed", async () => {
    await fc.assert(
      fc.asyncProperty(times, fc.integer({ min: 0, max: 5 }), async (calls, limit) => {
        const limiter = createRateLimiter(WINDOW);
        const allowed: number[] = [];
        for (const now of calls) {
          const inWindow = allowed.filter((at) => at > now - WINDOW).length;
          const taken = await limiter.take("key", limit, now);
          expect(taken.allowed).toBe(inWindow < limit);
          if (taken.allowed) allowed.push(now);
        }
      }),
    );
  });

  it("a refused call's retry-after is exact: one ms earlier is refused, then it is allowed", async () => {
    await fc.assert(
      fc.asyncProperty(times, fc.integer({ min: 1, max: 5 }), async (calls, limit) => {
        const limiter = createRateLimiter(WINDOW);
        for (const now of calls) {
          const taken = await limiter.take("key", limit, now);
          if (taken.allowed) continue;
          expect(taken.retryAfterMs).toBeGreaterThan(0);
          expect(taken.retryAfterMs).toBeLessThanOrEqual(WINDOW);
          const later = now + taken.retryAfterMs;
          expect((await limiter.take("key", limit, later - 1)).allowed).toBe(false);
          expect((await limiter.take("key", limit, later)).allowed).toBe(true);
          return;
        }
      }),
    );
  });

  it("counts each credential on its own", async () => {
    const limiter = createRateLimiter(WINDOW);
    expect(await limiter.take("a", 1, 0)).toEqual({ allowed: true });
    expect(await limiter.take("a", 1, 1)).toEqual({ allowed: false, retryAfterMs: 999 });
    expect(await limiter.take("b", 1, 1)).toEqual({ allowed: true });
  });

  it("refuses with RATE_LIMITED and a retry-after hint", async () => {
    const limiter = createRateLimiter();
    await takeWrite(limiter, "k", 1, "place_order");
    let error: unknown;
    try {
      await takeWrite(limiter, "k", 1, "place_order");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolFailure);
    const failure = error as ToolFailure;
    expect(failure.toolCode).toBe("RATE_LIMITED");
    expect(failure.shortMessage).toMatch(/1 write call\(s\) a minute; retry in \d+ s\. Nothing was sent\./);
    expect(failure.facts.retryAfterSeconds).toBe(Math.ceil((failure.facts.retryAfterMs as number) / 1000));
  });
});

describe("createRateLimiter (memory)", () => {
  it("forgets keys whose last call left the window, and keeps those still counted", async () => {
    const calls = new Map<string, number[]>();
    const limiter = createRateLimiter(WINDOW, calls);
    for (let i = 0; i < 1_000; i++) await limiter.take(`perpx1one-off${i}`, 1, i % 10);
    await limiter.take("perpx1steady", 5, WINDOW / 2);
    expect(calls.size).toBe(1_001);
    await limiter.take("perpx1late", 5, WINDOW + 20);
    expect([...calls.keys()].sort()).toEqual(["perpx1late", "perpx1steady"]);
    // The kept key is still counted: its window runs on.
    expect(await limiter.take("perpx1steady", 1, WINDOW + 20)).toEqual({ allowed: false, retryAfterMs: 480 });
  });
});
