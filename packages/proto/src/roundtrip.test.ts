import { type DescMessage, equals, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { messageOf } from "../test/arbitrary.js";
import {
  cosmosAbci,
  cosmosAuth,
  cosmosBank,
  cosmosBase,
  cosmosQuery,
  cosmosTendermint,
  cosmosTx,
  ibcChannel,
  ibcTransfer,
  tendermintTypes,
  typeRegistry,
} from "./index.js";

const hot: DescMessage[] = [
  cosmosBase.CoinSchema,
  cosmosBase.DecCoinSchema,
  cosmosQuery.PageRequestSchema,
  cosmosTx.TxSchema,
  cosmosTx.TxRawSchema,
  cosmosTx.TxBodySchema,
  cosmosTx.AuthInfoSchema,
  cosmosTx.SignerInfoSchema,
  cosmosTx.ModeInfoSchema,
  cosmosTx.FeeSchema,
  cosmosTx.SignDocSchema,
  cosmosTx.SimulateResponseSchema,
  cosmosTx.GetTxsEventResponseSchema,
  cosmosAbci.TxResponseSchema,
  cosmosAbci.TxMsgDataSchema,
  cosmosAuth.BaseAccountSchema,
  cosmosBank.MsgSendSchema,
  cosmosBank.MetadataSchema,
  cosmosTendermint.GetLatestBlockResponseSchema,
  cosmosTendermint.GetNodeInfoResponseSchema,
  tendermintTypes.BlockSchema,
  ibcChannel.IdentifiedChannelSchema,
  ibcTransfer.MsgTransferSchema,
];

describe("binary round trip (property)", () => {
  test.each(hot.map((schema) => [schema.typeName, schema] as const))("%s", (_, schema) => {
    fc.assert(
      fc.property(messageOf(schema, 4), (message) => {
        const bytes = toBinary(schema, message);
        const back = fromBinary(schema, bytes);
        expect(equals(schema, back, message)).toBe(true);
        // Encoding is canonical: re-encoding the decoded message gives the same bytes.
        expect(toBinary(schema, back)).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });
});

describe("JSON round trip (property)", () => {
  // Messages without Any fields: JSON needs no registry, and 64-bit integers become strings.
  const jsonable: DescMessage[] = [
    cosmosBase.CoinSchema,
    cosmosTx.FeeSchema,
    cosmosBank.MetadataSchema,
    ibcTransfer.MsgTransferSchema,
    tendermintTypes.BlockSchema,
  ];
  test.each(jsonable.map((schema) => [schema.typeName, schema] as const))("%s", (_, schema) => {
    fc.assert(
      fc.property(messageOf(schema, 4), (message) => {
        const json = toJson(schema, message, { registry: typeRegistry });
        const back = fromJson(schema, JSON.parse(JSON.stringify(json)), { registry: typeRegistry });
        expect(equals(schema, back, message)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  test("MsgTransfer JSON uses proto3 JSON names and decimal strings", () => {
    const json = toJson(
      ibcTransfer.MsgTransferSchema,
      fromJson(ibcTransfer.MsgTransferSchema, {
        sourcePort: "transfer",
        sourceChannel: "channel-0",
        token: { denom: "uusdc", amount: "5" },
        timeoutTimestamp: "1700000000000000000",
      }),
    );
    expect(json).toEqual({
      sourcePort: "transfer",
      sourceChannel: "channel-0",
      token: { denom: "uusdc", amount: "5" },
      timeoutTimestamp: "1700000000000000000",
    });
  });
});
