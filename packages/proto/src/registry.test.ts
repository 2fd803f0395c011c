import { create, type DescMessage, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { messageOf } from "../test/arbitrary.js";
import { files } from "./gen/files.js";
import {
  cosmosAuth,
  cosmosBank,
  cosmosSecp256k1,
  cosmosTx,
  decodeMessage,
  ibcTransfer,
  isProtoDecodeError,
  isUnknownTypeUrlError,
  messageRegistry,
  msgTypeUrls,
  packAny,
  schemaOf,
  typeRegistry,
  typeUrlOf,
  UnknownTypeUrlError,
  unpackAny,
} from "./index.js";

/** Every message of every generated file, nested ones included, straight from the descriptors. */
function allMessages(): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (m: DescMessage) => {
    out.push(m);
    m.nestedMessages.forEach(visit);
  };
  for (const file of files) file().messages.forEach(visit);
  return out;
}

describe("messageRegistry", () => {
  test("has every generated message, under /<full name>", () => {
    const messages = allMessages();
    expect(messages.length).toBeGreaterThan(100);
    expect(messageRegistry.size).toBe(messages.length);
    for (const m of messages) expect(messageRegistry.get(`/${m.typeName}`)).toBe(m);
  });

  test("is sorted by type URL", () => {
    const urls = [...messageRegistry.keys()];
    expect(urls).toEqual([...urls].sort());
  });

  test("covers the input of every rpc of every service Msg", () => {
    let count = 0;
    for (const file of files) {
      for (const service of file().services) {
        if (service.name !== "Msg") continue;
        for (const method of service.methods) {
          count++;
          const url = `/${method.input.typeName}` as const;
          expect(messageRegistry.get(url), url).toBe(method.input);
          expect(msgTypeUrls as readonly string[], url).toContain(url);
        }
      }
    }
    expect(msgTypeUrls.length).toBe(count);
    expect(msgTypeUrls).toEqual([...msgTypeUrls].sort());
  });

  test("knows the type URLs real Cosmos clients send", () => {
    for (const url of [
      "/cosmos.bank.v1beta1.MsgSend",
      "/cosmos.bank.v1beta1.MsgMultiSend",
      "/cosmos.crypto.secp256k1.PubKey",
      "/cosmos.crypto.ed25519.PubKey",
      "/cosmos.crypto.multisig.LegacyAminoPubKey",
      "/cosmos.evm.crypto.v1.ethsecp256k1.PubKey",
      "/cosmos.auth.v1beta1.BaseAccount",
      "/cosmos.auth.v1beta1.ModuleAccount",
      "/cosmos.tx.v1beta1.Tx",
      "/ibc.applications.transfer.v1.MsgTransfer",
    ]) {
      expect(messageRegistry.has(url as `/${string}`), url).toBe(true);
    }
  });

  test("services are in the protobuf-es registry", () => {
    for (const name of [
      "cosmos.tx.v1beta1.Service",
      "cosmos.auth.v1beta1.Query",
      "cosmos.bank.v1beta1.Query",
      "cosmos.bank.v1beta1.Msg",
      "cosmos.base.tendermint.v1beta1.Service",
      "cosmos.base.node.v1beta1.Service",
      "cosmos.upgrade.v1beta1.Query",
      "ibc.core.channel.v1.Query",
      "ibc.applications.transfer.v1.Msg",
      "ibc.applications.transfer.v1.Query",
    ]) {
      expect(typeRegistry.getService(name), name).toBeDefined();
    }
  });
});

describe("typeUrlOf / schemaOf", () => {
  test("are inverse for every message", () => {
    for (const [url, schema] of messageRegistry) {
      expect(typeUrlOf(schema)).toBe(url);
      expect(schemaOf(url)).toBe(schema);
    }
  });

  test("schemaOf accepts a type.googleapis.com prefix", () => {
    expect(schemaOf("type.googleapis.com/cosmos.bank.v1beta1.MsgSend")).toBe(cosmosBank.MsgSendSchema);
  });

  test.each([
    "/perpx.clob.v1.MsgDoesNotExist",
    "cosmos.bank.v1beta1.MsgSend",
    "",
    "/",
    "/cosmos.bank.v1beta1",
  ])("schemaOf(%j) throws UnknownTypeUrlError", (url) => {
    let caught: unknown;
    try {
      schemaOf(url);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownTypeUrlError);
    expect(isUnknownTypeUrlError(caught)).toBe(true);
    expect((caught as UnknownTypeUrlError).code).toBe("UNKNOWN_TYPE_URL");
    expect((caught as UnknownTypeUrlError).typeUrl).toBe(url);
  });
});

describe("packAny / unpackAny", () => {
  test("packs with a Cosmos type URL and the binary encoding", () => {
    const key = create(cosmosSecp256k1.PubKeySchema, { key: new Uint8Array(33).fill(2) });
    const any = packAny(cosmosSecp256k1.PubKeySchema, key);
    expect(any.$typeName).toBe("google.protobuf.Any");
    expect(any.typeUrl).toBe("/cosmos.crypto.secp256k1.PubKey");
    expect(any.value).toEqual(toBinary(cosmosSecp256k1.PubKeySchema, key));
    // The Any itself encodes like any other Any.
    expect(fromBinary(AnySchema, toBinary(AnySchema, any))).toEqual(any);
  });

  test("round-trip every generated message (random contents)", () => {
    for (const schema of messageRegistry.values()) {
      fc.assert(
        fc.property(messageOf(schema, 2), (message) => {
          const any = packAny(schema, message);
          const back = unpackAny(any);
          expect(back.$typeName).toBe(schema.typeName);
          expect(equals(schema, back as never, message as never)).toBe(true);
          expect(unpackAny(any, schema)).toEqual(message);
        }),
        { numRuns: 5 },
      );
    }
  });

  test("unpackAny with a schema returns the typed message", () => {
    const account = create(cosmosAuth.BaseAccountSchema, {
      address: "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
      accountNumber: 7n,
      sequence: 3n,
    });
    const back = unpackAny(packAny(cosmosAuth.BaseAccountSchema, account), cosmosAuth.BaseAccountSchema);
    expect(back.accountNumber).toBe(7n);
    expect(back.sequence).toBe(3n);
  });

  test("unpackAny with the wrong schema throws ProtoDecodeError", () => {
    const any = packAny(ibcTransfer.MsgTransferSchema, create(ibcTransfer.MsgTransferSchema, {}));
    expect(() => unpackAny(any, cosmosBank.MsgSendSchema)).toThrow(/holds "\/ibc.applications/);
    try {
      unpackAny(any, cosmosBank.MsgSendSchema);
    } catch (error) {
      expect(isProtoDecodeError(error)).toBe(true);
    }
  });

  test("unpackAny of an unknown type URL throws UnknownTypeUrlError", () => {
    const any = create(AnySchema, { typeUrl: "/perpx.nope.v1.MsgNope", value: new Uint8Array() });
    expect(() => unpackAny(any)).toThrow(UnknownTypeUrlError);
  });

  test("invalid bytes throw ProtoDecodeError with the protobuf-es error as cause", () => {
    const any = create(AnySchema, {
      typeUrl: "/cosmos.tx.v1beta1.TxRaw",
      value: Uint8Array.of(0x0a, 0x05, 1),
    });
    let caught: unknown;
    try {
      unpackAny(any);
    } catch (error) {
      caught = error;
    }
    expect(isProtoDecodeError(caught)).toBe(true);
    expect((caught as Error & { code: string }).code).toBe("DECODE");
    expect((caught as Error).cause).toBeInstanceOf(Error);
    expect(() => decodeMessage(cosmosTx.TxRawSchema, Uint8Array.of(0xff))).toThrow(/cosmos.tx.v1beta1.TxRaw/);
  });
});
