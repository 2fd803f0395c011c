import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Registry } from "@cosmjs/proto-signing";
import { bench, describe } from "vitest";
import { cosmjsRegistryEntries, cosmosBank, cosmosTx, packAny, unpackAny } from "./index.js";

const value = {
  fromAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c",
  toAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c",
  amount: [{ denom: "aperpx", amount: "1000000000000000000" }],
};
const send = create(cosmosBank.MsgSendSchema, value);
const registry = new Registry(cosmjsRegistryEntries({ include: "all" }));
const body = create(cosmosTx.TxBodySchema, {
  messages: [packAny(cosmosBank.MsgSendSchema, send)],
  memo: "bench",
});
const bodyBytes = toBinary(cosmosTx.TxBodySchema, body);

describe("MsgSend to Any", () => {
  bench("packAny (protobuf-es)", () => {
    packAny(cosmosBank.MsgSendSchema, send);
  });
  bench("cosmjs Registry.encodeAsAny via toCosmjsGeneratedType", () => {
    registry.encodeAsAny({ typeUrl: "/cosmos.bank.v1beta1.MsgSend", value });
  });
});

describe("TxBody decode", () => {
  bench("fromBinary + unpackAny", () => {
    const decoded = fromBinary(cosmosTx.TxBodySchema, bodyBytes);
    for (const any of decoded.messages) unpackAny(any);
  });
  bench("cosmjs Registry.decodeTxBody", () => {
    registry.decodeTxBody(bodyBytes);
  });
});
