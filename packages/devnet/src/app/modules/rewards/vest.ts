/**
 * x/vest as the reference genesis sets it up: at the start of every block, each vester module
 * account moves to its treasury the share of its balance that the time since the previous block
 * is of the time left until the entry's end (the real chain's `ProcessVesting`):
 * `balance × (block time − last vest time) / (end − last vest time)`, rounded down, where the last
 * vest time is the later of the entry's start and the previous block's time (the whole balance once
 * the end has passed). The first block has no previous block, so it vests from the start: on a
 * chain started today that is about half of the balance at once, as on the real chain.
 *
 * The reference genesis (`testing/genesis.sh`, `sample_pregenesis.json`) funds `rewards_vester`
 * with 200,000,000 native tokens and has two entries, community and rewards, from 2001-01-01 to
 * 2050-01-01; the devnet does the same with `aperpx`.
 *
 * Store slice `vest/`: `prev_block_time`, the previous block's time (u64 milliseconds).
 */
import { NATIVE_DENOM } from "@perpx/core";
import type { Context, Module } from "../../kernel/module.js";
import { moduleAddress } from "../../lib/addresses.js";
import { decodeU64, encodeU64 } from "../../lib/codec.js";
import type { BankKeeper } from "../bank/bank.js";

/** The module's name and store prefix. */
export const VEST = "vest";

/** One vesting schedule: a vester module account emptied into a treasury between two times. */
export interface VestEntry {
  readonly vesterAccount: string;
  readonly treasuryAccount: string;
  readonly denom: string;
  readonly startTime: Date;
  readonly endTime: Date;
}

/** The rewards vester's balance at genesis: 200,000,000 tokens of 18 decimals. */
export const REWARDS_VESTER_GENESIS_BALANCE = 200_000_000n * 10n ** 18n;

/** The reference genesis's vest entries, with the devnet's native denom. */
export const REFERENCE_VEST_ENTRIES: readonly VestEntry[] = Object.freeze(
  (["community", "rewards"] as const).map((name) => ({
    vesterAccount: `${name}_vester`,
    treasuryAccount: `${name}_treasury`,
    denom: NATIVE_DENOM,
    startTime: new Date("2001-01-01T00:00:00Z"),
    endTime: new Date("2050-01-01T00:00:00Z"),
  })),
);

/**
 * What an entry vests in a block (see the module comment).
 *
 * @param entry - the schedule.
 * @param balance - the vester's balance in the entry's denom.
 * @param blockTimeMs - this block's time.
 * @param previousBlockTimeMs - the previous block's time, undefined in the chain's first block.
 * @returns the amount to move to the treasury.
 * @example
 * ```ts
 * const entry = {
 *   vesterAccount: "rewards_vester", treasuryAccount: "rewards_treasury", denom: "aperpx",
 *   startTime: new Date(1_000), endTime: new Date(11_000),
 * };
 * vestAmount(entry, 1_000n, 3_000n, 2_000n); // 111n: 1 s of the 9 s left
 * vestAmount(entry, 1_000n, 2_000n, undefined); // 100n: from the start
 * vestAmount(entry, 1_000n, 12_000n, 10_000n); // 1000n: the end has passed
 * ```
 */
export function vestAmount(
  entry: VestEntry,
  balance: bigint,
  blockTimeMs: bigint,
  previousBlockTimeMs: bigint | undefined,
): bigint {
  const start = BigInt(entry.startTime.getTime());
  const end = BigInt(entry.endTime.getTime());
  if (blockTimeMs <= start) return 0n;
  if (previousBlockTimeMs !== undefined && end <= previousBlockTimeMs) return 0n;
  const last = previousBlockTimeMs !== undefined && previousBlockTimeMs > start ? previousBlockTimeMs : start;
  const elapsed = blockTimeMs - last;
  const left = end - last;
  return elapsed < left ? (balance * elapsed) / left : balance;
}

/** The vest module: funds the rewards vester at genesis and vests every entry at each block's start. */
export function createVestModule(bank: BankKeeper): Module {
  const entries = REFERENCE_VEST_ENTRIES;
  return {
    name: VEST,
    initGenesis(ctx) {
      bank.initBalance(ctx, moduleAddress("rewards_vester"), [
        { denom: NATIVE_DENOM, amount: REWARDS_VESTER_GENESIS_BALANCE },
      ]);
    },
    exportGenesis() {
      return {
        vest_entries: entries.map((e) => ({
          vester_account: e.vesterAccount,
          treasury_account: e.treasuryAccount,
          denom: e.denom,
          start_time: e.startTime.toISOString().replace(".000Z", "Z"),
          end_time: e.endTime.toISOString().replace(".000Z", "Z"),
        })),
      };
    },
    beginBlock(ctx: Context) {
      const store = ctx.store(VEST);
      const previous = store.get("prev_block_time");
      const previousMs = previous === undefined ? undefined : decodeU64(previous);
      for (const entry of entries) {
        const vester = moduleAddress(entry.vesterAccount);
        const amount = vestAmount(
          entry,
          bank.balance(ctx, vester, entry.denom),
          ctx.block.timeMs,
          previousMs,
        );
        if (amount > 0n) {
          bank.sendCoinsFromModuleToModule(ctx, entry.vesterAccount, entry.treasuryAccount, [
            { denom: entry.denom, amount },
          ]);
        }
      }
      store.set("prev_block_time", encodeU64(ctx.block.timeMs));
    },
  };
}
