/** Block listeners: what they get when a block commits (the record, and the wall-clock commit moment). */
import { describe, expect, it } from "vitest";
import { GENESIS_TIME, newApp } from "../../../test/support/app-harness.js";

const wallClock = () => performance.timeOrigin + performance.now();

describe("onBlock", () => {
  it("hands each listener the committed block and the wall-clock moment of its commit", () => {
    const app = newApp();
    const seen: Array<{ height: bigint; committedAt: number; stored: boolean }> = [];
    const off = app.onBlock((block, committedAt) =>
      seen.push({ height: block.height, committedAt, stored: app.block(block.height) === block }),
    );
    const before = wallClock();
    const block = app.produceBlock(new Date(GENESIS_TIME.getTime() + 1000));
    const after = wallClock();
    app.produceBlock(new Date(GENESIS_TIME.getTime() + 2000));
    off();
    app.produceBlock(new Date(GENESIS_TIME.getTime() + 3000));
    expect(seen.map((s) => [s.height, s.stored])).toEqual([
      [block.height, true],
      [block.height + 1n, true],
    ]);
    const [first, second] = seen as [(typeof seen)[0], (typeof seen)[0]];
    expect(first.committedAt).toBeGreaterThanOrEqual(before);
    expect(first.committedAt).toBeLessThanOrEqual(after);
    expect(second.committedAt).toBeGreaterThanOrEqual(first.committedAt);
    // A local measurement, not chain data: the stored record does not carry it.
    expect(Object.values(block)).not.toContain(first.committedAt);
  });
});
