/**
 * The devnet's control operations on the chain ({@link ChainControl}): funding accounts and
 * subaccounts, moving the clock, queueing governance proposals, and the modules' own operations
 * (oracle prices, ...). Each applies to the committed state at once; its events come out in the
 * next block, and the queued txs are re-checked on the new state.
 */

import type { Any } from "@bufbuild/protobuf/wkt";
import { addressBytes } from "@perpx/address";
import { DevnetError } from "../../devnet-error.js";
import type { ChainControl, OraclePriceSet } from "../contract.js";
import { type Coin, coinsToString, validateCoins } from "../lib/coins.js";
import { abciError, sdkErrors } from "../lib/errors.js";
import { applyToCommitted, type ChainCore } from "./chain-core.js";
import { proposalResult, queueProposal } from "./governance.js";

function fund(
  core: ChainCore,
  address: string,
  coins: ReadonlyArray<{ denom: string; amount: bigint }>,
): void {
  let recipient: Uint8Array;
  try {
    recipient = addressBytes(address);
  } catch (error) {
    throw abciError(sdkErrors.invalidAddress, error instanceof Error ? error.message : String(error));
  }
  const amount: Coin[] = [...coins].sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
  const invalid = validateCoins(amount);
  if (invalid !== undefined || amount.length === 0) {
    throw abciError(sdkErrors.invalidCoins, invalid ?? `no coins to fund: ${coinsToString(amount)}`);
  }
  applyToCommitted(core, (ctx) => {
    const { bank } = core.set.keepers;
    bank.mintCoins(ctx, "devnet_faucet", amount);
    bank.sendCoinsFromModuleToAccount(ctx, "devnet_faucet", recipient, amount);
  });
}

function moduleControl(
  core: ChainCore,
  module: string,
  operation: string,
  request: Readonly<Record<string, unknown>>,
): unknown {
  const op = core.set.modules.find((m) => m.name === module)?.control?.[operation];
  if (op === undefined) {
    throw abciError(sdkErrors.unknownRequest, `no devnet control operation ${module}/${operation}`);
  }
  return applyToCommitted(core, (ctx) => op(ctx, request));
}

function submitProposal(
  core: ChainCore,
  messages: ReadonlyArray<{ typeUrl: string; value: Uint8Array }>,
): bigint {
  const anys: Any[] = messages.map((m) => ({
    $typeName: "google.protobuf.Any",
    typeUrl: m.typeUrl,
    value: m.value,
  }));
  return queueProposal(core.root, core.set.router, anys);
}

/**
 * Marks a devnet clock jump in the epochs module: the next block moves the epoch timers over the
 * ticks the jump skipped (`modules/epochs/epochs.ts`), where a halt catches them up one block at a time.
 */
function markClockJump(core: ChainCore): void {
  moduleControl(core, "epochs", "clock-jump", {});
}

/**
 * The latest time the chain's clock may be moved to: 2100-01-01T00:00:00Z. The epoch timers (x/epochs
 * `next_tick` and `duration`, uint32 unix seconds in the reference) end at 2106-02-07T06:28:15Z, and
 * a timer's next tick runs up to one epoch ahead of the block time: past it no block can be made.
 */
const MAX_CLOCK_MS = 4_102_444_800_000n;
const MAX_CLOCK_TEXT = "2100-01-01T00:00:00.000Z";

/** Refuses a clock move whose target, unix ms `target`, is past {@link MAX_CLOCK_MS}. */
function refusePastMaxClock(target: bigint, move: string): void {
  if (target <= MAX_CLOCK_MS) return;
  throw new DevnetError(
    "out-of-range",
    `${move} would move the chain's clock ${target - MAX_CLOCK_MS} ms past ${MAX_CLOCK_TEXT}, the latest time it may reach (the epoch timers' uint32 seconds end in 2106)`,
  );
}

function advanceTime(core: ChainCore, ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new DevnetError("invalid-argument", `advanceTime needs a non-negative integer, got ${ms}`);
  // Against the wall clock the block producer reads (`Date.now`, as the next block's time).
  refusePastMaxClock(BigInt(Date.now()) + core.timeOffsetMs + BigInt(ms), `advancing ${ms} ms`);
  core.timeOffsetMs += BigInt(ms);
  if (ms > 0) markClockJump(core);
}

function advanceTimeTo(core: ChainCore, timeMs: number, now: Date, halt: boolean): number {
  if (Number.isInteger(timeMs)) refusePastMaxClock(BigInt(timeMs), `a jump to unix ms ${timeMs}`);
  if (!Number.isSafeInteger(timeMs) || timeMs < 0)
    throw new DevnetError("invalid-argument", `advanceTimeTo needs a non-negative integer, got ${timeMs}`);
  // Against the shifted clock a block's time is taken from, not the next block's time: after a
  // burst of blocks the latest can be a few ms ahead of that clock (each block at least 1 ms after
  // the last), and a jump measured from it would leave the next block short of `timeMs`.
  const gap = timeMs - Number(BigInt(now.getTime()) + core.timeOffsetMs);
  if (gap <= 0) return 0;
  core.timeOffsetMs += BigInt(gap);
  if (!halt) markClockJump(core);
  return gap;
}

/**
 * The control operations over `core`. `changed` runs after each operation that moved the
 * committed state (the application recomputes the app hash and re-checks its mempool).
 */
export function createChainControl(core: ChainCore, changed: () => void): ChainControl {
  const control = (module: string, operation: string, request: Readonly<Record<string, unknown>>) => {
    const answer = moduleControl(core, module, operation, request);
    changed();
    return answer;
  };
  return {
    fund: (address, coins) => {
      fund(core, address, coins);
      changed();
    },
    advanceTime: (ms) => {
      advanceTime(core, ms);
      changed();
    },
    advanceTimeTo: (timeMs, now, options) => {
      const moved = advanceTimeTo(core, timeMs, now, options?.halt === true);
      if (moved > 0) changed();
      return moved;
    },
    submitProposal: (messages) => {
      const id = submitProposal(core, messages);
      changed();
      return id;
    },
    proposal: (id) => proposalResult(core.root, id),
    moduleControl: control,
    setOraclePrice: (market, price) => control("prices", "set-price", { market, price }) as OraclePriceSet,
    setOracleWalk: (enabled) => {
      control("prices", "set-walk", { enabled });
    },
    fundSubaccount: (owner, number, quantums) => {
      control("subaccounts", "fund", { owner, number, quantums: quantums.toString() });
    },
  };
}
