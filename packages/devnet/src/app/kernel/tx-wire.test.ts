import { create, type DescMessage, toBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agrees, mutated } from "../../../test/support/wire-agreement.js";
import { readAuthInfo, readTxBody, readTxRaw } from "./tx-wire.js";

// Mostly ASCII (the text the direct decoder takes), sometimes any text (left to protobuf-es).
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }), weight: 1 },
);
const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }));
const bytes = fc.uint8Array({ maxLength: 40 });
const any = fc.record({ typeUrl: text, value: bytes });
const coin = fc.record({ denom: text, amount: text });
const modeInfo = fc.oneof(
  fc.record({
    sum: fc.record({
      case: fc.constant("single" as const),
      value: fc.record({
        mode: fc.oneof(
          { arbitrary: fc.nat(200), weight: 6 },
          { arbitrary: fc.integer({ min: -2, max: 2 ** 31 - 1 }), weight: 1 },
        ),
      }),
    }),
  }),
  fc.record({
    sum: fc.record({ case: fc.constant("multi" as const), value: fc.record({ modeInfos: fc.constant([]) }) }),
  }),
  fc.constant({}),
);
const signerInfo = fc.record({ publicKey: any, modeInfo, sequence: u64 }, { requiredKeys: ["sequence"] });
const fee = fc.record({
  amount: fc.array(coin, { maxLength: 2 }),
  gasLimit: u64,
  payer: text,
  granter: text,
});
const authInfo = fc.record(
  {
    signerInfos: fc.array(signerInfo, { maxLength: 2 }),
    fee,
    tip: fc.record({ amount: fc.array(coin, { maxLength: 2 }), tipper: text }),
  },
  { requiredKeys: ["signerInfos"] },
);
const body = fc.record({
  messages: fc.array(any, { maxLength: 3 }),
  memo: text,
  timeoutHeight: u64,
  extensionOptions: fc.oneof(fc.constant([]), fc.array(any, { maxLength: 1 })),
  nonCriticalExtensionOptions: fc.oneof(fc.constant([]), fc.array(any, { maxLength: 1 })),
});
const raw = fc.record({
  bodyBytes: bytes,
  authInfoBytes: bytes,
  signatures: fc.array(bytes, { maxLength: 3 }),
});

describe("direct decoding of the tx envelope", () => {
  const cases = [
    ["TxRaw", cosmosTx.TxRawSchema, readTxRaw, raw],
    ["TxBody", cosmosTx.TxBodySchema, readTxBody, body],
    ["AuthInfo", cosmosTx.AuthInfoSchema, readAuthInfo, authInfo],
  ] as const;

  for (const [name, schema, read, init] of cases) {
    it(`property: ${name} as protobuf-es decodes it, or left to protobuf-es`, () => {
      let taken = 0;
      fc.assert(
        fc.property(init, (value) => {
          const encoded = toBinary(schema as DescMessage, create(schema as DescMessage, value as never));
          if (agrees(schema as DescMessage, read as never, encoded)) taken++;
        }),
        { numRuns: 400 },
      );
      // The usual shapes are taken (the generators make some that are left).
      expect(taken).toBeGreaterThan(40);
    });

    it(`property: ${name} from damaged or random bytes: left, or exactly protobuf-es's`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            init.chain((value) =>
              mutated(toBinary(schema as DescMessage, create(schema as DescMessage, value as never))),
            ),
            fc.uint8Array({ maxLength: 60 }),
          ),
          (bytes) => {
            agrees(schema as DescMessage, read as never, bytes);
          },
        ),
        { numRuns: 600 },
      );
    });
  }

  it("takes a client's signed single-message tx", () => {
    const bodyBytes = toBinary(
      cosmosTx.TxBodySchema,
      create(cosmosTx.TxBodySchema, {
        messages: [{ typeUrl: "/perpx.clob.v1.MsgPlaceOrder", value: new Uint8Array([1, 2, 3]) }],
      }),
    );
    const authInfoBytes = toBinary(
      cosmosTx.AuthInfoSchema,
      create(cosmosTx.AuthInfoSchema, {
        signerInfos: [
          {
            publicKey: { typeUrl: "/cosmos.crypto.secp256k1.PubKey", value: new Uint8Array(35) },
            modeInfo: { sum: { case: "single", value: { mode: 1 } } },
            sequence: 7n,
          },
        ],
        fee: { amount: [{ denom: "uusdc", amount: "0" }], gasLimit: 1_000_000n },
      }),
    );
    const txBytes = toBinary(
      cosmosTx.TxRawSchema,
      create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [new Uint8Array(64)] }),
    );
    expect(agrees(cosmosTx.TxRawSchema, readTxRaw, txBytes)).toBe(true);
    expect(agrees(cosmosTx.TxBodySchema, readTxBody, bodyBytes)).toBe(true);
    expect(agrees(cosmosTx.AuthInfoSchema, readAuthInfo, authInfoBytes)).toBe(true);
  });
});
