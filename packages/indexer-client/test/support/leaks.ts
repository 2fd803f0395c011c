/**
 * Counting what a test leaves running: Node's active timers and TCP handles
 * (`process.getActiveResourcesInfo()`), compared with a baseline taken before the client existed.
 * The check polls with `setImmediate` (not counted), so the wait adds no timer of its own.
 */
import { expect } from "vitest";

const COUNTED = ["Timeout", "TCPSocketWrap", "TCPWRAP", "TCPServerWrap"];

/** Active timers and TCP handles by type. */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) {
    if (COUNTED.includes(type)) counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

/**
 * Checks at once that no more timers are active than in `baseline`: call it right after `close()`
 * resolves, since waiting would let a leaked one-shot timer fire and hide itself.
 */
export function expectNoTimerLeak(baseline: Record<string, number>): void {
  const timers = activeResources().Timeout ?? 0;
  expect({ timers }).toEqual({ timers: Math.min(timers, baseline.Timeout ?? 0) });
}

/** The resource types of which more are active now than in `baseline`, with both counts. */
function excess(baseline: Record<string, number>): Record<string, [number, number]> {
  const now = activeResources();
  const over: Record<string, [number, number]> = {};
  for (const type of COUNTED) {
    if ((now[type] ?? 0) > (baseline[type] ?? 0)) over[type] = [baseline[type] ?? 0, now[type] ?? 0];
  }
  return over;
}

/**
 * Waits (up to 10 s) until no more timers or TCP handles are active than in `baseline` (sockets
 * take a moment to close; fewer is fine: handles of an earlier test may still have been closing
 * when the baseline was taken).
 */
export async function expectNoLeaks(baseline: Record<string, number>): Promise<void> {
  const deadline = performance.now() + 10_000;
  let over = excess(baseline);
  while (Object.keys(over).length && performance.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    over = excess(baseline);
  }
  expect(over).toEqual({});
}
