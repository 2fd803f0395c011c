/**
 * The ratelimit keeper's capacity flows as the real chain's x/ratelimit has them: an outgoing send
 * takes from every limiter (1002 past it), an incoming transfer adds to them, and a send that timed
 * out or came back with an error acknowledgement is undone once (its pending packet gone). The
 * devnet's IBC counterparty does not acknowledge or time out packets yet, so the undo is driven
 * here directly.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { encodeSerializableInt, ratelimit } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { createGasMeter, defaultGasConfig } from "../../kernel/gas.js";
import { type Context, createContext } from "../../kernel/module.js";
import { RootStore } from "../../kernel/store.js";
import { EventManager } from "../../lib/events.js";
import { AuthKeeper } from "../auth/auth.js";
import { BankKeeper } from "../bank/bank.js";
import { RatelimitKeeper } from "./ratelimit.js";

const HOUR = 3_600_000n;

function setup(): { ctx: (timeMs: bigint) => Context; keeper: RatelimitKeeper } {
  const root = new RootStore();
  const ctx = (timeMs: bigint) =>
    createContext({
      mode: "deliver",
      block: { chainId: "t", height: 1n, time: new Date(Number(timeMs)), timeMs },
      gasMeter: createGasMeter(undefined),
      gasConfig: defaultGasConfig,
      events: new EventManager(),
      kv: root,
    });
  const limiter = (seconds: bigint, minimum: bigint) =>
    create(ratelimit.LimiterSchema, {
      period: create(DurationSchema, { seconds }),
      baselineMinimum: encodeSerializableInt(minimum),
      baselineTvlPpm: 10_000,
    });
  ctx(0n)
    .store("ratelimit")
    .set(
      "limit_params/uusdc",
      toBinary(
        ratelimit.LimitParamsSchema,
        create(ratelimit.LimitParamsSchema, {
          denom: "uusdc",
          limiters: [limiter(3_600n, 1_000n), limiter(86_400n, 10_000n)],
        }),
      ),
    );
  return { ctx, keeper: new RatelimitKeeper(new BankKeeper(new AuthKeeper())) };
}

describe("ratelimit keeper flows", () => {
  it("refuses a send past a limiter with 1002 in the real chain's words", () => {
    const { ctx, keeper } = setup();
    const c = ctx(HOUR);
    expect(() => keeper.checkIbcSend(c, "uusdc", 1_001n, "channel-0", 1n)).toThrow(
      "denom = uusdc, capacity(index: 0) = 1000, amount = 1001: withdrawal amount would exceed rate-limit capacity",
    );
    keeper.checkIbcSend(c, "uusdc", 1_000n, "channel-0", 1n);
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([0n, 9_000n]);
  });

  it("adds an incoming transfer to every limiter, above the baseline too", () => {
    const { ctx, keeper } = setup();
    const c = ctx(HOUR);
    keeper.checkIbcSend(c, "uusdc", 400n, "channel-0", 1n);
    keeper.creditIbcReceive(c, "uusdc", 1_000n);
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([1_600n, 10_600n]);
    // An unlimited denom is left alone.
    keeper.creditIbcReceive(c, "uatom", 5n);
    expect(keeper.capacities(c, "uatom", HOUR)).toEqual([]);
  });

  it("undoes a timed-out or failed send once, and a settled one never", () => {
    const { ctx, keeper } = setup();
    const c = ctx(HOUR);
    keeper.checkIbcSend(c, "uusdc", 700n, "channel-0", 1n);
    keeper.checkIbcSend(c, "uusdc", 200n, "channel-0", 2n);
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([100n, 9_100n]);
    expect(keeper.undoIbcSend(c, "channel-0", 1n, "uusdc", 700n)).toBe(true);
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([800n, 9_800n]);
    // Undone once only: the packet is no longer pending.
    expect(keeper.undoIbcSend(c, "channel-0", 1n, "uusdc", 700n)).toBe(false);
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([800n, 9_800n]);
    // A success acknowledgement settles the other: nothing comes back after that.
    keeper.settleIbcSend(c, "channel-0", 2n);
    expect(keeper.undoIbcSend(c, "channel-0", 2n, "uusdc", 200n)).toBe(false);
    expect(c.store("ratelimit").get("pending/channel-0/00000000000000000002")).toBeUndefined();
    expect(keeper.capacities(c, "uusdc", HOUR)).toEqual([800n, 9_800n]);
  });
});
