import { isInvalidOrderError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { batchCancelMsg, cancelOrderMsg, placeOrderMsg } from "../messages/clob.js";
import { bankSendMsg } from "../messages/transfers.js";
import { LocalWallet } from "../wallet/localWallet.js";
import { needsOrderWindow, validateOrderWindows } from "./validateOrders.js";

const owner = LocalWallet.fromPrivateKey("0a".repeat(32)).address;
const sub = { owner, number: 0 };
const base = {
  subaccount: sub,
  clientId: 1,
  clobPairId: 0,
  side: "BUY" as const,
  quantums: 10n,
  subticks: 10n,
};
const latest = { height: 100n, time: new Date(1_800_000_000_000), chainId: "c" };
const context = { latest, shortBlockWindow: 40, timeoutHeight: 0n };

function check(messages: Parameters<typeof validateOrderWindows>[0], ctx = context): unknown {
  try {
    validateOrderWindows(messages, ctx);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("order windows", () => {
  it("short-term: next height ≤ goodTilBlock ≤ next height + window", () => {
    const at = (goodTilBlock: number) => [placeOrderMsg({ ...base, kind: "short-term", goodTilBlock })];
    expect(check(at(101))).toBeUndefined();
    expect(check(at(141))).toBeUndefined();
    expect(isInvalidOrderError(check(at(100)))).toBe(true);
    expect(isInvalidOrderError(check(at(142)))).toBe(true);
    expect(isInvalidOrderError(check(at(110), { ...context, shortBlockWindow: 5 }))).toBe(true);
    expect(isInvalidOrderError(check(at(110), { ...context, timeoutHeight: 105n }))).toBe(true);
    expect(check(at(110), { ...context, timeoutHeight: 110n })).toBeUndefined();
    expect(
      isInvalidOrderError(
        check([
          batchCancelMsg({
            subaccount: sub,
            cancels: [{ clobPairId: 0, clientIds: [1] }],
            goodTilBlock: 200,
          }),
        ]),
      ),
    ).toBe(true);
    expect(
      isInvalidOrderError(check([cancelOrderMsg({ ...base, kind: "short-term", goodTilBlock: 99 })])),
    ).toBe(true);
  });

  it("stateful: latest time < goodTilBlockTime ≤ latest time + 95 days", () => {
    const t = 1_800_000_000;
    const at = (goodTilBlockTime: number) => [
      placeOrderMsg({ ...base, kind: "long-term", goodTilBlockTime }),
    ];
    expect(check(at(t + 1))).toBeUndefined();
    expect(check(at(t + 95 * 86_400))).toBeUndefined();
    expect(isInvalidOrderError(check(at(t)))).toBe(true);
    expect(isInvalidOrderError(check(at(t + 95 * 86_400 + 1)))).toBe(true);
    expect(
      isInvalidOrderError(check([cancelOrderMsg({ ...base, kind: "conditional", goodTilBlockTime: t - 5 })])),
    ).toBe(true);
  });

  it("a short-term clob message must be alone", () => {
    const short = placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 105 });
    const send = bankSendMsg({ from: owner, to: owner, amount: [{ denom: "uusdc", amount: 1n }] });
    expect(isInvalidOrderError(check([short, send]))).toBe(true);
    const long = placeOrderMsg({ ...base, kind: "long-term", goodTilBlockTime: 1_800_000_100 });
    expect(check([long, send])).toBeUndefined();
    expect(needsOrderWindow([send])).toBe(false);
    expect(needsOrderWindow([send, long])).toBe(true);
  });
});
