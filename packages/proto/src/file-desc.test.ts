import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { fileDesc as codegenFileDesc } from "@bufbuild/protobuf/codegenv2";
import { base64Decode } from "@bufbuild/protobuf/wire";
import {
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import { decodeFileDescriptorProto, fileDesc } from "./file-desc.js";

const genDir = fileURLToPath(new URL("./gen", import.meta.url));

/** Every `*_pb.ts` under `dir` with its text. */
function generated(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return generated(path);
    return entry.name.endsWith("_pb.ts") ? [{ path, text: readFileSync(path, "utf8") }] : [];
  });
}

const pbFiles = generated(genDir);
const embedded = pbFiles.map(({ path, text }) => {
  const match = /fileDesc\("([^"]*)"/.exec(text);
  if (match?.[1] === undefined) throw new Error(`${path}: no embedded descriptor`);
  return { path, bytes: base64Decode(match[1]) };
});

/**
 * Asserts that `a` and `b` are the same tree: same prototypes, own keys in the same order, equal
 * leaves (bytes by content).
 */
function expectSameTree(a: unknown, b: unknown, at: string): void {
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    expect(a instanceof Uint8Array && b instanceof Uint8Array, at).toBe(true);
    expect(Array.from(a as Uint8Array), at).toEqual(Array.from(b as Uint8Array));
    return;
  }
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    expect(a, at).toBe(b);
    return;
  }
  expect(Object.getPrototypeOf(a), `${at}: prototype`).toBe(Object.getPrototypeOf(b));
  expect(Reflect.ownKeys(a), `${at}: keys`).toEqual(Reflect.ownKeys(b));
  for (const key of Reflect.ownKeys(a)) {
    expectSameTree(Reflect.get(a, key), Reflect.get(b, key), `${at}.${String(key)}`);
  }
}

describe("decodeFileDescriptorProto", () => {
  test("decodes every embedded descriptor to the very messages fromBinary builds", () => {
    expect(embedded.length).toBeGreaterThan(80);
    for (const { path, bytes } of embedded) {
      expectSameTree(decodeFileDescriptorProto(bytes), fromBinary(FileDescriptorProtoSchema, bytes), path);
    }
  });

  test("keeps unknown fields as fromBinary does, and leaves what it does not cover to it", () => {
    const field = create(FieldDescriptorProtoSchema, {
      name: "x",
      number: 1,
      type: FieldDescriptorProto_Type.INT32,
    });
    const file = create(FileDescriptorProtoSchema, {
      name: "x.proto",
      messageType: [{ name: "X", field: [field] }],
    });
    const plain = toBinary(FileDescriptorProtoSchema, file);
    // an unknown varint, a fixed32 and a length-delimited field (as custom options are)
    const unknown = new Uint8Array([
      ...plain,
      0xf8,
      0x3e,
      0x05,
      0xfd,
      0x3e,
      1,
      2,
      3,
      4,
      0xf2,
      0x3e,
      0x02,
      0x61,
      0x62,
    ]);
    // a closed enum's unknown value (field type 99), and a group
    const enumBytes = toBinary(
      FileDescriptorProtoSchema,
      create(FileDescriptorProtoSchema, {
        messageType: [{ field: [{ ...field, type: 99 as FieldDescriptorProto_Type }] }],
      }),
    );
    const group = new Uint8Array([...plain, 0xfb, 0x3e, 0x08, 0x01, 0xfc, 0x3e]);
    for (const bytes of [plain, unknown, enumBytes, group]) {
      expectSameTree(decodeFileDescriptorProto(bytes), fromBinary(FileDescriptorProtoSchema, bytes), "file");
    }
    expect(decodeFileDescriptorProto(unknown).$unknown?.map((f) => f.no)).toEqual([1007, 1007, 1006]);
    expect(decodeFileDescriptorProto(enumBytes).messageType[0]?.field[0]?.$unknown?.[0]?.no).toBe(5);
  });

  test("rejects what fromBinary rejects", () => {
    const truncated = embedded[0]?.bytes.subarray(0, 20) ?? new Uint8Array();
    expect(() => decodeFileDescriptorProto(truncated)).toThrow();
    expect(() => fromBinary(FileDescriptorProtoSchema, truncated)).toThrow();
  });
});

describe("fileDesc", () => {
  test("every generated file hydrates its descriptor with this fileDesc", () => {
    for (const { path, text } of pbFiles) {
      expect(text, path).toMatch(/^import \{ fileDesc \} from "(\.\.\/)+file-desc\.js";$/m);
      expect(text, path).not.toMatch(
        /import \{[^}]*\bfileDesc\b[^}]*\} from "@bufbuild\/protobuf\/codegenv2"/,
      );
    }
  });

  test("builds the descriptor codegenv2's fileDesc builds", () => {
    const b64 = "Chtnb29nbGUvcHJvdG9idWYvZW1wdHkucHJvdG8SD2dvb2dsZS5wcm90b2J1ZiIHCgVFbXB0eWIGcHJvdG8z";
    const ours = fileDesc(b64);
    const theirs = codegenFileDesc(b64);
    expect(toBinary(FileDescriptorProtoSchema, ours.proto)).toEqual(
      toBinary(FileDescriptorProtoSchema, theirs.proto),
    );
    expect(ours.messages.map((m) => [m.typeName, m.fields.map((f) => f.jsonName)])).toEqual(
      theirs.messages.map((m) => [m.typeName, m.fields.map((f) => f.jsonName)]),
    );
  });
});
