// fast-check arbitraries derived from protobuf-es descriptors: any message schema gets a generator
// of random (but valid) init objects, so property tests cover every generated message.
import { create, type DescField, type DescMessage, type MessageShape, ScalarType } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { encodeSerializableInt, isSerializableIntField } from "../src/serializable-int.js";

type Arb = fc.Arbitrary<unknown>;

/** -0 is encoded as 0 by implicit-presence fields; generate +0 only so round trips compare equal. */
const noNegativeZero = (n: number) => (Object.is(n, -0) ? 0 : n);

function scalar(type: ScalarType, longAsString: boolean): Arb {
  const long = (min: bigint, max: bigint): Arb =>
    fc.bigInt({ min, max }).map((v) => (longAsString ? v.toString() : v));
  switch (type) {
    case ScalarType.STRING:
      return fc.string({ unit: "grapheme", maxLength: 12 });
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 40 });
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return long(-(2n ** 63n), 2n ** 63n - 1n);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return long(0n, 2n ** 64n - 1n);
    case ScalarType.FLOAT:
      return fc.float({ noNaN: true }).map(noNegativeZero);
    case ScalarType.DOUBLE:
      return fc.double({ noNaN: true }).map(noNegativeZero);
  }
}

function mapKey(type: ScalarType): fc.Arbitrary<string> {
  if (type === ScalarType.STRING) return fc.string({ maxLength: 6 });
  if (type === ScalarType.BOOL) return fc.constantFrom("true", "false");
  return scalar(type, true).map(String);
}

function messageValue(desc: DescMessage, depth: number): Arb {
  // Wrapper fields (google.protobuf.StringValue...) are unboxed in protobuf-es: the init value is
  // the wrapped scalar.
  if (isWrapperDesc(desc)) {
    const inner = desc.fields[0];
    return scalar(inner.scalar, inner.longAsString);
  }
  return initOf(desc, depth - 1);
}

/** A SerializableInt as the chain writes it (canonical: `[0x02]` for zero, no leading zero bytes). */
export const serializableIntBytes: fc.Arbitrary<Uint8Array> = fc
  .bigInt({ min: -(2n ** 300n), max: 2n ** 300n })
  .map(encodeSerializableInt);

function fieldValue(field: DescField, depth: number): Arb | undefined {
  if (isSerializableIntField(field)) {
    return field.fieldKind === "list"
      ? fc.array(serializableIntBytes, { maxLength: 3 })
      : serializableIntBytes;
  }
  switch (field.fieldKind) {
    case "scalar":
      return scalar(field.scalar, field.longAsString);
    case "enum":
      return fc.constantFrom(...field.enum.values.map((v) => v.number));
    case "message":
      return depth <= 0 ? undefined : messageValue(field.message, depth);
    case "list": {
      const element =
        field.listKind === "scalar"
          ? scalar(field.scalar, field.longAsString)
          : field.listKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.number))
            : depth <= 0
              ? undefined
              : initOf(field.message, depth - 1);
      return element && fc.array(element, { maxLength: 3 });
    }
    case "map": {
      const value =
        field.mapKind === "scalar"
          ? scalar(field.scalar, false)
          : field.mapKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.number))
            : depth <= 0
              ? undefined
              : initOf(field.message, depth - 1);
      return value && fc.dictionary(mapKey(field.mapKey), value, { maxKeys: 3 });
    }
  }
}

/**
 * Random init objects for `desc` (camelCase fields, oneofs as `{ case, value }`), nested messages
 * down to `depth` levels.
 */
export function initOf(desc: DescMessage, depth = 3): fc.Arbitrary<Record<string, unknown>> {
  // Well-known types with range rules (their JSON form rejects out-of-range values).
  if (desc.typeName === "google.protobuf.Timestamp") {
    return fc.record({
      seconds: fc.bigInt({ min: -62_135_596_800n, max: 253_402_300_799n }),
      nanos: fc.integer({ min: 0, max: 999_999_999 }),
    });
  }
  if (desc.typeName === "google.protobuf.Duration") {
    return fc
      .record({
        seconds: fc.bigInt({ min: 0n, max: 315_576_000_000n }),
        nanos: fc.integer({ min: 0, max: 999_999_999 }),
        negative: fc.boolean(),
      })
      .map(({ seconds, nanos, negative }) =>
        negative ? { seconds: -seconds, nanos: noNegativeZero(-nanos) } : { seconds, nanos },
      );
  }
  const record: Record<string, Arb> = {};
  for (const field of desc.fields) {
    if (field.oneof) continue;
    const value = fieldValue(field, depth);
    if (value) record[field.localName] = value;
  }
  for (const oneof of desc.oneofs) {
    const cases: Arb[] = [fc.constant({ case: undefined })];
    for (const field of oneof.fields) {
      const value = fieldValue(field, depth);
      if (value) cases.push(value.map((v) => ({ case: field.localName, value: v })));
    }
    record[oneof.localName] = fc.oneof(...cases);
  }
  return fc.record(record, { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Random messages of `desc`. */
export function messageOf<Desc extends DescMessage>(desc: Desc, depth = 3): fc.Arbitrary<MessageShape<Desc>> {
  return initOf(desc, depth).map((init) => create(desc, init as never));
}
