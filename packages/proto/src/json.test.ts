import { create, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { messageOf } from "../test/arbitrary.js";
import {
  cosmosAbci,
  cosmosAuth,
  cosmosBank,
  cosmosBase,
  cosmosSecp256k1,
  cosmosTx,
  fromCosmosJson,
  isProtoDecodeError,
  packAny,
  toCosmosJson,
  typeRegistry,
  unpackAny,
} from "./index.js";

const send = create(cosmosBank.MsgSendSchema, {
  fromAddress: "perpx1a",
  toAddress: "perpx1b",
  amount: [{ denom: "aperpx", amount: "1" }],
});
const pubKey = create(cosmosSecp256k1.PubKeySchema, { key: new Uint8Array(33).fill(3) });
const tx = create(cosmosTx.TxSchema, {
  body: { messages: [packAny(cosmosBank.MsgSendSchema, send)], memo: "hi", timeoutHeight: 9n },
  authInfo: {
    signerInfos: [{ publicKey: packAny(cosmosSecp256k1.PubKeySchema, pubKey), sequence: 4n }],
    fee: { gasLimit: 200_000n },
  },
  signatures: [new Uint8Array(64)],
});
// An Any whose value holds more Anys (TxResponse.tx -> Tx -> messages, public key).
const txResponse = create(cosmosAbci.TxResponseSchema, {
  height: 5n,
  txhash: "AB",
  tx: packAny(cosmosTx.TxSchema, tx),
});

describe("toCosmosJson", () => {
  test("writes snake_case names, defaults, and `/` type URLs", () => {
    const json = toCosmosJson(cosmosTx.TxBodySchema, tx.body!);
    expect(json).toEqual({
      messages: [
        {
          "@type": "/cosmos.bank.v1beta1.MsgSend",
          from_address: "perpx1a",
          to_address: "perpx1b",
          amount: [{ denom: "aperpx", amount: "1" }],
        },
      ],
      memo: "hi",
      timeout_height: "9",
      extension_options: [],
      non_critical_extension_options: [],
    });
  });

  test("options: camelCase and no defaults", () => {
    const account = create(cosmosAuth.BaseAccountSchema, { address: "perpx1a", accountNumber: 3n });
    expect(
      toCosmosJson(cosmosAuth.BaseAccountSchema, account, { snakeCase: false, emitDefaults: false }),
    ).toEqual({
      address: "perpx1a",
      accountNumber: "3",
    });
    expect(toCosmosJson(cosmosAuth.BaseAccountSchema, account)).toEqual({
      address: "perpx1a",
      account_number: "3",
      sequence: "0",
    });
  });
});

describe("fromCosmosJson", () => {
  test("plain fromJson would rewrite nested type URLs to type.googleapis.com (why this exists)", () => {
    const json = toJson(cosmosAbci.TxResponseSchema, txResponse, { registry: typeRegistry });
    const plain = fromJson(cosmosAbci.TxResponseSchema, json, { registry: typeRegistry });
    expect(plain.tx?.typeUrl).toBe("type.googleapis.com/cosmos.tx.v1beta1.Tx");
  });

  test("keeps Cosmos type URLs at every depth: bytes equal the original", () => {
    const json = toCosmosJson(cosmosAbci.TxResponseSchema, txResponse);
    const back = fromCosmosJson(cosmosAbci.TxResponseSchema, json);
    expect(back.tx?.typeUrl).toBe("/cosmos.tx.v1beta1.Tx");
    expect(toBinary(cosmosAbci.TxResponseSchema, back)).toEqual(
      toBinary(cosmosAbci.TxResponseSchema, txResponse),
    );
  });

  test("reads what the Cosmos REST gateway writes", () => {
    const response = fromCosmosJson(cosmosAuth.QueryAccountResponseSchema, {
      account: {
        "@type": "/cosmos.auth.v1beta1.BaseAccount",
        address: "perpx1a",
        pub_key: {
          "@type": "/cosmos.crypto.secp256k1.PubKey",
          key: "AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMD",
        },
        account_number: "12",
        sequence: "4",
      },
    });
    expect(response.account?.typeUrl).toBe("/cosmos.auth.v1beta1.BaseAccount");
    const account = unpackAny(response.account!, cosmosAuth.BaseAccountSchema);
    expect(account.accountNumber).toBe(12n);
    expect(account.pubKey?.typeUrl).toBe("/cosmos.crypto.secp256k1.PubKey");
    expect(unpackAny(account.pubKey!, cosmosSecp256k1.PubKeySchema).key).toEqual(new Uint8Array(33).fill(3));
  });

  test("invalid JSON throws ProtoDecodeError", () => {
    let caught: unknown;
    try {
      fromCosmosJson(cosmosBase.CoinSchema, { denom: 5 });
    } catch (error) {
      caught = error;
    }
    expect(isProtoDecodeError(caught)).toBe(true);
    expect(() => fromCosmosJson(cosmosTx.TxBodySchema, { messages: [{ "@type": "/nope.Nope" }] })).toThrow(
      /cosmos.tx.v1beta1.TxBody/,
    );
  });

  test("round trip (property): Tx with random messages and keys", () => {
    fc.assert(
      fc.property(
        messageOf(cosmosBank.MsgSendSchema),
        fc.uint8Array({ minLength: 33, maxLength: 33 }),
        (msg, key) => {
          const t = create(cosmosTx.TxSchema, {
            body: { messages: [packAny(cosmosBank.MsgSendSchema, msg)] },
            authInfo: {
              signerInfos: [
                {
                  publicKey: packAny(
                    cosmosSecp256k1.PubKeySchema,
                    create(cosmosSecp256k1.PubKeySchema, { key }),
                  ),
                },
              ],
            },
          });
          const back = fromCosmosJson(cosmosTx.TxSchema, toCosmosJson(cosmosTx.TxSchema, t));
          expect(toBinary(cosmosTx.TxSchema, back)).toEqual(toBinary(cosmosTx.TxSchema, t));
        },
      ),
      { numRuns: 100 },
    );
  });
});
