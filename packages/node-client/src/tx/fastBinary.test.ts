import { create, type DescField, type DescMessage, ScalarType, toBinary } from "@bufbuild/protobuf";
import { InvalidArgumentError } from "@perpx/errors";
import { messageRegistry } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHexString } from "../bytes.js";
import { hasCompiledEncoder, writeMessage } from "./fastBinary.js";
import { ProtoWriter } from "./wire.js";

/** Widens a range by up to 2^66 on each side when `outside` is set (values protobuf-es refuses). */
let outside = false;

/** A random value for a scalar field of `type`: in the range protobuf-es accepts, or (with `outside`) around it. */
function scalarValue(type: ScalarType, longAsString: boolean): fc.Arbitrary<unknown> {
  const long = (min: bigint, max: bigint) => {
    const range = outside
      ? fc.oneof(
          fc.bigInt({ min, max }),
          fc.bigInt({ min: max + 1n, max: max + (1n << 66n) }),
          fc.bigInt({ min: min - (1n << 66n), max: min - 1n }),
        )
      : fc.bigInt({ min, max });
    return longAsString ? range.map(String) : range;
  };
  const int = (min: number, max: number) =>
    outside
      ? fc.oneof(
          fc.integer({ min, max }),
          fc.integer({ min: max + 1, max: max + 2 ** 40 }),
          fc.integer({ min: min - 2 ** 40, max: min - 1 }),
          fc.double({ min, max, noInteger: true }),
        )
      : fc.oneof(fc.constant(0), fc.integer({ min, max }));
  switch (type) {
    case ScalarType.DOUBLE:
      return fc.double({ noNaN: true });
    case ScalarType.FLOAT:
      return fc.float({ noNaN: true });
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return long(-(1n << 63n), (1n << 63n) - 1n);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return long(0n, (1n << 64n) - 1n);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return int(-(2 ** 31), 2 ** 31 - 1);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return int(0, 2 ** 32 - 1);
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.STRING:
      return fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 150 }));
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 140 });
  }
}

/** A random message of `desc` (fields left out at random, nesting cut at `depth`). */
function messageValue(desc: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  const oneofs = new Map<string, DescField[]>();
  for (const field of desc.fields) {
    if (field.oneof) {
      oneofs.set(field.oneof.localName, [...(oneofs.get(field.oneof.localName) ?? []), field]);
      continue;
    }
    const value = fieldValue(field, depth);
    if (value) parts[field.localName] = value;
  }
  for (const [name, members] of oneofs) {
    const options = members
      .map((field) => [field, fieldValue(field, depth)] as const)
      .filter((entry): entry is readonly [DescField, fc.Arbitrary<unknown>] => entry[1] !== undefined)
      .map(([field, value]) => value.map((v) => ({ case: field.localName, value: v })));
    parts[name] = fc.oneof(fc.constant({ case: undefined }), ...options);
  }
  return fc.record(parts, { requiredKeys: [] }).map((init) => create(desc, init as never) as never);
}

function fieldValue(field: DescField, depth: number): fc.Arbitrary<unknown> | undefined {
  switch (field.fieldKind) {
    case "scalar":
      return scalarValue(field.scalar, field.longAsString);
    case "enum":
      return fc.constantFrom(...field.enum.values.map((v) => v.number));
    case "message":
      return depth > 0 ? messageValue(field.message, depth - 1) : undefined;
    case "list":
      if (field.listKind === "message") {
        return depth > 0 ? fc.array(messageValue(field.message, depth - 1), { maxLength: 2 }) : undefined;
      }
      if (field.listKind === "enum") {
        return fc.array(fc.constantFrom(...field.enum.values.map((v) => v.number)), { maxLength: 3 });
      }
      return fc.array(scalarValue(field.scalar, field.longAsString), { maxLength: 3 });
    case "map":
      return undefined;
  }
}

function fast(schema: DescMessage, message: object): string {
  const writer = new ProtoWriter(16);
  writeMessage(writer, schema, message);
  return toHexString(writer.finish());
}

describe("the compiled encoder", () => {
  const schemas = [...messageRegistry.values()];

  it("matches toBinary for the zero message of every registered schema", () => {
    expect(schemas.length).toBeGreaterThan(100);
    for (const schema of schemas) {
      const message = create(schema);
      expect(fast(schema, message), schema.typeName).toBe(toHexString(toBinary(schema, message)));
    }
  });

  it("matches toBinary for random messages of every registered schema (property)", () => {
    for (const schema of schemas) {
      fc.assert(
        fc.property(messageValue(schema, 3), (message) => {
          expect(fast(schema, message), schema.typeName).toBe(
            toHexString(toBinary(schema, message as never)),
          );
        }),
        { numRuns: 15 },
      );
    }
  });

  it("throws on exactly the values toBinary refuses, out-of-range integers included (property)", () => {
    outside = true;
    try {
      for (const schema of schemas) {
        fc.assert(
          fc.property(messageValue(schema, 2), (message) => {
            let expected: string | undefined;
            try {
              expected = toHexString(toBinary(schema, message as never));
            } catch {
              expected = undefined;
            }
            if (expected === undefined) {
              expect(() => fast(schema, message), schema.typeName).toThrow(InvalidArgumentError);
            } else {
              expect(fast(schema, message), schema.typeName).toBe(expected);
            }
          }),
          { numRuns: 15 },
        );
      }
    } finally {
      outside = false;
    }
  });

  it("refuses a uint64 of 2^64 + 5 instead of wrapping it to 5", () => {
    const schema = schemas.find((s) => s.typeName === "perpx.sending.v1.MsgDepositToSubaccount")!;
    const message = create(schema, { quantums: (1n << 64n) + 5n } as never);
    expect(() => toBinary(schema, message)).toThrow(/invalid uint64/);
    expect(() => fast(schema, message)).toThrow(/MsgDepositToSubaccount\.quantums.*invalid uint64/);
  });

  it("compiles the messages of the trading path (no silent fallback to toBinary)", () => {
    for (const name of [
      "perpx.clob.v1.MsgPlaceOrder",
      "perpx.clob.v1.MsgCancelOrder",
      "perpx.clob.v1.MsgBatchCancel",
      "cosmos.bank.v1beta1.MsgSend",
      "perpx.accountplus.v1.TxExtension",
    ]) {
      const schema = schemas.find((s) => s.typeName === name);
      expect(schema && hasCompiledEncoder(schema), name).toBe(true);
    }
  });

  it("falls back to toBinary for unknown fields, leaving nothing half-written", () => {
    const schema = [...messageRegistry.values()].find((s) => s.typeName === "perpx.clob.v1.MsgPlaceOrder")!;
    const message = create(schema);
    (message as unknown as { $unknown: unknown[] }).$unknown = [
      { no: 99, wireType: 0, data: new Uint8Array([0xf8, 0x06, 0x01]) },
    ];
    const writer = new ProtoWriter(4);
    writer.begin(1);
    writeMessage(writer, schema, message);
    writer.end();
    const expected = toBinary(schema, message);
    expect(toHexString(writer.finish())).toBe(
      `0a${expected.length.toString(16).padStart(2, "0")}${toHexString(expected)}`,
    );
  });
});
