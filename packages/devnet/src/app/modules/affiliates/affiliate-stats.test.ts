/**
 * A user's stored affiliate totals read back: however often they are read and rewritten, and
 * whether the decoded value was kept from an earlier read, `userStats` answers what the stored JSON
 * says (the reference: parse it every time), and charges the gas of a store read every time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGasMeter, defaultGasConfig } from "../../kernel/gas.js";
import { createContext } from "../../kernel/module.js";
import { RootStore } from "../../kernel/store.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { EventManager } from "../../lib/events.js";
import { userStats } from "./affiliate-stats.js";

const USERS = ["perpx1a", "perpx1b", "perpx1c"];
const FIELDS = ["takerNotional", "revenue", "referredVolume", "attributedVolume"] as const;

function context(root: RootStore) {
  return createContext({
    mode: "deliver",
    block: { chainId: "t", height: 1n, time: new Date(0), timeMs: 0n },
    gasMeter: createGasMeter(undefined),
    gasConfig: defaultGasConfig,
    events: new EventManager(),
    kv: root,
  });
}

/** The reference: the stored JSON parsed on every read. */
function reference(bytes: Uint8Array | undefined): Record<(typeof FIELDS)[number], bigint> {
  const json = bytes === undefined ? {} : (JSON.parse(fromUtf8(bytes)) as Record<string, string>);
  return Object.fromEntries(FIELDS.map((f) => [f, BigInt(json[f] ?? "0")])) as Record<
    (typeof FIELDS)[number],
    bigint
  >;
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant("write" as const),
    user: fc.constantFrom(...USERS),
    values: fc.array(fc.bigInt({ min: 0n, max: 1n << 70n }), { minLength: 4, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("read" as const), user: fc.constantFrom(...USERS) }),
);

describe("userStats", () => {
  it("answers the stored totals after any writes and repeated reads, at a store read's gas", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const root = new RootStore();
        for (const s of steps) {
          const ctx = context(root);
          const key = `stats/user/${s.user}`;
          if (s.kind === "write") {
            const json = Object.fromEntries(FIELDS.map((f, i) => [f, String(s.values[i])]));
            ctx.store("affiliates").set(key, utf8(JSON.stringify(json)));
            continue;
          }
          const expected = reference(ctx.store("affiliates").get(key));
          const before = ctx.gasMeter.consumed;
          const got = userStats(ctx, s.user);
          const gas = ctx.gasMeter.consumed - before;
          const again = ctx.gasMeter.consumed;
          expect({ ...userStats(ctx, s.user) }).toEqual(expected);
          expect(ctx.gasMeter.consumed - again).toBe(gas);
          expect({ ...got }).toEqual(expected);
          expect(Object.isFrozen(got)).toBe(true);
        }
      }),
    );
  });
});
