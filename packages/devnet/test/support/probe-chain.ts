/**
 * Test support: a chain application with a `probe` module whose control operation runs a callback
 * with a delivery context and the keepers (changes are committed like any control operation).
 */
import { ChainApplication } from "../../src/app/app.js";
import type { ChainState } from "../../src/app/contract.js";
import type { Context } from "../../src/app/kernel/module.js";
import type { Keepers } from "../../src/app/modules/index.js";

/** A local chain with a probe. */
export interface ProbedChain {
  readonly app: ChainApplication;
  /** Runs `fn` in a delivery context over the committed state; its writes are committed. */
  run<T>(fn: (ctx: Context, keepers: Keepers) => T): T;
}

/** Builds a local chain (at `genesisTime`, or from `state`) with a probe module. */
export function probedChain(options: { genesisTime?: Date; state?: ChainState } = {}): ProbedChain {
  let pending: ((ctx: Context, keepers: Keepers) => unknown) | undefined;
  let keepers: Keepers | undefined;
  const app = ChainApplication.create(
    {
      profile: "local",
      genesisTime: options.genesisTime ?? new Date("2026-01-01T00:00:00Z"),
      ...(options.state === undefined ? {} : { state: options.state }),
    },
    {
      extraModules: (k) => {
        keepers = k;
        return [{ name: "probe", control: { run: (ctx) => pending?.(ctx, k as Keepers) } }];
      },
    },
  );
  return {
    app,
    run<T>(fn: (ctx: Context, keepers: Keepers) => T): T {
      if (keepers === undefined) throw new Error("no keepers");
      pending = fn as (ctx: Context, keepers: Keepers) => unknown;
      try {
        return app.control.moduleControl("probe", "run", {}) as T;
      } finally {
        pending = undefined;
      }
    },
  };
}
