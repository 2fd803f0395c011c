import { create } from "@bufbuild/protobuf";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toBase64, utf8 } from "../../lib/codec.js";
import { isAbciError } from "../../lib/errors.js";
import {
  type Authenticator,
  authenticate,
  BATCH_CANCEL_URL,
  CANCEL_ORDER_URL,
  checkNewAuthenticator,
  encodeAuthenticator,
  PLACE_ORDER_URL,
  parseAuthenticator,
  requiresSignature,
  tradingKeyAuthenticator,
} from "./authenticators.js";

const secret = new Uint8Array(32).fill(3);
const publicKey = secp256k1.getPublicKey(secret, true);

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return "ok";
  } catch (error) {
    if (isAbciError(error)) return `${error.codespace}/${error.abciCode}`;
    throw error;
  }
}

const leaf: fc.Arbitrary<Authenticator> = fc.oneof(
  fc.constant<Authenticator>({ type: "SignatureVerification", publicKey }),
  fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((address): Authenticator => ({ type: "EthAddressSignatureVerification", address })),
  fc
    .array(fc.stringMatching(/^\/[A-Za-z0-9_.]{1,30}$/), { minLength: 1, maxLength: 4 })
    .map((typeUrls): Authenticator => ({ type: "MessageFilter", typeUrls })),
  fc
    .array(fc.nat({ max: 0xffff_ffff }), { minLength: 1, maxLength: 4 })
    .map((numbers): Authenticator => ({ type: "SubaccountFilter", numbers })),
  fc
    .array(fc.nat({ max: 0xffff_ffff }), { minLength: 1, maxLength: 4 })
    .map((ids): Authenticator => ({ type: "ClobPairIdFilter", ids })),
);

const tree: fc.Arbitrary<Authenticator> = fc
  .letrec<{ node: Authenticator }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constantFrom<"AllOf" | "AnyOf">("AllOf", "AnyOf"),
        children: fc.array(tie("node"), { minLength: 2, maxLength: 3 }),
      }),
    ),
  }))
  .node.filter((node) => depth(node) <= 5);

function depth(node: Authenticator): number {
  return node.type === "AllOf" || node.type === "AnyOf" ? 1 + Math.max(...node.children.map(depth)) : 0;
}

describe("authenticator config encodings", () => {
  it("round-trips every tree: parse(encode(x)) = x and encode(parse(bytes)) = bytes (property)", () => {
    fc.assert(
      fc.property(tree, (node) => {
        const { type, config } = encodeAuthenticator(node);
        const parsed = parseAuthenticator(type, config);
        expect(parsed).toEqual(node);
        expect(encodeAuthenticator(parsed).config).toEqual(config);
      }),
      { numRuns: 300 },
    );
  });

  it("uses the documented encodings", () => {
    expect(
      new TextDecoder().decode(encodeAuthenticator({ type: "SubaccountFilter", numbers: [0, 1] }).config),
    ).toBe("0,1");
    const trading = encodeAuthenticator(tradingKeyAuthenticator(publicKey));
    const json = JSON.parse(new TextDecoder().decode(trading.config)) as Array<{
      type: string;
      config: string;
    }>;
    expect(json.map((e) => e.type)).toEqual(["SignatureVerification", "AnyOf", "SubaccountFilter"]);
    expect(json[0]?.config).toBe(toBase64(publicKey));
    expect(json[2]?.config).toBe(toBase64(utf8("0")));
    expect(parseAuthenticator("MessageFilter", utf8(`${PLACE_ORDER_URL},${CANCEL_ORDER_URL}`))).toEqual({
      type: "MessageFilter",
      typeUrls: [PLACE_ORDER_URL, CANCEL_ORDER_URL],
    });
  });

  it("rejects malformed configs as the real chain's plain errors (undefined 1)", () => {
    const bad: Array<[string, Uint8Array]> = [
      ["Nope", utf8("0")],
      ["signatureverification", publicKey],
      ["SignatureVerification", publicKey.subarray(1)],
      ["SignatureVerification", secp256k1.getPublicKey(secret, false)],
      ["EthAddressSignatureVerification", utf8("0x0000000000000000000000000000000000000000")],
      ["MessageFilter", utf8("")],
      ["MessageFilter", utf8('["/perpx.clob.v1.MsgPlaceOrder"]')],
      ["MessageFilter", utf8("/a, /b")],
      ["SubaccountFilter", utf8("")],
      ["SubaccountFilter", utf8("01")],
      ["SubaccountFilter", utf8("-1")],
      ["SubaccountFilter", utf8("4294967296")],
      ["ClobPairIdFilter", utf8("0,,1")],
      ["ClobPairIdFilter", new Uint8Array([0xff])],
      ["AllOf", utf8("[]")],
      ["AllOf", utf8(JSON.stringify([{ type: "SignatureVerification", config: toBase64(publicKey) }]))],
      ["AnyOf", utf8("{}")],
      ["AnyOf", utf8("not json")],
      [
        "AllOf",
        utf8(
          JSON.stringify([
            { type: "SubaccountFilter", config: "!!" },
            { type: "SubaccountFilter", config: "MA==" },
          ]),
        ),
      ],
      [
        "AllOf",
        utf8(
          JSON.stringify([
            { type: "SubaccountFilter", config: "MA==", extra: 1 },
            { type: "SubaccountFilter", config: "MA==" },
          ]),
        ),
      ],
    ];
    for (const [type, config] of bad)
      expect(
        codeOf(() => parseAuthenticator(type, config)),
        type,
      ).toBe("undefined/1");
    let deep: Authenticator = { type: "SignatureVerification", publicKey };
    for (let i = 0; i < 6; i++) deep = { type: "AllOf", children: [deep, deep] };
    const encoded = encodeAuthenticator(deep);
    expect(codeOf(() => parseAuthenticator(encoded.type, encoded.config))).toBe("undefined/1");
  });

  it("never throws anything but an ABCI error on arbitrary bytes (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "SignatureVerification",
          "MessageFilter",
          "SubaccountFilter",
          "ClobPairIdFilter",
          "AllOf",
          "AnyOf",
          "EthAddressSignatureVerification",
        ),
        fc.uint8Array({ maxLength: 64 }),
        (type, config) => {
          const code = codeOf(() => parseAuthenticator(type, config));
          expect(["ok", "undefined/1"]).toContain(code);
        },
      ),
    );
  });
});

describe("the safety rule", () => {
  it("requires signature verification on every path", () => {
    const sig: Authenticator = { type: "SignatureVerification", publicKey };
    const filter: Authenticator = { type: "SubaccountFilter", numbers: [0] };
    expect(requiresSignature(sig)).toBe(true);
    expect(requiresSignature(filter)).toBe(false);
    expect(requiresSignature({ type: "AllOf", children: [filter, sig] })).toBe(true);
    expect(requiresSignature({ type: "AllOf", children: [filter, filter] })).toBe(false);
    expect(requiresSignature({ type: "AnyOf", children: [sig, filter] })).toBe(false);
    expect(
      requiresSignature({ type: "AnyOf", children: [sig, { type: "AllOf", children: [filter, sig] }] }),
    ).toBe(true);
    const unsafe = encodeAuthenticator({ type: "AnyOf", children: [sig, filter] });
    expect(codeOf(() => checkNewAuthenticator(unsafe.type, unsafe.config))).toBe("undefined/1");
    expect(codeOf(() => checkNewAuthenticator("MessageFilter", utf8(PLACE_ORDER_URL)))).toBe("undefined/1");
    expect(codeOf(() => checkNewAuthenticator("SignatureVerification", new Uint8Array(1025)))).toBe(
      "dydxaccountplus/3",
    );
    const trading = encodeAuthenticator(tradingKeyAuthenticator(publicKey));
    expect(codeOf(() => checkNewAuthenticator(trading.type, trading.config))).toBe("ok");
  });

  it("a random tree is accepted on add exactly when it requires a signature (property)", () => {
    fc.assert(
      fc.property(tree, (node) => {
        const { type, config } = encodeAuthenticator(node);
        fc.pre(config.length <= 1024);
        expect(codeOf(() => checkNewAuthenticator(type, config))).toBe(
          requiresSignature(node) ? "ok" : "undefined/1",
        );
      }),
    );
  });
});

describe("authenticate", () => {
  const signBytes = utf8("sign doc bytes");
  const signature = secp256k1.sign(signBytes, secret); // sha256 prehash, low-S, compact
  const order = (subaccount: number, clobPairId = 0) =>
    create(clob.MsgPlaceOrderSchema, {
      order: { orderId: { subaccountId: { owner: "perpx1x", number: subaccount }, clobPairId } },
    });
  const request = (typeUrl: string, msg: unknown, sig = signature) => ({
    typeUrl,
    msg,
    signBytes,
    signature: sig,
    simulate: false,
  });
  const trading = tradingKeyAuthenticator(publicKey);

  it("lets the trading key place, cancel and batch-cancel on subaccount 0 only", () => {
    expect(codeOf(() => authenticate(trading, request(PLACE_ORDER_URL, order(0))))).toBe("ok");
    const cancel = create(clob.MsgCancelOrderSchema, { orderId: { subaccountId: { number: 0 } } });
    expect(codeOf(() => authenticate(trading, request(CANCEL_ORDER_URL, cancel)))).toBe("ok");
    const batch = create(clob.MsgBatchCancelSchema, {
      subaccountId: { number: 0 },
      shortTermCancels: [{ clobPairId: 1 }],
    });
    expect(codeOf(() => authenticate(trading, request(BATCH_CANCEL_URL, batch)))).toBe("ok");
    expect(codeOf(() => authenticate(trading, request(PLACE_ORDER_URL, order(1))))).toBe(
      "dydxaccountplus/104",
    );
    expect(codeOf(() => authenticate(trading, request("/cosmos.bank.v1beta1.MsgSend", {})))).toBe(
      "dydxaccountplus/104",
    );
    const wrongSig = secp256k1.sign(utf8("other"), secret);
    expect(codeOf(() => authenticate(trading, request(PLACE_ORDER_URL, order(0), wrongSig)))).toBe(
      "dydxaccountplus/104",
    );
    expect(
      codeOf(() =>
        authenticate(trading, { ...request(PLACE_ORDER_URL, order(0), new Uint8Array(0)), simulate: true }),
      ),
    ).toBe("ok");
    try {
      authenticate(trading, request(PLACE_ORDER_URL, order(1)));
    } catch (error) {
      expect(String((error as Error).message)).toMatch(
        /subaccount number 1 not in allowed list 0: subaccount verification failed/,
      );
    }
  });

  it("reports the leaf codes 100-103 and 105", () => {
    expect(
      codeOf(() =>
        authenticate(
          { type: "SignatureVerification", publicKey },
          request(PLACE_ORDER_URL, order(0), new Uint8Array(64)),
        ),
      ),
    ).toBe("dydxaccountplus/100");
    expect(
      codeOf(() =>
        authenticate(
          { type: "MessageFilter", typeUrls: [CANCEL_ORDER_URL] },
          request(PLACE_ORDER_URL, order(0)),
        ),
      ),
    ).toBe("dydxaccountplus/101");
    expect(
      codeOf(() =>
        authenticate({ type: "ClobPairIdFilter", ids: [0] }, request(PLACE_ORDER_URL, order(0, 7))),
      ),
    ).toBe("dydxaccountplus/102");
    expect(
      codeOf(() =>
        authenticate({ type: "ClobPairIdFilter", ids: [0] }, request("/cosmos.bank.v1beta1.MsgSend", {})),
      ),
    ).toBe("ok");
    expect(
      codeOf(() =>
        authenticate({ type: "SubaccountFilter", numbers: [0, 2] }, request(PLACE_ORDER_URL, order(2))),
      ),
    ).toBe("ok");
    expect(
      codeOf(() =>
        authenticate({ type: "SubaccountFilter", numbers: [0] }, request(PLACE_ORDER_URL, order(3))),
      ),
    ).toBe("dydxaccountplus/103");
    const anyOf: Authenticator = {
      type: "AnyOf",
      children: [
        { type: "MessageFilter", typeUrls: ["/a"] },
        { type: "MessageFilter", typeUrls: ["/b"] },
      ],
    };
    expect(codeOf(() => authenticate(anyOf, request("/c", {})))).toBe("dydxaccountplus/105");
    expect(codeOf(() => authenticate(anyOf, request("/b", {})))).toBe("ok");
  });

  it("EthAddressSignatureVerification checks a Keccak-256 signature against the EVM address", () => {
    const evm = secp256k1.getPublicKey(secret, false);
    const address = keccak_256(evm.subarray(1)).subarray(12);
    const recovered = secp256k1.sign(keccak_256(signBytes), secret, { prehash: false, format: "recovered" });
    const rsv = new Uint8Array(65);
    rsv.set(recovered.subarray(1));
    rsv[64] = (recovered[0] as number) + 27;
    const eth: Authenticator = { type: "EthAddressSignatureVerification", address };
    expect(codeOf(() => authenticate(eth, request("/any", {}, rsv)))).toBe("ok");
    expect(codeOf(() => authenticate(eth, request("/any", {}, rsv.subarray(0, 64))))).toBe("ok");
    expect(codeOf(() => authenticate(eth, request("/any", {}, signature)))).toBe("dydxaccountplus/100");
    expect(
      codeOf(() =>
        authenticate(
          { type: "EthAddressSignatureVerification", address: new Uint8Array(20) },
          request("/any", {}, rsv),
        ),
      ),
    ).toBe("dydxaccountplus/100");
  });
});
