import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { createBlockRateLimiter, limitsOfKind, longestWindow, RATE_LIMIT_HISTORY } from "./rate-limiter.js";

const limit = (numBlocks: number, value: number) =>
  create(clob.MaxPerNBlocksRateLimitSchema, { numBlocks, limit: value });

describe("block rate limiter", () => {
  it("counts before it checks, over the last num_blocks blocks, every limit applied", () => {
    const limiter = createBlockRateLimiter();
    const limits = [limit(100, 3), limit(1, 2)].sort((a, b) => a.numBlocks - b.numBlocks);
    expect(limiter.count("stateful", "a", 10n, 1n, limits)).toBeUndefined();
    expect(limiter.count("stateful", "a", 10n, 1n, limits)).toBeUndefined();
    const third = limiter.count("stateful", "a", 10n, 1n, limits);
    expect(third?.abciCode).toBe(5001);
    expect(third?.log).toBe(
      "Rate of 3 exceeds configured block rate limit of {NumBlocks:1 Limit:2} for MaxStatefulOrdersPerNBlocks and a: Block rate limit exceeded",
    );
    // The refused attempt stays counted: 3 in the last 100 blocks, so block 11 is over already.
    expect(limiter.total("stateful", "a", 10n, 1)).toBe(3n);
    expect(limiter.count("stateful", "a", 11n, 1n, limits)?.log).toContain("Rate of 4 exceeds");
    // After 100 blocks the window is empty again; other keys and kinds are apart.
    expect(limiter.count("stateful", "a", 111n, 1n, limits)).toBeUndefined();
    expect(limiter.count("stateful", "b", 10n, 1n, limits)).toBeUndefined();
    expect(limiter.count("shortTerm", "a", 10n, 1n, limits)).toBeUndefined();
  });

  it("names a single one-block limit's key as the real chain does, and weighs", () => {
    const limiter = createBlockRateLimiter();
    expect(limiter.count("shortTerm", "k", 5n, 2n, [limit(1, 3)])).toBeUndefined();
    expect(limiter.count("shortTerm", "k", 5n, 2n, [limit(1, 3)])?.log).toBe(
      "Rate of 4 exceeds configured block rate limit of {NumBlocks:1 Limit:3} for MaxShortTermOrdersAndCancelsPerNBlocks and key k: Block rate limit exceeded",
    );
    expect(limiter.count("shortTerm", "k", 5n, 1n, [])).toBeUndefined();
  });

  it("prunes counts older than the history", () => {
    const limiter = createBlockRateLimiter();
    limiter.count("leverage", "a", 1n, 1n, [limit(1, 9)]);
    limiter.prune(RATE_LIMIT_HISTORY);
    expect(limiter.total("leverage", "a", 1n, 1)).toBe(1n);
    limiter.prune(RATE_LIMIT_HISTORY + 1n);
    expect(limiter.total("leverage", "a", 1n, 1)).toBe(0n);
  });

  it("takes only the non-deprecated lists, sorted by num_blocks", () => {
    const config = create(clob.BlockRateLimitConfigurationSchema, {
      maxShortTermOrdersPerNBlocks: [limit(1, 1)],
      maxShortTermOrderCancellationsPerNBlocks: [limit(1, 1)],
      maxShortTermOrdersAndCancelsPerNBlocks: [limit(5, 50), limit(1, 10)],
    });
    expect(limitsOfKind(config, "shortTerm").map((l) => l.numBlocks)).toEqual([1, 5]);
    expect(limitsOfKind(config, "stateful")).toEqual([]);
  });
});

describe("longest window", () => {
  it("is the largest num_blocks of any list, at least 1", () => {
    const config = create(clob.BlockRateLimitConfigurationSchema, {
      maxStatefulOrdersPerNBlocks: [limit(1, 2), limit(100, 20)],
      maxLeverageUpdatesPerNBlocks: [limit(5, 1)],
    });
    expect(longestWindow(config)).toBe(100n);
    expect(longestWindow(create(clob.BlockRateLimitConfigurationSchema))).toBe(1n);
    const limiter = createBlockRateLimiter();
    limiter.count("stateful", "a", 1n, 1n, [limit(100, 9)]);
    limiter.prune(100n, 100n);
    expect(limiter.total("stateful", "a", 100n, 100)).toBe(1n);
    limiter.prune(101n, 100n);
    expect(limiter.total("stateful", "a", 101n, 101)).toBe(0n);
  });
});
