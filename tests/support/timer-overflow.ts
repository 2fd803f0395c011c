/**
 * Fails a test during which Node warned `TimeoutOverflowWarning`: a delay past 2^31 - 1 ms given to
 * `setTimeout`, which then fires at once instead of waiting.
 */
import { afterEach, beforeEach, expect } from "vitest";

/** Registers the check around every test of the calling file. */
export function failOnTimerOverflow(): void {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  beforeEach(() => {
    warnings.length = 0;
    process.on("warning", onWarning);
  });
  afterEach(() => {
    process.off("warning", onWarning);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });
}
