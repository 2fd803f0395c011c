/**
 * x/epochs: named timers of block time. Each starts a new epoch when a block's time reaches its
 * `next_tick` (then `next_tick += duration`, one epoch per block at most, so a gap between blocks,
 * as after a chain halt, is caught up one block at a time); a timer initializes at height 2 or
 * later once its `next_tick` has passed, fast-forwarding `next_tick` past the block time by whole
 * durations. The funding of `perpetuals` runs on `funding-sample` (every minute, on the half
 * minute) and `funding-tick` (every hour); the fee tiers' volume window (`feetiers-volume.ts`, the
 * real chain's x/stats) on `stats-epoch` (every hour).
 *
 * A devnet clock jump (the control API moving the clock) is not a halt: the devnet marks it, and
 * the next block first moves every timer over the ticks the jump skipped ({@link skipMissedTicks}),
 * so each timer starts one epoch, the one the new time is in, instead of a run of one-block epochs
 * (one-block funding samples would be empty and dilute the funding rate).
 *
 * Store slice `epochs/`: `info/<name>`: `perpx.epochs.v1.EpochInfo`; `clock-jump`: present after a
 * devnet clock jump until the next block.
 */
import { create } from "@bufbuild/protobuf";
import { epochs } from "@perpx/proto";
import { type Context, genesisJson, type Module, notFound, queryHandler } from "../../kernel/module.js";
import { utf8 } from "../../lib/codec.js";
import { abciError, registerError } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { wireCreate, wireDecode, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";

/** The module's name and store prefix. */
export const EPOCHS = "epochs";

/** The epoch timers funding and stats use. */
export const EPOCH_NAMES = {
  fundingSample: "funding-sample",
  fundingTick: "funding-tick",
  stats: "stats-epoch",
} as const;

/** Errors of codespace `epochs`, as the real chain registers them. */
export const epochsErrors = {
  emptyName: registerError(EPOCHS, 2, "EpochInfo name is empty"),
  durationIsZero: registerError(EPOCHS, 3, "Duration is zero"),
  alreadyExists: registerError(EPOCHS, 4, "EpochInfo name already exists"),
  notFound: registerError(EPOCHS, 5, "EpochInfo name not found"),
  invalidStartTuple: registerError(
    EPOCHS,
    6,
    "Invalid CurrentEpoch and CurrentEpochStartBlock tuple: CurrentEpoch should be zero if and only if CurrentEpochStartBlock is zero",
  ),
} as const;

/** The genesis timers of the real chain: funding ticks and stats on the hour, samples on the half minute. */
export function defaultEpochs(): epochs.EpochInfo[] {
  const timer = (name: string, duration: number, nextTick: number) =>
    wireCreate(wire.perpx_epochs_v1_EpochInfo, { name, duration, nextTick, fastForwardNextTick: true });
  return [
    timer(EPOCH_NAMES.fundingTick, 3600, 0),
    timer(EPOCH_NAMES.fundingSample, 60, 30),
    timer(EPOCH_NAMES.stats, 3600, 0),
  ];
}

/**
 * Checks a timer as the real chain's `EpochInfo.Validate` does.
 *
 * @throws AbciError (epochs 2, 3 or 6).
 */
export function validateEpochInfo(info: epochs.EpochInfo): void {
  if (info.name === "") throw abciError(epochsErrors.emptyName, "EpochInfo Name is empty");
  if (info.duration === 0) throw abciError(epochsErrors.durationIsZero, "Duration is zero");
  if ((info.currentEpoch === 0) !== (info.currentEpochStartBlock === 0)) {
    throw abciError(
      epochsErrors.invalidStartTuple,
      `CurrentEpoch: ${info.currentEpoch}, CurrentEpochStartBlock: ${info.currentEpochStartBlock}`,
    );
  }
}

/**
 * What a timer does in a block at `height` and unix second `time`: the updated timer, and whether
 * a new epoch started (with the tick it started at). Pure; {@link EpochsKeeper.maybeStartNextEpoch}
 * stores the result.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { epochs } from "@perpx/proto";
 *
 * const sample = create(epochs.EpochInfoSchema, { name: "funding-sample", duration: 60, nextTick: 30, fastForwardNextTick: true });
 * stepEpoch(sample, 2n, 1_000).info.nextTick; // 1_050
 * stepEpoch(sample, 2n, 1_000).started; // false
 * ```
 */
export function stepEpoch(
  info: epochs.EpochInfo,
  height: bigint,
  time: number,
): { info: epochs.EpochInfo; started: boolean; tick: number } {
  let next = info;
  if (!next.isInitialized) {
    if (height < 2n || time < next.nextTick) return { info: next, started: false, tick: 0 };
    let nextTick = next.nextTick;
    if (next.fastForwardNextTick) {
      nextTick += next.duration * (Math.floor((time - nextTick) / next.duration) + 1);
    }
    next = wireCreate(wire.perpx_epochs_v1_EpochInfo, { ...next, isInitialized: true, nextTick });
  }
  if (time < next.nextTick) return { info: next, started: false, tick: 0 };
  const tick = next.nextTick;
  return {
    info: wireCreate(wire.perpx_epochs_v1_EpochInfo, {
      ...next,
      nextTick: tick + next.duration,
      currentEpoch: next.currentEpoch + 1,
      currentEpochStartBlock: Number(height),
    }),
    started: true,
    tick,
  };
}

/**
 * A timer's `next_tick` moved over the ticks a clock jump to unix second `time` skipped: the last
 * tick at or before `time` (so the next block starts one epoch, at that tick). A timer not
 * initialized yet, or less than two ticks behind, is returned unchanged. Pure.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { epochs } from "@perpx/proto";
 *
 * const sample = create(epochs.EpochInfoSchema, { name: "funding-sample", duration: 60, nextTick: 1_050, isInitialized: true });
 * skipMissedTicks(sample, 1_300).nextTick; // 1_290: one epoch starts at 1_290, not five from 1_050
 * skipMissedTicks(sample, 1_100).nextTick; // 1_050: one tick behind, nothing skipped
 * ```
 */
export function skipMissedTicks(info: epochs.EpochInfo, time: number): epochs.EpochInfo {
  if (!info.isInitialized || info.duration === 0 || time < info.nextTick + info.duration) return info;
  const skipped = Math.floor((time - info.nextTick) / info.duration);
  return wireCreate(wire.perpx_epochs_v1_EpochInfo, {
    ...info,
    nextTick: info.nextTick + info.duration * skipped,
  });
}

const infoKey = (name: string) => `info/${name}`;
const CLOCK_JUMP_KEY = "clock-jump";

/** The epochs keeper: the timers, and whether one started an epoch in the current block. */
export class EpochsKeeper {
  /** A timer, or undefined. */
  find(ctx: StoreAccess, name: string): epochs.EpochInfo | undefined {
    const bytes = ctx.store(EPOCHS).get(infoKey(name));
    return bytes === undefined ? undefined : wireDecode(wire.perpx_epochs_v1_EpochInfo, bytes);
  }

  /**
   * A timer.
   *
   * @throws AbciError (epochs 5) when there is none of that name.
   */
  get(ctx: StoreAccess, name: string): epochs.EpochInfo {
    const found = this.find(ctx, name);
    if (found === undefined) throw abciError(epochsErrors.notFound, `EpochInfo Id not found (${name})`);
    return found;
  }

  /** Every timer, by name. */
  all(ctx: StoreAccess): epochs.EpochInfo[] {
    return [...ctx.store(EPOCHS).entries("info/")].map(([, bytes]) =>
      wireDecode(wire.perpx_epochs_v1_EpochInfo, bytes),
    );
  }

  /**
   * Adds a timer.
   *
   * @throws AbciError (epochs 2, 3, 6, or 4 when the name exists).
   */
  create(ctx: StoreAccess, info: epochs.EpochInfo): void {
    validateEpochInfo(info);
    if (this.find(ctx, info.name) !== undefined) {
      throw abciError(epochsErrors.alreadyExists, `epochInfo.Name already exists (${info.name})`);
    }
    this.set(ctx, info);
  }

  private set(ctx: StoreAccess, info: epochs.EpochInfo): void {
    ctx.store(EPOCHS).set(infoKey(info.name), wireEncode(wire.perpx_epochs_v1_EpochInfo, info));
  }

  /** Marks a devnet clock jump: the next block moves every timer over the ticks it skipped. */
  markClockJump(ctx: StoreAccess): void {
    ctx.store(EPOCHS).set(CLOCK_JUMP_KEY, new Uint8Array([1]));
  }

  /**
   * After a devnet clock jump (and only then), moves every timer over the ticks the jump skipped
   * ({@link skipMissedTicks}) at the block's time, and clears the mark.
   */
  skipClockJump(ctx: Context): void {
    const store = ctx.store(EPOCHS);
    if (store.get(CLOCK_JUMP_KEY) === undefined) return;
    store.delete(CLOCK_JUMP_KEY);
    const time = Number(ctx.block.timeMs / 1000n);
    for (const info of this.all(ctx)) {
      const moved = skipMissedTicks(info, time);
      if (moved !== info) this.set(ctx, moved);
    }
  }

  /** Runs a timer for the current block (see {@link stepEpoch}); emits `new_epoch` when one starts. */
  maybeStartNextEpoch(ctx: Context, name: string): boolean {
    const before = this.get(ctx, name);
    const step = stepEpoch(before, ctx.block.height, Number(ctx.block.timeMs / 1000n));
    if (step.info !== before) this.set(ctx, step.info);
    if (step.started) {
      ctx.events.emitEvent("new_epoch", [
        ["epoch_info_name", step.info.name],
        ["epoch_number", String(step.info.currentEpoch)],
        ["epoch_start_tick_time", String(step.tick)],
        ["epoch_start_block_time", String(ctx.block.timeMs / 1000n)],
        ["epoch_start_block", String(step.info.currentEpochStartBlock)],
      ]);
    }
    return step.started;
  }

  /**
   * Blocks since the timer's current epoch started (0: this block started it).
   *
   * @throws AbciError (epochs 5) for an unknown timer.
   */
  blocksSinceEpochStart(ctx: Context, name: string): bigint {
    return ctx.block.height - BigInt(this.get(ctx, name).currentEpochStartBlock);
  }

  /**
   * The unix second at which the timer starts its next epoch: its `next_tick`, or for a timer not
   * initialized yet the tick it will fast-forward to from `time` (unix seconds).
   */
  upcomingTick(ctx: StoreAccess, name: string, time: number): number {
    const info = this.get(ctx, name);
    if (info.isInitialized || !info.fastForwardNextTick || time < info.nextTick) return info.nextTick;
    return info.nextTick + info.duration * (Math.floor((time - info.nextTick) / info.duration) + 1);
  }
}

/**
 * The epochs module: genesis timers, the begin-block step of every timer, the `EpochInfo` and
 * `EpochInfoAll` queries, and the devnet controls `next-tick` (`{name}` → the unix second the
 * timer's next epoch starts, for moving the clock there) and `clock-jump` (marks a clock jump).
 */
export function createEpochsModule(keeper: EpochsKeeper, genesis: readonly epochs.EpochInfo[]): Module {
  return {
    name: EPOCHS,
    initGenesis(ctx) {
      for (const info of genesis) keeper.create(ctx, info);
    },
    exportGenesis(ctx) {
      return {
        epoch_info_list: keeper.all(ctx).map((info) => genesisJson(epochs.EpochInfoSchema, info)),
      };
    },
    beginBlock(ctx) {
      keeper.skipClockJump(ctx);
      for (const info of keeper.all(ctx)) keeper.maybeStartNextEpoch(ctx, info.name);
    },
    queries: {
      "/perpx.epochs.v1.Query/EpochInfo": queryHandler(
        () => epochs.QueryGetEpochInfoRequestSchema,
        () => epochs.QueryEpochInfoResponseSchema,
        (ctx, req) => {
          const found = keeper.find(ctx, req.name);
          if (found === undefined) throw notFound(`epoch info ${req.name}`);
          return create(epochs.QueryEpochInfoResponseSchema, { epochInfo: found });
        },
      ),
      "/perpx.epochs.v1.Query/EpochInfoAll": queryHandler(
        () => epochs.QueryAllEpochInfoRequestSchema,
        () => epochs.QueryEpochInfoAllResponseSchema,
        (ctx, req) => {
          const items = keeper.all(ctx).map((info) => ({ key: utf8(info.name), value: info }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(epochs.QueryEpochInfoAllResponseSchema, { epochInfo: page, pagination });
        },
      ),
    },
    control: {
      "next-tick": (ctx, request) => {
        const name = typeof request.name === "string" ? request.name : EPOCH_NAMES.fundingTick;
        const time = typeof request.time === "number" ? request.time : Number(ctx.block.timeMs / 1000n);
        const info = keeper.get(ctx, name);
        return { name, nextTick: keeper.upcomingTick(ctx, name, time), initialized: info.isInitialized };
      },
      "clock-jump": (ctx) => {
        keeper.markClockJump(ctx);
        return {};
      },
    },
  };
}
