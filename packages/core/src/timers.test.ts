import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS, setLongTimeout } from "./timers.js";

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
