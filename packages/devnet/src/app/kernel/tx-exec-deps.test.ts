import { describe, expect, it } from "vitest";
import type { ChainCore } from "./chain-core.js";
import { anteDepsOf } from "./tx-exec.js";

/** A chain core with only what the ante deps are built from. */
function fakeCore(keepers: Record<string, unknown>, minGasPrices: unknown[]): ChainCore {
  const router = { authenticateSigner: () => true };
  return { set: { keepers, router }, config: { minGasPrices } } as unknown as ChainCore;
}

describe("anteDepsOf", () => {
  it("builds the ante deps once per memo of verified signatures, with every keeper, the prices and the memo", () => {
    const auth = { name: "auth" };
    const core = fakeCore({ auth, bank: {}, accountPlus: {} }, []);
    const verified = new Set<string>();
    const deps = anteDepsOf(core, verified);
    expect(deps.auth).toBe(auth);
    expect(deps.verified).toBe(verified);
    expect(deps.minGasPrices).toBe(core.config.minGasPrices);
    expect(deps.authenticateSigner?.({} as never, {} as never)).toBe(true);
    expect(anteDepsOf(core, verified)).toBe(deps);
    const other = new Set<string>();
    expect(anteDepsOf(core, other)).not.toBe(deps);
    expect(anteDepsOf(core, other).verified).toBe(other);
  });

  it("builds them again when the modules or the minimum gas prices are replaced", () => {
    const core = fakeCore({ auth: {} }, []);
    const verified = new Set<string>();
    const first = anteDepsOf(core, verified);
    const replaced = fakeCore({ auth: { name: "new" } }, core.config.minGasPrices as unknown[]);
    const second = anteDepsOf(replaced, verified);
    expect(second).not.toBe(first);
    expect(second.auth).toBe(replaced.set.keepers.auth);
    const repriced = { ...replaced, config: { ...replaced.config, minGasPrices: [] } } as ChainCore;
    const third = anteDepsOf(repriced, verified);
    expect(third).not.toBe(second);
    expect(third.minGasPrices).toBe(repriced.config.minGasPrices);
  });
});
