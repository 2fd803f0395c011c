/**
 * comlink's rate limits as the REST server counts them: buckets per route, one point per request
 * per client IP in a fixed window from the IP's first request, the IP read from the forwarding
 * headers first, and loopback (the devnet's internal IPs) never charged.
 */
import { describe, expect, it } from "vitest";
import { RestRateLimiter } from "./rate-limit.js";

const NOW = 1_700_000_000_000;
const from = (ip: string) => ({ "x-forwarded-for": `${ip}, 10.0.0.1` });

describe("REST rate limits", () => {
  it("counts down a window of 100 from the first request, then refuses with Retry-After", () => {
    const limiter = new RestRateLimiter();
    const first = limiter.consume("/v4/height", from("203.0.113.7"), "127.0.0.1", NOW);
    expect(first).toEqual({
      limited: false,
      headers: {
        "RateLimit-Remaining": "99",
        "RateLimit-Reset": String(NOW + 10_000),
        "RateLimit-Limit": "100",
      },
    });
    for (let i = 2; i <= 100; i++)
      limiter.consume("/v4/perpetualMarkets", from("203.0.113.7"), undefined, NOW + i);
    const over = limiter.consume("/v4/height", from("203.0.113.7"), undefined, NOW + 4_000);
    expect(over).toEqual({
      limited: true,
      headers: {
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": String(NOW + 10_000),
        "Retry-After": "6000",
        "RateLimit-Limit": "100",
      },
    });
    // Another IP has its own window; the window ends and a new one opens.
    expect(limiter.consume("/v4/height", from("203.0.113.8"), undefined, NOW)?.limited).toBe(false);
    expect(limiter.consume("/v4/height", from("203.0.113.7"), undefined, NOW + 10_000)).toMatchObject({
      limited: false,
      headers: { "RateLimit-Remaining": "99", "RateLimit-Reset": String(NOW + 20_000) },
    });
  });

  it("draws each route on its bucket: candles 1000, fills shared with trade history, orders by id never", () => {
    const limiter = new RestRateLimiter();
    const ip = from("198.51.100.2");
    expect(
      limiter.consume("/v4/candles/perpetualMarkets/:ticker", ip, undefined, NOW)?.headers,
    ).toMatchObject({
      "RateLimit-Limit": "1000",
      "RateLimit-Remaining": "999",
    });
    limiter.consume("/v4/fills", ip, undefined, NOW);
    expect(limiter.consume("/v4/tradeHistory", ip, undefined, NOW)?.headers["RateLimit-Remaining"]).toBe(
      "98",
    );
    expect(limiter.consume("/v4/orders", ip, undefined, NOW)?.headers["RateLimit-Remaining"]).toBe("99");
    expect(limiter.consume("/v4/trader/search", ip, undefined, NOW)?.headers["RateLimit-Remaining"]).toBe(
      "99",
    );
    expect(limiter.consume("/v4/orders/:orderId", ip, undefined, NOW)).toBeUndefined();
    expect(limiter.consume("/health", ip, undefined, NOW)).toBeUndefined();
  });

  it("reads cf-connecting-ip first, then x-forwarded-for, then the socket; loopback costs nothing", () => {
    const limiter = new RestRateLimiter();
    const cf = { "cf-connecting-ip": "192.0.2.9", "x-forwarded-for": "127.0.0.1" };
    limiter.consume("/v4/height", cf, "127.0.0.1", NOW);
    expect(
      limiter.consume("/v4/height", { "cf-connecting-ip": "192.0.2.9" }, undefined, NOW)?.headers,
    ).toMatchObject({
      "RateLimit-Remaining": "98",
    });
    for (let i = 0; i < 150; i++) {
      const local = limiter.consume("/v4/height", {}, "::ffff:127.0.0.1", NOW);
      expect(local).toMatchObject({ limited: false, headers: { "RateLimit-Remaining": "100" } });
    }
    expect(limiter.consume("/v4/height", {}, "192.168.1.20", NOW)?.headers["RateLimit-Remaining"]).toBe("99");
    expect(limiter.consume("/v4/height", {}, undefined, NOW)).toBeUndefined();
  });
});
