/**
 * A setup file of every project: `vi.waitFor` and `expect.poll` wait for a state, and their stock
 * default timeout (1 s) is a claim on speed that a loaded machine breaks. In this suite the bound
 * of such a wait only catches a hang, so where a call gives none it is {@link WAIT_HANG_GUARD_MS}
 * (`expect.poll`'s is set in vitest.config.ts). A call that gives its own keeps it.
 */
import { vi } from "vitest";

/** The default bound of a wait for a state: a hang guard, never a claim on speed. */
const WAIT_HANG_GUARD_MS = 60_000;

const stockWaitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  stockWaitFor(callback, {
    timeout: WAIT_HANG_GUARD_MS,
    ...(typeof options === "number" ? { timeout: options } : options),
  })) as typeof vi.waitFor;
