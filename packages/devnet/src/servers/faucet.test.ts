import { describe, expect, it } from "vitest";
import { GrantLog } from "./faucet.js";

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
