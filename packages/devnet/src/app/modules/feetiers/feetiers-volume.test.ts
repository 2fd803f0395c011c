import { create } from "@bufbuild/protobuf";
import { epochs } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGasMeter, defaultGasConfig } from "../../kernel/gas.js";
import { type Context, createContext } from "../../kernel/module.js";
import { RootStore } from "../../kernel/store.js";
import { addressKey } from "../../lib/addresses.js";
import { concatBytes, decodeU64, encodeU64 } from "../../lib/codec.js";
import { EventManager } from "../../lib/events.js";
import {
  expireOldStats,
  globalNotional,
  processBlockStats,
  recordBlockFill,
  STATS_WINDOW_SECONDS,
  userNotional,
} from "./feetiers-volume.js";

const A = new Uint8Array(20).fill(1);
const B = new Uint8Array(20).fill(2);
const HOUR = 3_600;

function context(): Context {
  const time = new Date("2026-01-01T00:00:00Z");
  return createContext({
    mode: "deliver",
    block: { chainId: "perpx-local-1", height: 2n, time, timeMs: BigInt(time.getTime()) },
    gasMeter: createGasMeter(undefined),
    gasConfig: defaultGasConfig,
    events: new EventManager(),
    kv: new RootStore(),
  });
}

/** The `stats-epoch` timer in epoch `currentEpoch`, ending at `nextTick`. */
const statsEpoch = (currentEpoch: number, nextTick: number) =>
  create(epochs.EpochInfoSchema, { name: "stats-epoch", duration: HOUR, currentEpoch, nextTick });

describe("the fee tiers' 30-day volume (x/stats)", () => {
  it("counts a block's fills only once the block ends: taker, maker and the chain's notional", () => {
    const ctx = context();
    recordBlockFill(ctx, addressKey(A), addressKey(B), 700n);
    recordBlockFill(ctx, addressKey(B), addressKey(A), 300n);
    expect(userNotional(ctx, A)).toEqual({ takerNotional: 0n, makerNotional: 0n });
    expect(globalNotional(ctx)).toBe(0n);
    processBlockStats(ctx, statsEpoch(1, 2 * HOUR));
    expect(userNotional(ctx, A)).toEqual({ takerNotional: 700n, makerNotional: 300n });
    expect(userNotional(ctx, B)).toEqual({ takerNotional: 300n, makerNotional: 700n });
    expect(globalNotional(ctx)).toBe(1_000n);
    // The block's stats are emptied: a second end of block adds nothing.
    processBlockStats(ctx, statsEpoch(1, 2 * HOUR));
    expect(globalNotional(ctx)).toBe(1_000n);
  });

  it("expires one trailing epoch per block, an epoch with stats only when its end is more than 30 days past", () => {
    const ctx = context();
    const end = 2 * HOUR;
    recordBlockFill(ctx, addressKey(A), addressKey(B), 500n);
    processBlockStats(ctx, statsEpoch(2, end));
    const windowEnd = BigInt(end) * 1000n + STATS_WINDOW_SECONDS * 1000n;
    // Epochs 0 and 1 had no stats: each takes one block; epoch 2 is the current one.
    expireOldStats(ctx, 2, windowEnd + 1n);
    expireOldStats(ctx, 2, windowEnd + 1n);
    expireOldStats(ctx, 2, windowEnd + 1n);
    expect(globalNotional(ctx)).toBe(500n);
    // Epoch 3 runs: epoch 2 stays while its end is not more than 30 days before the block.
    expireOldStats(ctx, 3, windowEnd);
    expect(userNotional(ctx, A).takerNotional).toBe(500n);
    expireOldStats(ctx, 3, windowEnd + 1n);
    expect(userNotional(ctx, A)).toEqual({ takerNotional: 0n, makerNotional: 0n });
    expect(userNotional(ctx, B)).toEqual({ takerNotional: 0n, makerNotional: 0n });
    expect(globalNotional(ctx)).toBe(0n);
  });
});

describe("a user's window notional read back", () => {
  it("property: answers what the stored bytes say after any fills and block ends, however often read", () => {
    const users = [A, B];
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("fill" as const),
        taker: fc.nat(1),
        maker: fc.nat(1),
        notional: fc.bigInt({ min: 1n, max: 1n << 62n }),
      }),
      fc.record({ kind: fc.constant("end" as const) }),
      fc.record({ kind: fc.constant("read" as const), user: fc.nat(1) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const ctx = context();
        for (const s of steps) {
          if (s.kind === "fill") {
            const taker = addressKey(users[s.taker] as Uint8Array);
            recordBlockFill(ctx, taker, addressKey(users[s.maker] as Uint8Array), s.notional);
          } else if (s.kind === "end") {
            processBlockStats(ctx, statsEpoch(1, 2 * HOUR));
          } else {
            const user = users[s.user] as Uint8Array;
            const bytes = ctx.store("stats").get(`user/${addressKey(user)}`);
            const expected =
              bytes === undefined
                ? { takerNotional: 0n, makerNotional: 0n }
                : { takerNotional: decodeU64(bytes), makerNotional: decodeU64(bytes, 8) };
            expect({ ...userNotional(ctx, user) }).toEqual(expected);
            expect({ ...userNotional(ctx, user) }).toEqual(expected);
          }
        }
      }),
    );
  });
});

describe("a block's stats as stored", () => {
  it("property: each trader's pair is the u64 big-endian of its wrapped taker and maker sums", () => {
    const fill = fc.record({
      taker: fc.nat(1),
      maker: fc.nat(1),
      notional: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
    });
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 12 }), (fills) => {
        const ctx = context();
        const keys = [addressKey(A), addressKey(B)];
        const sums = keys.map(() => ({ taker: 0n, maker: 0n }));
        for (const f of fills) {
          recordBlockFill(ctx, keys[f.taker] as string, keys[f.maker] as string, f.notional);
          (sums[f.taker] as { taker: bigint }).taker += f.notional;
          (sums[f.maker] as { maker: bigint }).maker += f.notional;
        }
        keys.forEach((key, i) => {
          const sum = sums[i] as { taker: bigint; maker: bigint };
          const expected = fills.some((f) => f.taker === i || f.maker === i)
            ? concatBytes(encodeU64(BigInt.asUintN(64, sum.taker)), encodeU64(BigInt.asUintN(64, sum.maker)))
            : undefined;
          expect(ctx.store("stats").get(`block/${key}`)).toEqual(expected);
        });
      }),
    );
  });
});
