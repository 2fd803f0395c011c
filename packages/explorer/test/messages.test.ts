/**
 * Messages for people: protobuf `Any`s decoded to the chain's JSON and summarized in human units
 * (sizes and prices from the market's quantums and subticks, USDC from quote quantums); the signer
 * of a tx from its events; authenticator configs; the registered name of a failed tx's error.
 */
import type { PerpetualMarketResponseObject } from "@perpx/core/indexer";
import { bankSendMsg, depositToSubaccountMsg, placeOrderMsg, transferMsg } from "@perpx/node-client/tx";
import { fromCosmosJson, packAny, schemaOf } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { encodeTxBody, encodeTxRaw } from "../../node-client/src/tx/encode.js";
import { decodeMessages, signerOf } from "../src/app/messages.js";
import { authenticatorConfig, newestFirst } from "../src/app/pages/account.js";
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
    expect(decoded[0]!.orders).toEqual([
      {
        action: "place",
        market: "BTC-USD",
        side: "BUY",
        size: "0.001 BTC",
        price: "65000 USD",
        owner,
        subaccountNumber: "0",
        clientId: "42",
        detail: "good til 2033-05-18 03:33:20 UTC",
      },
    ]);
    expect(decoded.slice(1).map((d) => d.orders)).toEqual([[], [], []]);
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

describe("decodeMessages of the proposer's operations", () => {
  const taker = "perpx1zfvj3mdqz7pa809hfzfy69cln9tf0fwfu4vsw3";
  const shortTerm = (who: string, clientId: number, side: "BUY" | "SELL") => {
    const order = placeOrderMsg({
      subaccount: { owner: who, number: 0 },
      clientId,
      clobPairId: 0,
      side,
      quantums: 20_000_000n,
      subticks: 6_500_000_000n,
      kind: "short-term",
      goodTilBlock: 120,
    });
    const raw = encodeTxRaw({
      bodyBytes: encodeTxBody({ messages: [order] }),
      authInfoBytes: new Uint8Array(),
      signatures: [],
    });
    return btoa(String.fromCharCode(...raw));
  };
  const id = (who: string, clientId: number) => ({
    subaccount_id: { owner: who, number: 0 },
    client_id: clientId,
    order_flags: 0,
    clob_pair_id: 0,
  });
  const schema = schemaOf("/perpx.clob.v1.MsgProposedOperations");
  const operations = fromCosmosJson(schema, {
    operations_queue: [
      { short_term_order_placement: shortTerm(owner, 5, "SELL") },
      { short_term_order_placement: shortTerm(taker, 6, "BUY") },
      {
        match: {
          match_orders: {
            taker_order_id: id(taker, 6),
            fills: [{ fill_amount: "10000000", maker_order_id: id(owner, 5) }],
          },
        },
      },
      { order_removal: { order_id: id(owner, 5), removal_reason: "REMOVAL_REASON_INVALID_SELF_TRADE" } },
    ],
  });
  const [decoded] = decodeMessages([packAny(schema, operations)], { "BTC-USD": BTC });

  it("decodes each short-term placement from its signed tx bytes: no base64 left in the JSON", () => {
    expect(JSON.stringify(decoded!.json)).not.toContain(shortTerm(owner, 5, "SELL"));
    expect(decoded!.json).toMatchObject({
      operations_queue: [
        {
          short_term_order_placement: [
            { typeUrl: "/perpx.clob.v1.MsgPlaceOrder", json: { order: { side: "SIDE_SELL" } } },
          ],
        },
        { short_term_order_placement: [{ json: { order: { side: "SIDE_BUY" } } }] },
        {},
        {},
      ],
    });
  });

  it("lists placements, fills (at the maker's price) and removals in human units", () => {
    expect(
      decoded!.orders.map((o) => [
        o.action,
        o.market,
        o.side,
        o.size,
        o.price,
        o.owner,
        o.clientId,
        o.detail,
      ]),
    ).toEqual([
      ["place", "BTC-USD", "SELL", "0.002 BTC", "65000 USD", owner, "5", "good til block 120"],
      ["place", "BTC-USD", "BUY", "0.002 BTC", "65000 USD", taker, "6", "good til block 120"],
      ["fill", "BTC-USD", "BUY", "0.001 BTC", "65000 USD", taker, "6", `maker ${owner}/0, client id 5`],
      ["remove", "BTC-USD", "", "", "", owner, "5", "invalid self trade"],
    ]);
    expect(decoded!.summary).toBe(
      "proposed operations: 1 fills in 1 matches, 1 removals, 2 short-term placements",
    );
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

describe("newestFirst", () => {
  it("merges the histories of several subaccounts newest first, by height then time", () => {
    const row = (id: string, createdAtHeight: string, createdAt: string) => ({
      id,
      createdAtHeight,
      createdAt,
    });
    const sub0 = [row("a", "44", "2026-11-28T05:29:09Z"), row("b", "9", "2026-11-28T05:28:00Z")];
    const sub1 = [row("c", "72", "2026-11-28T05:29:22Z"), row("d", "44", "2026-11-28T05:29:09.500Z")];
    expect(newestFirst([...sub0, ...sub1]).map((r) => r.id)).toEqual(["c", "d", "a", "b"]);
    // heights past 2^53 compare exactly
    expect(
      newestFirst([row("x", "9007199254740993", ""), row("y", "9007199254740994", "")]).map((r) => r.id),
    ).toEqual(["y", "x"]);
  });
});
