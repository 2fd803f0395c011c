import { isInvalidAddressError, isInvalidArgumentError, parseAddress } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { encodeTxBody } from "../tx/encode.js";
import { LocalWallet } from "../wallet/localWallet.js";
import { initiateWithdrawalMsg, registerAffiliateMsg, updateLeverageMsg } from "./account.js";
import { isFeeFreeClobMessage } from "./clob.js";

const a = LocalWallet.fromPrivateKey("07".repeat(32));
const b = LocalWallet.fromPrivateKey("08".repeat(32));
const subaccount = { owner: a.address, number: 0 };

function refusal(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("account message builders", () => {
  it("updateLeverageMsg: a fee-free clob message; imf in 1..1,000,000 ppm, each pair once", () => {
    const msg = updateLeverageMsg({ subaccount, leverage: [{ clobPairId: 1, imfPpm: 100_000 }] });
    expect(isFeeFreeClobMessage(msg)).toBe(true);
    expect(encodeTxBody({ messages: [msg] }).length).toBeGreaterThan(0);
    for (const leverage of [
      [],
      [{ clobPairId: 0, imfPpm: 0 }],
      [{ clobPairId: 0, imfPpm: 1_000_001 }],
      [{ clobPairId: 0, imfPpm: 1.5 }],
      [{ clobPairId: -1, imfPpm: 10 }],
      [{ clobPairId: 2 ** 32, imfPpm: 10 }],
      [
        { clobPairId: 3, imfPpm: 10 },
        { clobPairId: 3, imfPpm: 20 },
      ],
    ]) {
      expect(isInvalidArgumentError(refusal(() => updateLeverageMsg({ subaccount, leverage })))).toBe(true);
    }
  });

  it("registerAffiliateMsg: two valid, different addresses (either form)", () => {
    const msg = registerAffiliateMsg({ referee: parseAddress(a.address).hex, affiliate: b.address });
    expect(msg.value.referee).toBe(a.address);
    expect(
      isInvalidArgumentError(
        refusal(() => registerAffiliateMsg({ referee: a.address, affiliate: a.address })),
      ),
    ).toBe(true);
    expect(
      isInvalidAddressError(refusal(() => registerAffiliateMsg({ referee: a.address, affiliate: "x" }))),
    ).toBe(true);
  });

  it("initiateWithdrawalMsg: a 0x recipient, a non-zero chain id and a coin amount below 2^256", () => {
    const base = {
      sender: a.address,
      recipient: "0x52908400098527886e0f7030069857d2e4169ee7",
      denom: "uusdc",
      amount: 5n,
      ethChainId: 1n,
    };
    expect(initiateWithdrawalMsg(base).value.recipient).toBe("0x52908400098527886E0F7030069857D2E4169EE7");
    for (const bad of [
      { recipient: b.address },
      { ethChainId: 0n },
      { ethChainId: 1n << 64n },
      { amount: 1n << 256n },
      { amount: 0n },
      { denom: "" },
    ]) {
      const error = refusal(() => initiateWithdrawalMsg({ ...base, ...bad }));
      expect(
        isInvalidArgumentError(error) || isInvalidAddressError(error),
        JSON.stringify(bad, (_, v) => String(v)),
      ).toBe(true);
    }
  });
});
