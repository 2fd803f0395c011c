/**
 * Unit tests of the wrap, ibc, bridge, ratelimit and affiliates modules through the application's
 * control operations and blocks (no servers): governance atomicity, wrapping, the deposit
 * lifecycle surviving export and restore, rate-limit arithmetic.
 */

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { ibcDenom } from "@perpx/core";
import {
  bridge,
  cosmosBank,
  decodeSerializableInt,
  encodeSerializableInt,
  ratelimit,
  wrap,
} from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { bankBalance } from "../../../../test/support/app-query.js";
import { chainState } from "../../../../test/support/chain-state.js";
import { ChainApplication } from "../../app.js";
import type { ChainState } from "../../contract.js";
import { GENESIS_ACCOUNTS } from "../../genesis/genesis-accounts.js";
import { GOV_AUTHORITY } from "../../kernel/governance.js";
import { bech32Of, moduleAddress } from "../../lib/addresses.js";
import { escrowAddress } from "../ibc/ibc-escrow.js";
import { DAY_SECONDS } from "../ratelimit/ratelimit.js";

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const BOB = GENESIS_ACCOUNTS[1]!.address;

function newApp(state?: ChainState): ChainApplication {
  return ChainApplication.create({
    profile: "local",
    genesisTime: GENESIS_TIME,
    ...(state ? { state } : {}),
  });
}

let clock = GENESIS_TIME.getTime();
function mine(app: ChainApplication, count = 1): void {
  for (let i = 0; i < count; i++) {
    clock += 1000;
    app.produceBlock(new Date(clock));
  }
}

function deposits(app: ChainApplication): bridge.BridgeEventRecord[] {
  const answer = app.query(
    "/perpx.bridge.v1.Query/BridgeEvents",
    toBinary(bridge.QueryBridgeEventsRequestSchema, create(bridge.QueryBridgeEventsRequestSchema)),
  );
  return fromBinary(bridge.QueryBridgeEventsResponseSchema, answer.value).events;
}

describe("governance proposals", () => {
  it("run atomically in the next block: a failing message rolls back the messages before it", () => {
    const app = newApp();
    const set = toBinary(
      wrap.MsgSetWrapRuleSchema,
      create(wrap.MsgSetWrapRuleSchema, {
        authority: GOV_AUTHORITY,
        rule: {
          $typeName: "perpx.wrap.v1.WrapRule",
          portId: "transfer",
          channelId: "channel-7",
          sourceDenom: "uusdc",
          localDenom: "uusdc",
        },
      }),
    );
    const badDelete = toBinary(
      wrap.MsgDeleteWrapRuleSchema,
      create(wrap.MsgDeleteWrapRuleSchema, {
        authority: GOV_AUTHORITY,
        portId: "transfer",
        channelId: "channel-9",
        sourceDenom: "x",
      }),
    );
    const id = app.control.submitProposal([
      { typeUrl: "/perpx.wrap.v1.MsgSetWrapRule", value: set },
      { typeUrl: "/perpx.wrap.v1.MsgDeleteWrapRule", value: badDelete },
    ]);
    expect(app.control.proposal(id)).toBeUndefined();
    mine(app);
    expect(app.control.proposal(id)).toMatchObject({ status: "failed", codespace: "wrap", code: 4 });
    const rules = fromBinary(
      wrap.QueryWrapRulesResponseSchema,
      app.query("/perpx.wrap.v1.Query/WrapRules", new Uint8Array()).value,
    ).rules;
    expect(rules.map((r) => r.channelId)).toEqual(["channel-0"]);
    const ok = app.control.submitProposal([{ typeUrl: "/perpx.wrap.v1.MsgSetWrapRule", value: set }]);
    mine(app);
    expect(app.control.proposal(ok)).toMatchObject({ status: "passed", code: 0 });
  });

  it("refuse an unknown message type at once", () => {
    const app = newApp();
    expect(() => app.control.submitProposal([{ typeUrl: "/nope.Msg", value: new Uint8Array() }])).toThrow(
      /unrecognized message type/,
    );
  });
});

describe("ibc and wrap", () => {
  it("wraps by (port, channel, denom) and records backing issued per voucher", () => {
    const app = newApp();
    const before = bankBalance(app, BOB, "uusdc");
    const answer = app.control.moduleControl("ibc", "receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "250",
      receiver: BOB,
    });
    expect(answer).toMatchObject({ wrapped: true, sequence: "1" });
    expect(bankBalance(app, BOB, "uusdc")).toBe(before + 250n);
    expect(
      bankBalance(app, bech32Of(moduleAddress("wrap")), ibcDenom("transfer", "channel-0", "uusdc")),
    ).toBe(250n);
    expect(() =>
      app.control.moduleControl("ibc", "receive", {
        channel: "channel-3",
        denom: "uusdc",
        amount: "1",
        receiver: BOB,
      }),
    ).toThrow(/channel not found/);
    expect(() => app.control.moduleControl("ibc", "nope", {})).toThrow(
      /no devnet control operation ibc\/nope/,
    );
  });

  it("releases a coin of this chain coming back from its channel's escrow account", () => {
    const app = newApp();
    const transfer = bech32Of(escrowAddress("transfer", "channel-0"));
    app.control.fund(transfer, [{ denom: "aperpx", amount: 500n }]);
    const before = bankBalance(app, BOB, "aperpx");
    const answer = app.control.moduleControl("ibc", "receive", {
      channel: "channel-0",
      denom: "transfer/channel-0/aperpx",
      amount: "300",
      receiver: BOB,
    });
    expect(answer).toMatchObject({ wrapped: false, creditedDenom: "aperpx" });
    expect(bankBalance(app, BOB, "aperpx")).toBe(before + 300n);
    expect(bankBalance(app, transfer, "aperpx")).toBe(200n);
  });
});

describe("bridge", () => {
  it("keeps an in-flight deposit across export and restore, and completes it deterministically", () => {
    const app = newApp();
    app.control.moduleControl("bridge", "deposit", {
      sender: "0x00000000000000000000000000000000000000aa",
      address: BOB,
      amount: "42",
    });
    mine(app, 4);
    expect(deposits(app)[0]?.status).toBe(bridge.BridgeEventStatus.ACKNOWLEDGED);
    const restored = newApp(chainState(app));
    const before = bankBalance(restored, BOB, "uusdc");
    const start = app.latestBlock().time.getTime();
    for (let i = 1; i <= 5; i++) {
      app.produceBlock(new Date(start + i * 1000));
      restored.produceBlock(new Date(start + i * 1000));
    }
    expect(deposits(restored)[0]?.status).toBe(bridge.BridgeEventStatus.COMPLETED);
    expect(bankBalance(restored, BOB, "uusdc")).toBe(before + 42n);
    expect(restored.latestBlock().resultAppHash).toEqual(app.latestBlock().resultAppHash);
  });
});

describe("ratelimit", () => {
  /** Proposes one `aperpx` limiter (1 h, 100% of supply, the given minimum); returns the proposal id. */
  const proposeLimiter = (app: ChainApplication, baselineMinimum: Uint8Array) =>
    app.control.submitProposal([
      {
        typeUrl: "/perpx.ratelimit.v1.MsgSetLimitParams",
        value: toBinary(
          ratelimit.MsgSetLimitParamsSchema,
          create(ratelimit.MsgSetLimitParamsSchema, {
            authority: GOV_AUTHORITY,
            limitParams: {
              $typeName: "perpx.ratelimit.v1.LimitParams",
              denom: "aperpx",
              limiters: [
                create(ratelimit.LimiterSchema, {
                  period: create(DurationSchema, { seconds: 3600n }),
                  baselineMinimum,
                  baselineTvlPpm: 1_000_000,
                }),
              ],
            },
          }),
        ),
      },
    ]);

  it("refuses a limiter whose baseline minimum is not a SerializableInt", () => {
    expect(DAY_SECONDS).toBe(86_400n);
    const app = newApp();
    const id = proposeLimiter(app, new Uint8Array([0x07, 0x01]));
    mine(app);
    expect(app.control.proposal(id)).toMatchObject({ status: "failed", codespace: "ratelimit", code: 1005 });
  });

  it("reports limiter capacity at the baseline, max(minimum, ppm x supply)", () => {
    const app = newApp();
    const id = proposeLimiter(app, encodeSerializableInt(5n));
    mine(app);
    expect(app.control.proposal(id)?.status).toBe("passed");
    const supply = fromBinary(
      cosmosBank.QuerySupplyOfResponseSchema,
      app.query(
        "/cosmos.bank.v1beta1.Query/SupplyOf",
        toBinary(
          cosmosBank.QuerySupplyOfRequestSchema,
          create(cosmosBank.QuerySupplyOfRequestSchema, { denom: "aperpx" }),
        ),
      ).value,
    ).amount?.amount;
    const capacity = fromBinary(
      ratelimit.QueryCapacityByDenomResponseSchema,
      app.query(
        "/perpx.ratelimit.v1.Query/CapacityByDenom",
        toBinary(
          ratelimit.QueryCapacityByDenomRequestSchema,
          create(ratelimit.QueryCapacityByDenomRequestSchema, { denom: "aperpx" }),
        ),
      ).value,
    );
    expect(decodeSerializableInt(capacity.limiterCapacityList[0]!.capacity)).toBe(BigInt(supply ?? "0"));
  });
});
