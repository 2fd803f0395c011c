import { readdirSync, readFileSync } from "node:fs";
import { create, type DescField, type DescMessage, equals, ScalarType, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { messageOf, serializableIntBytes } from "../test/arbitrary.js";
import {
  clob,
  cosmosTx,
  decodeSerializableInt,
  encodeSerializableInt,
  feetiers,
  fromCosmosJson,
  isSerializableIntError,
  isSerializableIntField,
  messageRegistry,
  packAny,
  perpetuals,
  ratelimit,
  SerializableIntError,
  subaccounts,
  toCosmosJson,
} from "./index.js";

/** Go's `big.Int.GobEncode()` of a few values, written out by hand. */
const GOB: ReadonlyArray<readonly [bigint, number[]]> = [
  [0n, [0x02]],
  [1n, [0x02, 0x01]],
  [-1n, [0x03, 0x01]],
  [255n, [0x02, 0xff]],
  [256n, [0x02, 0x01, 0x00]],
  [-256n, [0x03, 0x01, 0x00]],
  [1_000_000n, [0x02, 0x0f, 0x42, 0x40]],
  [2n ** 64n, [0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]],
];

describe("SerializableInt codec", () => {
  test.each(GOB)("%s encodes as Go's GobEncode and back", (value, bytes) => {
    expect([...encodeSerializableInt(value)]).toEqual(bytes);
    expect(decodeSerializableInt(new Uint8Array(bytes))).toBe(value);
  });

  test("empty bytes, a bare sign byte and the JS client's [0x02, 0x00] all decode to 0", () => {
    expect(decodeSerializableInt(new Uint8Array())).toBe(0n);
    expect(decodeSerializableInt(new Uint8Array([0x02]))).toBe(0n);
    expect(decodeSerializableInt(new Uint8Array([0x03]))).toBe(0n);
    expect(decodeSerializableInt(new Uint8Array([0x02, 0x00]))).toBe(0n);
    expect(decodeSerializableInt(new Uint8Array([0x03, 0x00, 0x05]))).toBe(-5n);
  });

  test.each([[0x00], [0x01], [0x04], [0xff], [0x07, 0x01]])(
    "sign byte %i is a SerializableIntError",
    (...bytes) => {
      let caught: unknown;
      try {
        decodeSerializableInt(new Uint8Array(bytes));
      } catch (error) {
        caught = error;
      }
      expect(isSerializableIntError(caught)).toBe(true);
      expect(caught).toBeInstanceOf(SerializableIntError);
      expect((caught as SerializableIntError).code).toBe("DECODE");
      expect((caught as SerializableIntError).field).toBeUndefined();
      expect((caught as Error).message).toMatch(/sign byte 0x[0-9a-f]{2}/);
    },
  );

  test("round trip (property): any integer, negatives and zero included", () => {
    const integer = fc.oneof(
      fc.constantFrom(0n, 1n, -1n, 255n, -255n, 256n, -256n),
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
      fc.bigInt({ min: -(2n ** 1024n), max: 2n ** 1024n }),
    );
    fc.assert(
      fc.property(integer, (value) => {
        const bytes = encodeSerializableInt(value);
        expect(decodeSerializableInt(bytes)).toBe(value);
        // Canonical, as Go writes it: the right sign byte and no leading zero byte.
        expect(bytes[0]).toBe(value < 0n ? 0x03 : 0x02);
        if (bytes.length > 1) expect(bytes[1]).not.toBe(0);
        expect(bytes.length).toBe(
          value === 0n ? 1 : 1 + Math.ceil((value < 0n ? -value : value).toString(2).length / 8),
        );
      }),
      { numRuns: 500 },
    );
  });

  test("decoding ignores leading zero bytes of the magnitude (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.nat({ max: 4 }), (value, zeros) => {
        const bytes = encodeSerializableInt(value);
        const padded = new Uint8Array([bytes[0]!, ...new Array<number>(zeros).fill(0), ...bytes.subarray(1)]);
        expect(decodeSerializableInt(padded)).toBe(value);
      }),
    );
  });
});

/** Every field of every registered message that carries the option, as `Type.field`. */
function markedFields(): string[] {
  const out: string[] = [];
  for (const schema of messageRegistry.values()) {
    for (const field of schema.fields)
      if (isSerializableIntField(field)) out.push(`${schema.typeName}.${field.name}`);
  }
  return out.sort();
}

describe("isSerializableIntField", () => {
  test("marks exactly the SerializableInt fields of chain-protocol.md", () => {
    expect(markedFields()).toEqual([
      "perpx.affiliates.v1.AffiliateInfoResponse.attributed_volume_30d_rolling",
      "perpx.affiliates.v1.AffiliateInfoResponse.referred_volume",
      "perpx.affiliates.v1.AffiliateInfoResponse.referred_volume_30d_rolling",
      "perpx.affiliates.v1.AffiliateInfoResponse.staked_amount",
      "perpx.clob.v1.EquityTierLimit.usd_tnc_required",
      "perpx.feetiers.v1.QueryUserStakingTierResponse.staked_base_tokens",
      "perpx.feetiers.v1.StakingLevel.min_staked_base_tokens",
      "perpx.perpetuals.v1.Perpetual.funding_index",
      "perpx.perpetuals.v1.Perpetual.open_interest",
      "perpx.ratelimit.v1.DenomCapacity.capacity_list",
      "perpx.ratelimit.v1.Limiter.baseline_minimum",
      "perpx.ratelimit.v1.LimiterCapacity.capacity",
      "perpx.rewards.v1.RewardShare.weight",
      "perpx.subaccounts.v1.AssetPosition.quantums",
      "perpx.subaccounts.v1.PerpetualPosition.funding_index",
      "perpx.subaccounts.v1.PerpetualPosition.quantums",
      "perpx.subaccounts.v1.PerpetualPosition.quote_balance",
    ]);
  });

  test("every perpx bytes field whose comment says SerializableInt carries the option", () => {
    const protoDir = new URL("../../../proto/perpx/", import.meta.url);
    const commented: string[] = [];
    for (const name of readdirSync(protoDir, { recursive: true }) as string[]) {
      if (!name.endsWith(".proto")) continue;
      const text = readFileSync(new URL(name, protoDir), "utf8");
      const pkg = /^package ([\w.]+);/m.exec(text)?.[1];
      let message = "";
      let comment = "";
      for (const line of text.split("\n")) {
        const open = /^message (\w+)/.exec(line);
        if (open) message = open[1]!;
        if (/^\s*\/\//.test(line)) comment += line;
        else {
          const field = /^\s+(?:repeated )?bytes (\w+) =/.exec(line);
          if (field && /SerializableInt/.test(comment)) commented.push(`${pkg}.${message}.${field[1]}`);
          comment = "";
        }
      }
    }
    expect(commented.sort()).toEqual(markedFields());
  });

  test("is false for unmarked bytes fields and for non-bytes fields", () => {
    expect(isSerializableIntField(subaccounts.AssetPositionSchema.field.quantums)).toBe(true);
    expect(isSerializableIntField(ratelimit.DenomCapacitySchema.field.capacityList)).toBe(true);
    expect(isSerializableIntField(subaccounts.AssetPositionSchema.field.index)).toBe(false);
    const unmarkedBytes = [...messageRegistry.values()]
      .flatMap((schema) => schema.fields)
      .filter(
        (f: DescField) =>
          (f.fieldKind === "scalar" || f.fieldKind === "list") &&
          f.scalar === ScalarType.BYTES &&
          !isSerializableIntField(f),
      );
    expect(unmarkedBytes.length).toBeGreaterThan(0);
  });
});

const position = create(subaccounts.PerpetualPositionSchema, {
  perpetualId: 1,
  quantums: encodeSerializableInt(-2_500_000n),
  fundingIndex: encodeSerializableInt(12n),
  quoteBalance: encodeSerializableInt(0n),
});
const subaccount = create(subaccounts.SubaccountSchema, {
  id: { owner: "perpx1a", number: 0 },
  assetPositions: [{ assetId: 0, quantums: encodeSerializableInt(1_000_000n) }],
  perpetualPositions: [position],
});

describe("Cosmos JSON of SerializableInt fields", () => {
  test("prints decimal strings, snake_case or camelCase", () => {
    const json = toCosmosJson(
      subaccounts.QuerySubaccountResponseSchema,
      create(subaccounts.QuerySubaccountResponseSchema, { subaccount }),
    );
    expect(json).toEqual({
      subaccount: {
        id: { owner: "perpx1a", number: 0 },
        asset_positions: [{ asset_id: 0, quantums: "1000000", index: "0" }],
        perpetual_positions: [
          { perpetual_id: 1, quantums: "-2500000", funding_index: "12", quote_balance: "0" },
        ],
        margin_enabled: false,
      },
    });
    expect(toCosmosJson(subaccounts.PerpetualPositionSchema, position, { snakeCase: false })).toEqual({
      perpetualId: 1,
      quantums: "-2500000",
      fundingIndex: "12",
      quoteBalance: "0",
    });
  });

  test("an unset field is 0 with defaults, absent without", () => {
    const empty = create(perpetuals.PerpetualSchema, {});
    expect(toCosmosJson(perpetuals.PerpetualSchema, empty)).toEqual({
      funding_index: "0",
      open_interest: "0",
    });
    expect(toCosmosJson(perpetuals.PerpetualSchema, empty, { emitDefaults: false })).toEqual({});
  });

  test("repeated fields are arrays of decimal strings", () => {
    const capacity = create(ratelimit.DenomCapacitySchema, {
      denom: "uusdc",
      capacityList: [encodeSerializableInt(10n ** 12n), encodeSerializableInt(-3n)],
    });
    const json = toCosmosJson(ratelimit.DenomCapacitySchema, capacity);
    expect(json).toEqual({ denom: "uusdc", capacity_list: ["1000000000000", "-3"] });
    expect(
      equals(ratelimit.DenomCapacitySchema, fromCosmosJson(ratelimit.DenomCapacitySchema, json), capacity),
    ).toBe(true);
  });

  test("reads decimal strings (and safe-integer numbers), by either field name, at any depth", () => {
    const back = fromCosmosJson(subaccounts.QuerySubaccountResponseSchema, {
      subaccount: {
        id: { owner: "perpx1a", number: 0 },
        assetPositions: [{ asset_id: 0, quantums: "1000000" }],
        perpetual_positions: [{ perpetualId: 1, quantums: "-2500000", fundingIndex: 12, quote_balance: "0" }],
      },
    });
    expect(equals(subaccounts.SubaccountSchema, back.subaccount!, subaccount)).toBe(true);
    expect(fromCosmosJson(perpetuals.PerpetualSchema, { funding_index: null }).fundingIndex).toEqual(
      new Uint8Array(),
    );
  });

  test.each([
    ["1.5", "perpetual.funding_index"],
    ["12abc", "perpetual.funding_index"],
    ["", "perpetual.funding_index"],
    ["AgPo", "perpetual.funding_index"],
  ])("rejects %j naming the field", (text, field) => {
    let caught: unknown;
    try {
      fromCosmosJson(perpetuals.QueryPerpetualResponseSchema, { perpetual: { funding_index: text } });
    } catch (error) {
      caught = error;
    }
    expect(isSerializableIntError(caught)).toBe(true);
    expect((caught as SerializableIntError).field).toBe(field);
    expect((caught as Error).message).toContain(field);
  });

  test("rejects non-integers in lists and nested lists, naming the element", () => {
    const fieldOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return isSerializableIntError(error) ? error.field : "not a SerializableIntError";
      }
      return "no error";
    };
    expect(fieldOf(() => fromCosmosJson(ratelimit.DenomCapacitySchema, { capacity_list: ["1", 2.5] }))).toBe(
      "capacity_list[1]",
    );
    expect(
      fieldOf(() =>
        fromCosmosJson(clob.EquityTierLimitConfigurationSchema, {
          stateful_order_equity_tiers: [{ usd_tnc_required: "0" }, { usdTncRequired: true }],
        }),
      ),
    ).toBe("stateful_order_equity_tiers[1].usdTncRequired");
  });

  test("bytes with a bad sign byte do not print; the error names the field", () => {
    const bad = create(feetiers.StakingTierSchema, {
      levels: [{}, { minStakedBaseTokens: new Uint8Array([9, 1]) }],
    });
    expect(() => toCosmosJson(feetiers.StakingTierSchema, bad)).toThrow(SerializableIntError);
    expect(() => toCosmosJson(feetiers.StakingTierSchema, bad)).toThrow(
      "at levels[1].min_staked_base_tokens",
    );
  });

  test("does not change the caller's JSON", () => {
    const json = { funding_index: "7", open_interest: "8" };
    fromCosmosJson(perpetuals.PerpetualSchema, json);
    expect(json).toEqual({ funding_index: "7", open_interest: "8" });
  });

  test("unknown fields fail unless ignored", () => {
    expect(() => fromCosmosJson(perpetuals.PerpetualSchema, { funding_index: "1", added_later: 1 })).toThrow(
      /perpx.perpetuals.v1.Perpetual/,
    );
    const read = fromCosmosJson(
      perpetuals.PerpetualSchema,
      { funding_index: "1", added_later: 1 },
      {
        ignoreUnknownFields: true,
      },
    );
    expect(decodeSerializableInt(read.fundingIndex)).toBe(1n);
  });

  // Every perpx message type that holds a SerializableInt field, at any depth (responses included).
  const holds = (schema: DescMessage, seen = new Set<DescMessage>()): boolean => {
    if (seen.has(schema)) return false;
    seen.add(schema);
    return schema.fields.some(
      (f) =>
        isSerializableIntField(f) ||
        ((f.fieldKind === "message" || f.fieldKind === "list") &&
          f.message !== undefined &&
          holds(f.message, seen)),
    );
  };
  const holders = [...messageRegistry.values()].filter((s) => s.typeName.startsWith("perpx.") && holds(s));

  test("there are holders to test", () => {
    expect(holders.length).toBeGreaterThan(20);
  });

  test.each(holders.map((schema) => [schema.typeName, schema] as const))(
    "round trip (property): %s",
    (_, schema) => {
      fc.assert(
        fc.property(messageOf(schema, 4), (message) => {
          // Without defaults, every field round-trips exactly (an unset one stays unset).
          const sparse = toCosmosJson(schema, message, { emitDefaults: false });
          const back = fromCosmosJson(schema, JSON.parse(JSON.stringify(sparse)));
          expect(equals(schema, back, message)).toBe(true);
          expect(toBinary(schema, back)).toEqual(toBinary(schema, message));
          // With defaults, an unset field reads back as an explicit 0; the JSON is then a fixed point.
          const full = toCosmosJson(schema, message);
          const again = toCosmosJson(schema, fromCosmosJson(schema, full));
          expect(again).toEqual(full);
          // And no SerializableInt is ever printed as base64.
          expect(JSON.stringify(full)).not.toMatch(
            /"(quantums|funding_index|capacity|usd_tnc_required)":"[^-\d]/,
          );
        }),
        { numRuns: 100 },
      );
    },
  );

  test("SerializableInts inside an Any print and read as decimal strings (property)", () => {
    fc.assert(
      fc.property(serializableIntBytes, serializableIntBytes, (a, b) => {
        const perpetual = create(perpetuals.PerpetualSchema, { fundingIndex: a, openInterest: b });
        const inner = packAny(perpetuals.PerpetualSchema, perpetual);
        const body = create(cosmosTx.TxBodySchema, { messages: [inner] });
        const json = toCosmosJson(cosmosTx.TxBodySchema, body, { emitDefaults: false });
        expect(json).toEqual({
          messages: [
            {
              "@type": "/perpx.perpetuals.v1.Perpetual",
              funding_index: decodeSerializableInt(a).toString(),
              open_interest: decodeSerializableInt(b).toString(),
            },
          ],
        });
        const back = fromCosmosJson(cosmosTx.TxBodySchema, JSON.parse(JSON.stringify(json)));
        expect(toBinary(cosmosTx.TxBodySchema, back)).toEqual(toBinary(cosmosTx.TxBodySchema, body));
      }),
      { numRuns: 100 },
    );
  });
});
