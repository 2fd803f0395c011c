import { create, type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import {
  decodeTxRaw,
  encodePubkey,
  type GeneratedType,
  makeAuthInfoBytes,
  makeSignBytes,
  makeSignDoc,
  Registry,
} from "@cosmjs/proto-signing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { messageOf } from "../test/arbitrary.js";
import {
  cosmjsRegistryEntries,
  cosmosBank,
  cosmosSecp256k1,
  cosmosTx,
  cosmosTxSigning,
  ibcTransfer,
  isProtoDecodeError,
  msgTypeUrls,
  packAny,
  schemaOf,
  toCosmjsGeneratedType,
} from "./index.js";

// Type-level: the adapter is a cosmjs GeneratedType, and the entries fit the Registry constructor.
const sendType: GeneratedType = toCosmjsGeneratedType(cosmosBank.MsgSendSchema);
const entries: Iterable<[string, GeneratedType]> = cosmjsRegistryEntries();

const sendValue = {
  fromAddress: "perpx1sender",
  toAddress: "perpx1receiver",
  amount: [{ denom: "aperpx", amount: "1000000000000000000" }],
};

describe("toCosmjsGeneratedType", () => {
  test("appends to a given protobuf-es writer and refuses a writer that cannot append raw bytes", () => {
    const prefix = new BinaryWriter().tag(1, 2).string("x");
    const adapted = toCosmjsGeneratedType(cosmosBank.MsgSendSchema);
    const written = adapted.encode(sendValue, prefix).finish();
    const alone = toBinary(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema, sendValue));
    expect(written.subarray(written.length - alone.length)).toEqual(alone);
    expect(written.length).toBe(alone.length + 3);
    expect(() => adapted.encode(sendValue, { finish: () => new Uint8Array() })).toThrow(/Invalid writer/);
  });

  test("is accepted by a real cosmjs Registry and encodes like toBinary", () => {
    const registry = new Registry([["/cosmos.bank.v1beta1.MsgSend", sendType]]);
    const any = registry.encodeAsAny({ typeUrl: "/cosmos.bank.v1beta1.MsgSend", value: sendValue });
    expect(any.typeUrl).toBe("/cosmos.bank.v1beta1.MsgSend");
    expect(any.value).toEqual(
      toBinary(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema, sendValue)),
    );
    const decoded = registry.decode(any);
    expect(decoded).toEqual(create(cosmosBank.MsgSendSchema, sendValue));
  });

  test("encode writes into a given writer; decode reads `length` bytes from a reader", () => {
    const type = toCosmjsGeneratedType(cosmosBank.MsgSendSchema);
    const writer = new BinaryWriter().uint32(99); // a prefix that is not part of the message
    const bytes = type.encode(sendValue, writer).finish();
    const body = toBinary(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema, sendValue));
    expect(bytes).toEqual(Uint8Array.of(99, ...body));

    const reader = new BinaryReader(Uint8Array.of(...body, 0x08, 0x01));
    expect(type.decode(reader, body.length)).toEqual(create(cosmosBank.MsgSendSchema, sendValue));
    expect(reader.pos).toBe(body.length);
    expect(type.decode(Uint8Array.of(...body, 0xff, 0xff), body.length).toAddress).toBe("perpx1receiver");
    expect(type.decode(new BinaryReader(body)).fromAddress).toBe("perpx1sender");
  });

  test("decode of invalid bytes throws ProtoDecodeError", () => {
    const type = toCosmjsGeneratedType(cosmosBank.MsgSendSchema);
    let caught: unknown;
    try {
      type.decode(Uint8Array.of(0x0a, 0x09, 0x41));
    } catch (error) {
      caught = error;
    }
    expect(isProtoDecodeError(caught)).toBe(true);
    expect(() => type.decode(new BinaryReader(Uint8Array.of(0x0a, 0x09, 0x41)))).toThrow(/MsgSend/);
  });

  test("fromPartial fills defaults and keeps bigint 64-bit fields", () => {
    const type = toCosmjsGeneratedType(ibcTransfer.MsgTransferSchema);
    const msg = type.fromPartial({ sourceChannel: "channel-0", timeoutTimestamp: 1n });
    expect(msg.sourcePort).toBe("");
    expect(msg.timeoutTimestamp).toBe(1n);
    expect(type.typeUrl).toBe("/ibc.applications.transfer.v1.MsgTransfer");
  });
});

describe("cosmjsRegistryEntries", () => {
  test("default: every perpx Msg, sorted, each a working GeneratedType", () => {
    const list = cosmjsRegistryEntries();
    const perpx = msgTypeUrls.filter((url) => url.startsWith("/perpx."));
    expect(list.map(([url]) => url)).toEqual(perpx);
    for (const [url, type] of list) expect(type.typeUrl).toBe(url);
    expect(new Registry(entries)).toBeInstanceOf(Registry);
  });

  test('include: "all" adds the Cosmos and IBC Msgs', () => {
    const urls = cosmjsRegistryEntries({ include: "all" }).map(([url]) => url);
    expect(urls).toEqual(msgTypeUrls);
    expect(urls).toContain("/cosmos.bank.v1beta1.MsgSend");
    expect(urls).toContain("/ibc.applications.transfer.v1.MsgTransfer");
  });

  test("every Msg: EncodeObject -> Any -> message through a real Registry, byte-identical (random)", () => {
    const registry = new Registry(cosmjsRegistryEntries({ include: "all" }));
    for (const typeUrl of msgTypeUrls) {
      const schema = schemaOf(typeUrl);
      fc.assert(
        fc.property(messageOf(schema), (message) => {
          const any = registry.encodeAsAny({ typeUrl, value: message });
          expect(any.typeUrl).toBe(typeUrl);
          expect(any.value).toEqual(toBinary(schema, message));
          expect(registry.decode(any)).toEqual(message);
        }),
        { numRuns: 20 },
      );
    }
  });
});

describe("wire compatibility with cosmjs (cosmjs-types encoders)", () => {
  const pubkeyBytes = Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 2 : i));

  test("TxBody: Registry.encodeTxBody equals our TxBody toBinary, and decodes back (random)", () => {
    const registry = new Registry(cosmjsRegistryEntries({ include: "all" }));
    const msg = fc
      .constantFrom(...msgTypeUrls)
      .chain((typeUrl) => messageOf(schemaOf(typeUrl)).map((value) => ({ typeUrl, value })));
    fc.assert(
      fc.property(
        fc.array(msg, { maxLength: 3 }),
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (messages, memo, timeoutHeight) => {
          const cosmjsBytes = registry.encodeTxBody({ messages, memo, timeoutHeight });
          const ours = create(cosmosTx.TxBodySchema, {
            messages: messages.map(({ typeUrl, value }) => packAny(schemaOf(typeUrl) as DescMessage, value)),
            memo,
            timeoutHeight,
          });
          expect(cosmjsBytes).toEqual(toBinary(cosmosTx.TxBodySchema, ours));
          const decoded = registry.decodeTxBody(toBinary(cosmosTx.TxBodySchema, ours));
          expect(decoded.memo).toBe(memo);
          expect(decoded.messages).toEqual(messages.map((m) => m.value));
        },
      ),
      { numRuns: 100 },
    );
  });

  test("AuthInfo, SignDoc and TxRaw match makeAuthInfoBytes / makeSignBytes / decodeTxRaw", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.integer({ min: 0, max: 2 ** 53 - 1 }),
        fc.array(
          fc.record({
            denom: fc.stringMatching(/^[a-z][a-z0-9/]{2,20}$/),
            amount: fc.bigInt({ min: 0n }).map(String),
          }),
          {
            maxLength: 3,
          },
        ),
        fc.string({ maxLength: 20 }),
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (sequence, gasLimit, amount, chainId, accountNumber, signature) => {
          const pubkeyAny = encodePubkey({
            type: "tendermint/PubKeySecp256k1",
            value: Buffer.from(pubkeyBytes).toString("base64"),
          });
          const cosmjsAuthInfo = makeAuthInfoBytes(
            [{ pubkey: pubkeyAny, sequence }],
            amount,
            gasLimit,
            undefined,
            undefined,
          );
          const authInfo = create(cosmosTx.AuthInfoSchema, {
            signerInfos: [
              {
                publicKey: packAny(
                  cosmosSecp256k1.PubKeySchema,
                  create(cosmosSecp256k1.PubKeySchema, { key: pubkeyBytes }),
                ),
                modeInfo: { sum: { case: "single", value: { mode: cosmosTxSigning.SignMode.DIRECT } } },
                sequence,
              },
            ],
            fee: { amount, gasLimit: BigInt(gasLimit) },
          });
          const authInfoBytes = toBinary(cosmosTx.AuthInfoSchema, authInfo);
          expect(authInfoBytes).toEqual(cosmjsAuthInfo);

          const bodyBytes = toBinary(cosmosTx.TxBodySchema, create(cosmosTx.TxBodySchema, { memo: chainId }));
          const signDoc = create(cosmosTx.SignDocSchema, {
            bodyBytes,
            authInfoBytes,
            chainId,
            accountNumber,
          });
          expect(toBinary(cosmosTx.SignDocSchema, signDoc)).toEqual(
            makeSignBytes(makeSignDoc(bodyBytes, cosmjsAuthInfo, chainId, accountNumber)),
          );

          const raw = create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] });
          const decoded = decodeTxRaw(toBinary(cosmosTx.TxRawSchema, raw));
          expect(decoded.signatures).toEqual([signature]);
          expect(decoded.authInfo.signerInfos[0]?.sequence).toBe(sequence);
          expect(decoded.authInfo.fee?.gasLimit).toBe(BigInt(gasLimit));
          expect(decoded.body.memo).toBe(chainId);
          expect(fromBinary(cosmosTx.AuthInfoSchema, cosmjsAuthInfo)).toEqual(authInfo);
        },
      ),
      { numRuns: 100 },
    );
  });
});
