import { create } from "@bufbuild/protobuf";
import { epochs } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { createGasMeter, defaultGasConfig } from "../../kernel/gas.js";
import { createContext } from "../../kernel/module.js";
import { RootStore } from "../../kernel/store.js";
import { EventManager } from "../../lib/events.js";
import { defaultEpochs, EpochsKeeper, skipMissedTicks, stepEpoch, validateEpochInfo } from "./epochs.js";

const byName = (name: string) => defaultEpochs().find((e) => e.name === name) as epochs.EpochInfo;

describe("epoch timers", () => {
  it("initialize at height 2, fast-forwarded past the block time, without starting an epoch", () => {
    const sample = byName("funding-sample");
    expect(stepEpoch(sample, 1n, 1_000).info).toBe(sample);
    const first = stepEpoch(sample, 2n, 1_000);
    expect(first.started).toBe(false);
    expect(first.info).toMatchObject({ isInitialized: true, nextTick: 1_050, currentEpoch: 0 });
    const tick = stepEpoch(byName("funding-tick"), 2n, 7_300);
    expect(tick.info.nextTick).toBe(10_800);
  });

  it("start one epoch per block once the tick has passed, catching up a clock jump block by block", () => {
    let info = stepEpoch(byName("funding-sample"), 2n, 1_000).info;
    expect(stepEpoch(info, 3n, 1_049).started).toBe(false);
    const started = stepEpoch(info, 4n, 1_050);
    expect(started).toMatchObject({ started: true, tick: 1_050 });
    expect(started.info).toMatchObject({ nextTick: 1_110, currentEpoch: 1, currentEpochStartBlock: 4 });
    // Three minutes later: three blocks each start one epoch.
    info = started.info;
    const ticks: number[] = [];
    for (let height = 5n; height < 9n; height++) {
      const step = stepEpoch(info, height, 1_300);
      if (step.started) ticks.push(step.tick);
      info = step.info;
    }
    expect(ticks).toEqual([1_110, 1_170, 1_230, 1_290]);
    expect(stepEpoch(info, 9n, 1_300).started).toBe(false);
  });

  it("after a devnet clock jump, start one epoch at the last tick the jump passed, not one per skipped tick", () => {
    const kv = new RootStore();
    const at = (height: bigint, seconds: number) =>
      createContext({
        mode: "deliver",
        block: {
          chainId: "perpx-local-1",
          height,
          time: new Date(seconds * 1000),
          timeMs: BigInt(seconds) * 1000n,
        },
        gasMeter: createGasMeter(undefined),
        gasConfig: defaultGasConfig,
        events: new EventManager(),
        kv,
      });
    const keeper = new EpochsKeeper();
    for (const info of defaultEpochs()) keeper.create(at(1n, 1_000), info);
    const block = (height: bigint, seconds: number) => {
      const ctx = at(height, seconds);
      keeper.skipClockJump(ctx);
      return keeper
        .all(ctx)
        .filter((info) => keeper.maybeStartNextEpoch(ctx, info.name))
        .map((i) => i.name);
    };
    expect(block(2n, 1_000)).toEqual([]);
    // Without a mark, a gap (a halt) is caught up one epoch per block.
    expect(block(3n, 1_300)).toEqual(["funding-sample"]);
    expect(keeper.get(at(3n, 1_300), "funding-sample").nextTick).toBe(1_110);
    // A clock jump of 2 hours: each timer starts one epoch, the one the new time is in.
    keeper.markClockJump(at(3n, 1_300));
    expect(block(4n, 8_500)).toEqual(["funding-sample", "funding-tick", "stats-epoch"]);
    const after = at(4n, 8_500);
    expect(keeper.get(after, "funding-sample")).toMatchObject({ nextTick: 8_550, currentEpoch: 2 });
    expect(keeper.get(after, "funding-tick")).toMatchObject({ nextTick: 10_800, currentEpoch: 1 });
    expect(block(5n, 8_501)).toEqual([]);
    // One tick behind is no jump to skip.
    const sample = keeper.get(after, "funding-sample");
    expect(skipMissedTicks(sample, 8_560)).toBe(sample);
  });

  it("validate as the real chain does", () => {
    const info = (fields: { name?: string; duration?: number; currentEpoch?: number }) =>
      create(epochs.EpochInfoSchema, { name: "x", duration: 60, ...fields });
    expect(() => validateEpochInfo(info({ name: "" }))).toThrow("EpochInfo Name is empty");
    expect(() => validateEpochInfo(info({ duration: 0 }))).toThrow("Duration is zero");
    expect(() => validateEpochInfo(info({ currentEpoch: 1 }))).toThrow("CurrentEpoch: 1");
    expect(() => validateEpochInfo(info({}))).not.toThrow();
  });
});
