import { create, type DescField, type DescMessage, ScalarType, toBinary } from "@bufbuild/protobuf";
import { messageRegistry } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHexString } from "../bytes.js";
import { hasCompiledEncoder, writeMessage } from "./fastBinary.js";
import { ProtoWriter } from "./wire.js";

/** A random value for a scalar field of `type`, in the range protobuf-es accepts. */
function scalarValue(type: ScalarType, longAsString: boolean): fc.Arbitrary<unknown> {
  const long = (min: bigint, max: bigint) =>
    longAsString ? fc.bigInt({ min, max }).map(String) : fc.bigInt({ min, max });
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
      return fc.oneof(fc.constant(0), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
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
