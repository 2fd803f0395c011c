import { isInvalidArgumentError } from "@perpx/errors";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkDelayMs, MAX_TIMER_MS, setLongTimeout } from "./timers.js";

const DAY_MS = 86_400_000;

describe("setLongTimeout", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a bare setTimeout past MAX_TIMER_MS fires at once (what it guards against)", () => {
    const fire = vi.fn();
    setTimeout(fire, 30 * DAY_MS);
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledOnce();
  });

  it("waits 30 days, in steps, and fires once", () => {
    const fire = vi.fn();
    setLongTimeout(fire, 30 * DAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30 * DAY_MS - MAX_TIMER_MS - 1);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(100 * DAY_MS);
    expect(fire).toHaveBeenCalledOnce();
  });

  it("a short delay is a plain timer", () => {
    const fire = vi.fn();
    setLongTimeout(fire, 10);
    vi.advanceTimersByTime(9);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledOnce();
  });

  it("clear stops it, also between steps", () => {
    const fire = vi.fn();
    const timer = setLongTimeout(fire, 3 * MAX_TIMER_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    timer.clear();
    vi.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fire).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("Infinity never fires and arms nothing", () => {
    const fire = vi.fn();
    setLongTimeout(fire, Number.POSITIVE_INFINITY);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fire).not.toHaveBeenCalled();
  });

  it("unref carries over to every step", () => {
    const fire = vi.fn();
    const timer = setLongTimeout(fire, 2 * MAX_TIMER_MS).unref();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fire).toHaveBeenCalledOnce();
    timer.clear();
  });
});

describe("checkDelayMs", () => {
  it("takes a finite number of milliseconds of any size, 0 only when allowed", () => {
    expect(checkDelayMs(1, "pollIntervalMs")).toBe(1);
    expect(checkDelayMs(30 * 86_400_000, "timeoutMs")).toBe(30 * 86_400_000);
    expect(checkDelayMs(0, "refreshIntervalMs", true)).toBe(0);
  });

  it("refuses NaN, infinities, negatives, 0 unless allowed, and non-numbers, naming the option", () => {
    const bad: [unknown, boolean][] = [
      [Number.NaN, true],
      [Number.POSITIVE_INFINITY, true],
      [-1, true],
      [0, false],
      ["5", true],
      [undefined, true],
    ];
    for (const [value, allowZero] of bad) {
      const error = (() => {
        try {
          checkDelayMs(value as number, "staleMs", allowZero);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(isInvalidArgumentError(error) && error.argument, String(value)).toBe("staleMs");
    }
  });
});
