/**
 * `sourceChains.blockTimeMs` and `sourceChains.finalityDepth` are checked where they enter
 * (`startDevnet`), as the main chain's `blockTimeMs` is: a value that is no integer in range is
 * refused with a `DevnetError` "invalid-argument" naming the option, before anything starts
 * (before, `setInterval` took NaN, Infinity or a delay past 2^31 - 1 as 1 ms and a negative one as
 * "never", and the source chains sealed a block every millisecond or none).
 */
import { expect, it } from "vitest";
import { isDevnetError, startDevnet } from "../src/index.js";

/** The devnet's start-up outcome: the error, or "started" (then stopped). */
async function outcome(sourceChains: { blockTimeMs?: number; finalityDepth?: number }): Promise<unknown> {
  return startDevnet({ ports: "free", blockTimeMs: 0, sourceChains }).then(
    async (devnet) => {
      await devnet.stop();
      return "started";
    },
    (error: unknown) => error,
  );
}

it.each([Number.NaN, -1, 0.5, Number.POSITIVE_INFINITY, 2_147_483_648])(
  "startDevnet refuses sourceChains.blockTimeMs %s by name",
  async (blockTimeMs) => {
    const error = await outcome({ blockTimeMs });
    expect(isDevnetError(error) && error.reason).toBe("invalid-argument");
    expect((error as Error).message).toContain(
      `sourceChains.blockTimeMs must be an integer from 0 to 2147483647, got ${blockTimeMs}`,
    );
  },
);

it.each([Number.NaN, -1, 1.5])(
  "startDevnet refuses sourceChains.finalityDepth %s by name",
  async (finalityDepth) => {
    const error = await outcome({ blockTimeMs: 0, finalityDepth });
    expect(isDevnetError(error) && error.reason).toBe("invalid-argument");
    expect((error as Error).message).toContain(
      `sourceChains.finalityDepth must be a non-negative integer, got ${finalityDepth}`,
    );
  },
);
