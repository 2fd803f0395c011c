import { readFileSync } from "node:fs";
import { create, type DescMessage, fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { AnySchema, DurationSchema } from "@bufbuild/protobuf/wkt";
import { typeRegistry } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderWireTables, WIRE_ROOTS } from "../../../test/support/wire-tables.js";
import {
  BOOL,
  BYTES,
  DOUBLE,
  ENUM,
  FIXED32,
  FIXED64,
  FLOAT,
  INT32,
  INT64,
  SFIXED32,
  SFIXED64,
  SINT32,
  SINT64,
  STRING,
  UINT32,
  UINT64,
  type WireMessage,
  wireCreate,
  wireDecode,
  wireEncode,
  wireMessage,
} from "./wire-codec.js";
import * as tables from "./wire-tables.js";

const all = Object.values(tables) as WireMessage[];

function schemaOf(table: WireMessage): DescMessage {
  const schema =
    typeRegistry.getMessage(table.typeName) ??
    [AnySchema, DurationSchema].find((s) => s.typeName === table.typeName);
  if (schema === undefined) throw new Error(`no schema ${table.typeName}`);
  return schema;
}

const I64 = 2n ** 63n;
const U64 = 2n ** 64n;

function scalar(type: number): fc.Arbitrary<unknown> {
  switch (type) {
    case STRING:
      return fc.string({ unit: "binary", maxLength: 12 });
    case BOOL:
      return fc.boolean();
    case BYTES:
      return fc.oneof(
        fc.uint8Array({ maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
      );
    case DOUBLE:
      return fc.oneof(fc.double(), fc.constantFrom(0, -0));
    case FLOAT:
      return fc.oneof(fc.float(), fc.constantFrom(0, -0));
    case INT64:
    case SFIXED64:
    case SINT64:
      return fc.oneof(fc.bigInt({ min: -I64, max: I64 - 1n }), fc.constantFrom(0n, -1n, 1n));
    case UINT64:
    case FIXED64:
      return fc.oneof(fc.bigInt({ min: 0n, max: U64 - 1n }), fc.constantFrom(0n, 1n));
    case UINT32:
    case FIXED32:
      return fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constant(0));
    case ENUM:
      return fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: -3, max: 300 }));
    default:
      // INT32, SFIXED32, SINT32
      return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constant(0));
  }
}

interface PlanField {
  no: number;
  name: string;
  scalar: number | undefined;
  message: (() => WireMessage) | undefined;
  list: boolean;
  explicit: boolean;
  oneof: string | undefined;
}

function fieldsOf(table: WireMessage): PlanField[] {
  const plan = table.plan() as unknown as { sorted: PlanField[] };
  return plan.sorted;
}

/** An init of `table`'s type (as `create` takes one): any subset of its fields, nested to `depth`. */
function init(table: WireMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  const oneofs = new Map<string, PlanField[]>();
  for (const field of fieldsOf(table)) {
    if (field.message !== undefined && depth <= 0) continue;
    const one: fc.Arbitrary<unknown> =
      field.message !== undefined ? init(field.message(), depth - 1) : scalar(field.scalar as number);
    if (field.oneof !== undefined) {
      oneofs.set(field.oneof, [...(oneofs.get(field.oneof) ?? []), field]);
      continue;
    }
    parts[field.name] = field.list ? fc.array(one, { maxLength: 3 }) : one;
  }
  for (const [name, fields] of oneofs) {
    parts[name] = fc.oneof(
      fc.constant({ case: undefined }),
      ...fields.map((field) =>
        (field.message !== undefined ? init(field.message(), depth - 1) : scalar(field.scalar as number)).map(
          (value) => ({ case: field.name, value }),
        ),
      ),
    );
  }
  return fc.record(parts, { requiredKeys: [] });
}

const tableArb = fc.constantFrom(...all);

describe("wire tables", () => {
  it("are what the generator renders from the descriptors", () => {
    const committed = readFileSync(new URL("./wire-tables.ts", import.meta.url), "utf8");
    expect(renderWireTables(typeRegistry, WIRE_ROOTS)).toBe(committed);
  });

  it("cover every root and every message type a root contains", () => {
    const names = new Set(all.map((t) => t.typeName));
    for (const root of WIRE_ROOTS) expect(names.has(root)).toBe(true);
    for (const table of all) {
      for (const field of fieldsOf(table))
        if (field.message !== undefined) expect(names.has(field.message().typeName)).toBe(true);
    }
  });
});

describe("wire codec against protobuf-es", () => {
  it("makes what create makes, writes what toBinary writes, reads what fromBinary reads", () => {
    fc.assert(
      fc.property(
        tableArb.chain((table) => init(table, 3).map((value) => [table, value] as const)),
        ([table, value]) => {
          const schema = schemaOf(table);
          const ours = wireCreate(table, value as never);
          const theirs = create(schema, value as never);
          expect(ours).toStrictEqual(theirs);
          const bytes = wireEncode(table, ours);
          expect(bytes).toStrictEqual(toBinary(schema, theirs));
          expect(wireDecode(table, bytes)).toStrictEqual(fromBinary(schema, bytes));
        },
      ),
      { numRuns: 600 },
    );
  });

  it("reads any bytes as fromBinary does: the same message, or an error where it throws one", () => {
    const mutated = tableArb.chain((table) =>
      init(table, 2).chain((value) =>
        fc
          .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 6 }), fc.boolean())
          .map(([at, noise, cut]) => {
            const bytes = wireEncode(table, wireCreate(table, value as never));
            const i = bytes.length === 0 ? 0 : at % bytes.length;
            const out = cut
              ? bytes.slice(0, i)
              : new Uint8Array([...bytes.slice(0, i), ...noise, ...bytes.slice(i)]);
            return [table, out] as const;
          }),
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(mutated, fc.tuple(tableArb, fc.uint8Array({ maxLength: 24 }))),
        ([table, bytes]) => {
          const schema = schemaOf(table);
          let theirs: Message | Error;
          try {
            theirs = fromBinary(schema, bytes);
          } catch (error) {
            theirs = error as Error;
          }
          if (theirs instanceof Error) expect(() => wireDecode(table, bytes)).toThrow();
          else expect(wireDecode(table, bytes)).toStrictEqual(theirs);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("keeps unknown fields and writes them back", () => {
    const table = tables.perpx_assets_v1_Asset;
    const bytes = new Uint8Array([
      ...wireEncode(table, wireCreate(table, { id: 7, symbol: "USDC" })),
      0xf8,
      0x07,
      0x05,
    ]);
    const decoded = wireDecode(table, bytes);
    expect(decoded).toStrictEqual(fromBinary(schemaOf(table), bytes));
    expect(wireEncode(table, decoded)).toStrictEqual(bytes);
  });

  it("refuses a value toBinary refuses", () => {
    const table = tables.perpx_assets_v1_Asset;
    const bad = wireCreate(table, { id: -1 });
    expect(() => toBinary(schemaOf(table), bad)).toThrow();
    expect(() => wireEncode(table, bad)).toThrow();
  });

  it("covers every scalar type", () => {
    type Scalars = Message<"perpx.test.Scalars"> & Record<string, unknown>;
    const types = [DOUBLE, FLOAT, INT64, UINT64, INT32, FIXED64, FIXED32, BOOL, STRING, BYTES, UINT32];
    const more = [SFIXED32, SFIXED64, SINT32, SINT64, ENUM];
    const table = wireMessage<Scalars>(
      "perpx.test.Scalars",
      [...types, ...more].map((type, i) => [i + 1, `f${type}`, type] as const),
    );
    const message = wireCreate(table, {} as never);
    expect(wireDecode(table, wireEncode(table, message))).toStrictEqual(message);
    const set = wireCreate(
      table,
      Object.fromEntries(
        [...types, ...more].map((t) => [
          `f${t}`,
          t === BOOL
            ? true
            : t === STRING
              ? "x"
              : t === BYTES
                ? new Uint8Array([1])
                : [INT64, UINT64, FIXED64, SFIXED64, SINT64].includes(t)
                  ? 5n
                  : 5,
        ]),
      ) as never,
    );
    expect(wireDecode(table, wireEncode(table, set))).toStrictEqual(set);
    // A negative zero double is not the zero value (protobuf-es compares with Object.is): written.
    expect([...wireEncode(table, wireCreate(table, { [`f${DOUBLE}`]: -0 } as never))]).toEqual([
      9, 0, 0, 0, 0, 0, 0, 0, 0x80,
    ]);
  });

  it("writes fields by number whatever order they are declared in, as toBinary does", () => {
    type Pair = Message<"perpx.test.Pair"> & { a: number; b: number };
    const table = wireMessage<Pair>("perpx.test.Pair", [
      [2, "b", UINT32],
      [1, "a", UINT32],
    ]);
    expect([...wireEncode(table, wireCreate(table, { a: 1, b: 2 } as never))]).toEqual([8, 1, 16, 2]);
  });
});
