import {
  addressToHex,
  isInvalidAddressError,
  isInvalidArgumentError,
  isInvalidOrderError,
  isInvalidSubaccountError,
} from "@perpx/core";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { fromBase64 } from "../bytes.js";
import { LocalWallet } from "../wallet/localWallet.js";
import {
  addAuthenticatorMsg,
  encodeAuthenticatorConfig,
  removeAuthenticatorMsg,
  tradingKeyAuthenticator,
} from "./accountplus.js";
import {
  batchCancelMsg,
  cancelOrderMsg,
  isFeeFreeClobMessage,
  isShortTermClobMessage,
  placeOrderMsg,
} from "./clob.js";
import type { PlaceOrderParams } from "./orderTypes.js";
import {
  bankSendMsg,
  depositToSubaccountMsg,
  ibcTransferMsg,
  transferMsg,
  withdrawFromSubaccountMsg,
  wrapRedeemMsg,
  wrapWithdrawMsg,
} from "./transfers.js";

const owner = LocalWallet.fromPrivateKey("07".repeat(32));
const sub = { owner: owner.address, number: 0 };
const base = {
  subaccount: sub,
  clientId: 42,
  clobPairId: 1,
  side: "BUY" as const,
  quantums: 1_000_000n,
  subticks: 2_868_800_000n,
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("placeOrderMsg", () => {
  it("builds short-term, long-term and conditional orders", () => {
    const short = placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 100 });
    expect(short.typeUrl).toBe("/perpx.clob.v1.MsgPlaceOrder");
    expect(short.value.order?.orderId).toMatchObject({
      clientId: 42,
      orderFlags: 0,
      clobPairId: 1,
      subaccountId: { owner: owner.address, number: 0 },
    });
    expect(short.value.order?.goodTilOneof).toEqual({ case: "goodTilBlock", value: 100 });
    const long = placeOrderMsg({ ...base, kind: "long-term", goodTilBlockTime: 1_800_000_000 });
    expect(long.value.order?.orderId?.orderFlags).toBe(64);
    expect(long.value.order?.goodTilOneof).toEqual({ case: "goodTilBlockTime", value: 1_800_000_000 });
    const conditional = placeOrderMsg({
      ...base,
      side: "SELL",
      kind: "conditional",
      goodTilBlockTime: 1_800_000_000,
      conditionType: "STOP_LOSS",
      triggerSubticks: 2_700_000_000n,
    });
    expect(conditional.value.order).toMatchObject({
      side: clob.Order_Side.SELL,
      conditionType: clob.Order_ConditionType.STOP_LOSS,
      conditionalOrderTriggerSubticks: 2_700_000_000n,
      orderId: { orderFlags: 32 },
    });
    const takeProfit = placeOrderMsg({
      ...base,
      kind: "conditional",
      goodTilBlockTime: 1,
      conditionType: "TAKE_PROFIT",
      triggerSubticks: "5",
    });
    expect(takeProfit.value.order?.conditionType).toBe(clob.Order_ConditionType.TAKE_PROFIT);
  });

  it("carries every time in force, reduce-only, client metadata, builder code and router", () => {
    const expected = { GTC: 0, IOC: 1, POST_ONLY: 2, FILL_OR_KILL: 3 } as const;
    for (const [timeInForce, value] of Object.entries(expected)) {
      const msg = placeOrderMsg({
        ...base,
        kind: "short-term",
        goodTilBlock: 5,
        timeInForce: timeInForce as keyof typeof expected,
      });
      expect(msg.value.order?.timeInForce).toBe(value);
    }
    const defaults = placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 5 });
    expect(defaults.value.order).toMatchObject({
      timeInForce: 0,
      reduceOnly: false,
      clientMetadata: 0,
      orderRouterAddress: "",
    });
    expect(defaults.value.order?.builderCodeParameters).toBeUndefined();
    const full = placeOrderMsg({
      ...base,
      kind: "short-term",
      goodTilBlock: 5,
      timeInForce: "IOC",
      reduceOnly: true,
      clientMetadata: 1,
      builderCode: { builderAddress: owner.address, feePpm: 10 },
      orderRouterAddress: owner.address,
    });
    expect(full.value.order).toMatchObject({
      reduceOnly: true,
      clientMetadata: 1,
      builderCodeParameters: { builderAddress: owner.address, feePpm: 10 },
      orderRouterAddress: owner.address,
    });
  });

  it("accepts the 0x form of the owner and stores bech32", () => {
    const hex = addressToHex(owner.address);
    const msg = placeOrderMsg({
      ...base,
      subaccount: { owner: hex, number: 3 },
      kind: "short-term",
      goodTilBlock: 5,
    });
    expect(msg.value.order?.orderId?.subaccountId).toMatchObject({ owner: owner.address, number: 3 });
  });

  it("rejects malformed orders before signing", () => {
    const bad: Array<[Partial<PlaceOrderParams>, (e: unknown) => boolean]> = [
      [{ quantums: 0n }, isInvalidOrderError],
      [{ subticks: 0n }, isInvalidOrderError],
      [{ quantums: -1n }, isInvalidOrderError],
      [{ quantums: "1.5" }, isInvalidOrderError],
      [{ subaccount: { owner: "perpx1bad", number: 0 } }, isInvalidAddressError],
      [{ subaccount: { owner: owner.address, number: 128_001 } }, isInvalidSubaccountError],
      [{ subaccount: { owner: owner.address, number: -1 } }, isInvalidSubaccountError],
      [{ clientId: 2 ** 32 }, isInvalidArgumentError],
      [{ side: "UP" as never }, isInvalidOrderError],
      [{ timeInForce: "GTT" as never }, isInvalidOrderError],
    ];
    for (const [patch, guard] of bad) {
      expect(
        guard(
          thrown(() =>
            placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 5, ...patch } as PlaceOrderParams),
          ),
        ),
      ).toBe(true);
    }
    expect(
      isInvalidOrderError(thrown(() => placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 0 }))),
    ).toBe(true);
    expect(
      isInvalidOrderError(thrown(() => placeOrderMsg({ ...base, kind: "long-term", goodTilBlockTime: 0 }))),
    ).toBe(true);
    expect(
      isInvalidOrderError(
        thrown(() =>
          placeOrderMsg({
            ...base,
            kind: "conditional",
            goodTilBlockTime: 5,
            conditionType: "STOP_LOSS",
            triggerSubticks: 0n,
          }),
        ),
      ),
    ).toBe(true);
    expect(
      isInvalidOrderError(
        thrown(() => placeOrderMsg({ ...base, kind: "twap" as never, goodTilBlock: 1 } as never)),
      ),
    ).toBe(true);
  });
});

describe("cancels", () => {
  it("cancels short-term and stateful orders", () => {
    const short = cancelOrderMsg({
      subaccount: sub,
      clientId: 1,
      clobPairId: 0,
      kind: "short-term",
      goodTilBlock: 9,
    });
    expect(short.value).toMatchObject({
      orderId: { orderFlags: 0 },
      goodTilOneof: { case: "goodTilBlock", value: 9 },
    });
    const long = cancelOrderMsg({
      subaccount: sub,
      clientId: 1,
      clobPairId: 0,
      kind: "long-term",
      goodTilBlockTime: 99,
    });
    expect(long.value).toMatchObject({
      orderId: { orderFlags: 64 },
      goodTilOneof: { case: "goodTilBlockTime", value: 99 },
    });
    const conditional = cancelOrderMsg({
      subaccount: sub,
      clientId: 1,
      clobPairId: 0,
      kind: "conditional",
      goodTilBlockTime: 99,
    });
    expect(conditional.value.orderId?.orderFlags).toBe(32);
  });

  it("batch-cancels up to 100 short-term orders", () => {
    const msg = batchCancelMsg({
      subaccount: sub,
      cancels: [
        { clobPairId: 0, clientIds: [1, 2] },
        { clobPairId: 1, clientIds: [3] },
      ],
      goodTilBlock: 10,
    });
    expect(msg.value.shortTermCancels).toHaveLength(2);
    expect(msg.value.goodTilBlock).toBe(10);
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    expect(
      batchCancelMsg({ subaccount: sub, cancels: [{ clobPairId: 0, clientIds: hundred }], goodTilBlock: 10 })
        .value.shortTermCancels[0]?.clientIds,
    ).toHaveLength(100);
    expect(
      isInvalidOrderError(
        thrown(() =>
          batchCancelMsg({
            subaccount: sub,
            cancels: [{ clobPairId: 0, clientIds: [...hundred, 100] }],
            goodTilBlock: 10,
          }),
        ),
      ),
    ).toBe(true);
    expect(
      isInvalidOrderError(thrown(() => batchCancelMsg({ subaccount: sub, cancels: [], goodTilBlock: 10 }))),
    ).toBe(true);
  });

  it("tells short-term and fee-free clob messages apart", () => {
    const short = placeOrderMsg({ ...base, kind: "short-term", goodTilBlock: 5 });
    const long = placeOrderMsg({ ...base, kind: "long-term", goodTilBlockTime: 5 });
    const batch = batchCancelMsg({
      subaccount: sub,
      cancels: [{ clobPairId: 0, clientIds: [1] }],
      goodTilBlock: 10,
    });
    const send = bankSendMsg({
      from: owner.address,
      to: owner.address,
      amount: [{ denom: "uusdc", amount: 1n }],
    });
    expect([short, long, batch, send].map(isShortTermClobMessage)).toEqual([true, false, true, false]);
    expect([short, long, batch, send].map(isFeeFreeClobMessage)).toEqual([true, true, true, false]);
    expect(
      isShortTermClobMessage(
        cancelOrderMsg({ subaccount: sub, clientId: 1, clobPairId: 0, kind: "short-term", goodTilBlock: 9 }),
      ),
    ).toBe(true);
  });
});

describe("transfers", () => {
  const other = LocalWallet.fromPrivateKey("08".repeat(32));

  it("deposit, withdraw (recipient is field 1), transfer", () => {
    expect(
      depositToSubaccountMsg({ sender: owner.address, recipient: sub, quantums: 5n }).value,
    ).toMatchObject({ sender: owner.address, recipient: sub, assetId: 0, quantums: 5n });
    const withdraw = withdrawFromSubaccountMsg({ sender: sub, recipient: other.address, quantums: "7" });
    expect(withdraw.typeUrl).toBe("/perpx.sending.v1.MsgWithdrawFromSubaccount");
    expect(withdraw.value).toMatchObject({ recipient: other.address, sender: sub, quantums: 7n });
    const transfer = transferMsg({
      sender: sub,
      recipient: { owner: other.address, number: 1 },
      quantums: 9n,
    });
    expect(transfer.value.transfer).toMatchObject({
      sender: sub,
      recipient: { owner: other.address, number: 1 },
      assetId: 0,
      amount: 9n,
    });
    expect(
      isInvalidArgumentError(thrown(() => transferMsg({ sender: sub, recipient: sub, quantums: 0n }))),
    ).toBe(true);
  });

  it("bank send sorts coins and refuses duplicates", () => {
    const msg = bankSendMsg({
      from: owner.address,
      to: other.address,
      amount: [
        { denom: "uusdc", amount: 1n },
        { denom: "aperpx", amount: "2" },
      ],
    });
    expect(msg.value.amount.map((c) => c.denom)).toEqual(["aperpx", "uusdc"]);
    expect(
      isInvalidArgumentError(
        thrown(() =>
          bankSendMsg({
            from: owner.address,
            to: other.address,
            amount: [
              { denom: "a", amount: 1n },
              { denom: "a", amount: 1n },
            ],
          }),
        ),
      ),
    ).toBe(true);
    expect(
      isInvalidArgumentError(
        thrown(() => bankSendMsg({ from: owner.address, to: other.address, amount: [] })),
      ),
    ).toBe(true);
  });

  it("wrap MsgWithdraw and MsgRedeem need the voucher denom", () => {
    const voucher = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
    const withdraw = wrapWithdrawMsg({
      sender: owner.address,
      amount: 5n,
      receiver: "noble1xyz",
      timeoutSeconds: 600,
      voucherDenom: voucher,
    });
    expect(withdraw.value).toMatchObject({
      amount: "5",
      receiver: "noble1xyz",
      timeoutSeconds: 600n,
      voucherDenom: voucher,
      localDenom: "uusdc",
    });
    const redeem = wrapRedeemMsg({ sender: owner.address, amount: 5n, voucherDenom: voucher });
    expect(redeem.typeUrl).toBe("/perpx.wrap.v1.MsgRedeem");
    expect(
      isInvalidArgumentError(
        thrown(() => wrapRedeemMsg({ sender: owner.address, amount: 5n, voucherDenom: "" })),
      ),
    ).toBe(true);
    expect(
      isInvalidArgumentError(
        thrown(() =>
          wrapWithdrawMsg({
            sender: owner.address,
            amount: 5n,
            receiver: "x",
            timeoutSeconds: 0,
            voucherDenom: voucher,
          }),
        ),
      ),
    ).toBe(true);
  });

  it("ICS-20 transfer needs a timeout", () => {
    const msg = ibcTransferMsg({
      sender: owner.address,
      receiver: "noble1xyz",
      sourceChannel: "channel-0",
      token: { denom: "uusdc", amount: 1n },
      timeoutTimestampNs: 1_800_000_000_000_000_000n,
    });
    expect(msg.value).toMatchObject({
      sourcePort: "transfer",
      sourceChannel: "channel-0",
      timeoutTimestamp: 1_800_000_000_000_000_000n,
      timeoutHeight: { revisionHeight: 0n },
    });
    const byHeight = ibcTransferMsg({
      sender: owner.address,
      receiver: "r",
      sourceChannel: "channel-1",
      token: { denom: "uusdc", amount: 1n },
      timeoutHeight: { revisionNumber: 1n, revisionHeight: 100n },
      memo: "hi",
    });
    expect(byHeight.value.memo).toBe("hi");
    expect(
      isInvalidArgumentError(
        thrown(() =>
          ibcTransferMsg({
            sender: owner.address,
            receiver: "r",
            sourceChannel: "channel-1",
            token: { denom: "uusdc", amount: 1n },
          }),
        ),
      ),
    ).toBe(true);
    expect(
      isInvalidArgumentError(
        thrown(() =>
          ibcTransferMsg({
            sender: owner.address,
            receiver: "r",
            sourceChannel: "chan",
            token: { denom: "uusdc", amount: 1n },
            timeoutTimestampNs: 1n,
          }),
        ),
      ),
    ).toBe(true);
  });
});

describe("authenticators", () => {
  it("encodes the trading-key scope of the specification", () => {
    const key = LocalWallet.fromPrivateKey("09".repeat(32));
    const config = JSON.parse(
      new TextDecoder().decode(encodeAuthenticatorConfig(tradingKeyAuthenticator(key.publicKey))),
    );
    expect(config.map((c: { type: string }) => c.type)).toEqual([
      "SignatureVerification",
      "AnyOf",
      "SubaccountFilter",
    ]);
    expect(fromBase64(config[0].config)).toEqual(key.publicKey);
    const anyOf = JSON.parse(new TextDecoder().decode(fromBase64(config[1].config)));
    expect(anyOf.map((c: { config: string }) => new TextDecoder().decode(fromBase64(c.config)))).toEqual([
      "/perpx.clob.v1.MsgPlaceOrder",
      "/perpx.clob.v1.MsgCancelOrder",
      "/perpx.clob.v1.MsgBatchCancel",
    ]);
    expect(new TextDecoder().decode(fromBase64(config[2].config))).toBe("0");
    const msg = addAuthenticatorMsg({
      sender: owner.address,
      authenticator: tradingKeyAuthenticator(key.publicKey),
    });
    expect(msg.value.authenticatorType).toBe("AllOf");
    expect(removeAuthenticatorMsg({ sender: owner.address, id: 3n }).value.id).toBe(3n);
  });

  it("refuses malformed trees and configs over 1024 bytes", () => {
    expect(
      isInvalidArgumentError(
        thrown(() =>
          encodeAuthenticatorConfig({ type: "AllOf", children: [{ type: "SubaccountFilter", config: "0" }] }),
        ),
      ),
    ).toBe(true);
    expect(
      isInvalidArgumentError(
        thrown(() =>
          encodeAuthenticatorConfig({ type: "SignatureVerification", publicKey: new Uint8Array(32) }),
        ),
      ),
    ).toBe(true);
    const long = {
      type: "MessageFilter" as const,
      typeUrls: Array.from({ length: 60 }, () => "/perpx.clob.v1.MsgPlaceOrder"),
    };
    expect(
      isInvalidArgumentError(
        thrown(() => addAuthenticatorMsg({ sender: owner.address, authenticator: long })),
      ),
    ).toBe(true);
    expect(
      new TextDecoder().decode(encodeAuthenticatorConfig({ type: "ClobPairIdFilter", config: "0,1" })),
    ).toBe("0,1");
  });
});
