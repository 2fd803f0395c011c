import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "./backoff.js";
import { SubscribePacer } from "./pacer.js";
import { MessageSequence } from "./sequence.js";

describe("MessageSequence", () => {
  it("accepts in-order data and a subscribed that comes after higher data ids while it is owed", () => {
    const seq = new MessageSequence();
    expect(seq.record(0, "reply", 0)).toBe("ok"); // connected
    // subscribe A reserved 1; B's data 2, 3 arrive first; then subscribed(1).
    expect(seq.record(2, "data", 1)).toBe("ok");
    expect(seq.record(3, "data", 1)).toBe("ok");
    expect(seq.record(1, "reply", 0)).toBe("ok");
    expect(seq.holes()).toBe(0);
  });

  it("reports a gap when more ids are missing than replies are owed", () => {
    const seq = new MessageSequence();
    seq.record(0, "reply", 0);
    expect(seq.record(1, "data", 0)).toBe("ok");
    expect(seq.record(3, "data", 0)).toBe("gap");
  });

  it("drops replayed data, flags data below the highest data id, and lets validation errors reuse ids", () => {
    const seq = new MessageSequence();
    seq.record(0, "reply", 0);
    seq.record(1, "data", 0);
    seq.record(3, "data", 1);
    expect(seq.record(3, "data", 1)).toBe("duplicate");
    expect(seq.record(3, "error", 1)).toBe("ok"); // a validation error reuses the current id
    expect(seq.record(2, "data", 1)).toBe("reorder");
  });
});

describe("backoff and pacing", () => {
  it("doubles up to the cap, with jitter in [d/2, d]", () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelayMs(n, options, 0.999999))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(backoffDelayMs(2, options, 0)).toBe(200);
    expect(backoffDelayMs(0, {}, 0)).toBe(125); // default 250, jittered down to half
  });

  it("lets two subscribes per key per window through and says when the third may go", () => {
    const pacer = new SubscribePacer(2, 1_000);
    pacer.record("k", 0);
    pacer.record("k", 10);
    expect(pacer.waitMs("k", 20)).toBe(981);
    expect(pacer.waitMs("other", 20)).toBe(0);
    expect(pacer.waitMs("k", 1_001)).toBe(0);
  });
});
