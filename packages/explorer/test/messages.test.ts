/**
 * Messages for people: protobuf `Any`s decoded to the chain's JSON and summarized in human units
 * (sizes and prices from the market's quantums and subticks, USDC from quote quantums); the signer
 * of a tx from its events; authenticator configs; the registered name of a failed tx's error.
 */
import type { PerpetualMarketResponseObject } from "@perpx/core/indexer";
import { bankSendMsg, depositToSubaccountMsg, placeOrderMsg, transferMsg } from "@perpx/node-client";
import { packAny, schemaOf } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { decodeMessages, signerOf } from "../src/app/messages.js";
import { authenticatorConfig } from "../src/app/pages/account.js";
import { errorName } from "../src/app/pages/tx.js";

const owner = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";
const BTC = {
  ticker: "BTC-USD",
  clobPairId: "0",
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000,
  subticksPerTick: 100_000,
} as PerpetualMarketResponseObject;

const any = (msg: { typeUrl: string; value: unknown }) => packAny(schemaOf(msg.typeUrl), msg.value as never);

describe("decodeMessages", () => {
  it("summarizes orders, deposits, transfers and sends in human units", () => {
    const order = placeOrderMsg({
      subaccount: { owner, number: 0 },
      clientId: 42,
      clobPairId: 0,
      side: "BUY",
      quantums: 10_000_000n,
      subticks: 6_500_000_000n,
      kind: "long-term",
      goodTilBlockTime: 2_000_000_000,
    });
    const decoded = decodeMessages(
      [
        any(order),
        any(depositToSubaccountMsg({ sender: owner, recipient: { owner, number: 1 }, quantums: 1_500_000n })),
        any(
          transferMsg({
            sender: { owner, number: 1 },
            recipient: { owner, number: 2 },
            quantums: 250_000_000n,
          }),
        ),
        any(bankSendMsg({ from: owner, to: owner, amount: [{ denom: "uusdc", amount: 2_000_000n }] })),
      ],
      { "BTC-USD": BTC },
    );
    expect(decoded.map((d) => d.summary)).toEqual([
      `place BUY 0.001 BTC-USD at 65000 USD for ${owner}/0, client id 42`,
      `deposit 1.5 USDC from ${owner} to ${owner}/1`,
      `transfer 250 USDC from ${owner}/1 to ${owner}/2`,
      `send 2 USDC from ${owner} to ${owner}`,
    ]);
    expect(decoded[0]!.typeUrl).toBe("/perpx.clob.v1.MsgPlaceOrder");
    expect(decoded[0]!.json).toMatchObject({ order: { quantums: "10000000", subticks: "6500000000" } });
  });

  it("keeps quantums when the market is unknown, and reports an undecodable message", () => {
    const order = placeOrderMsg({
      subaccount: { owner, number: 0 },
      clientId: 1,
      clobPairId: 9,
      side: "SELL",
      quantums: 5n,
      subticks: 7n,
      kind: "long-term",
      goodTilBlockTime: 2_000_000_000,
    });
    const [known, broken, unknown] = decodeMessages(
      [
        any(order),
        { ...any(order), value: Uint8Array.of(0xff, 0xff) },
        { $typeName: "google.protobuf.Any", typeUrl: "/nope.v1.Msg", value: new Uint8Array() },
      ],
      { "BTC-USD": BTC },
    );
    expect(known!.summary).toBe("place SELL 5 quantums at 7 subticks");
    expect(typeof broken!.json).toBe("string");
    expect(broken!.summary).toBeUndefined();
    expect(unknown!.summary).toBeUndefined();
  });
});

describe("signerOf and errorName", () => {
  it("reads the signer from acc_seq, else the message sender", () => {
    expect(signerOf([{ type: "tx", attributes: [{ key: "acc_seq", value: `${owner}/7` }] }])).toBe(owner);
    expect(signerOf([{ type: "message", attributes: [{ key: "sender", value: owner }] }])).toBe(owner);
    expect(signerOf([])).toBeUndefined();
  });

  it("names a failed tx's error by codespace and code, or from its log", () => {
    expect(errorName("sdk", 5, "")).toBe("insufficient funds");
    expect(errorName("", 0, "")).toBeUndefined();
    expect(errorName("nope", 99, "spendable balance 0uusdc is smaller than 1uusdc: insufficient funds")).toBe(
      "insufficient funds",
    );
  });
});

describe("authenticatorConfig", () => {
  it("decodes a composite's sub-authenticators and shows a key as hex", () => {
    const key = Uint8Array.of(2, 0xab, 0xcd);
    const parts = [
      { type: "SignatureVerification", config: btoa(String.fromCharCode(...key)) },
      { type: "MessageFilter", config: btoa("/perpx.clob.v1.MsgPlaceOrder") },
    ];
    expect(authenticatorConfig("AllOf", new TextEncoder().encode(JSON.stringify(parts)))).toBe(
      "SignatureVerification(02abcd) and MessageFilter(/perpx.clob.v1.MsgPlaceOrder)",
    );
    expect(authenticatorConfig("SignatureVerification", key)).toBe("02abcd");
    expect(authenticatorConfig("MessageFilter", new TextEncoder().encode("/a,/b"))).toBe("/a,/b");
    expect(authenticatorConfig("AnyOf", new TextEncoder().encode("not json"))).toBe("not json");
  });
});
