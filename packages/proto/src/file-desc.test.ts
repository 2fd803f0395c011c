import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { fileDesc as codegenFileDesc, type GenFile } from "@bufbuild/protobuf/codegenv2";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { base64Decode } from "@bufbuild/protobuf/wire";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decodeFileDescriptorProto, fileDesc } from "./file-desc.js";
import { files } from "./gen/files.js";

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
  return { path, b64: match[1], bytes: base64Decode(match[1]) };
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

  test("decodes any file of messages, fields, enums and services to the messages fromBinary builds (property)", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const field = fc.record(
      {
        name,
        number: fc.integer({ min: 1, max: 536_870_911 }),
        label: fc.constantFrom(1, 2, 3),
        type: fc.constantFrom(
          ...Object.values(FieldDescriptorProto_Type).filter((v) => typeof v === "number"),
        ),
        typeName: fc.string({ maxLength: 12 }),
        jsonName: name,
        defaultValue: fc.string({ maxLength: 6 }),
        oneofIndex: fc.integer({ min: 0, max: 3 }),
        proto3Optional: fc.boolean(),
        options: fc.record({ deprecated: fc.boolean(), packed: fc.boolean() }, { requiredKeys: [] }),
      },
      { requiredKeys: ["name", "number"] },
    );
    const message = fc.letrec((tie) => ({
      message: fc.record(
        {
          name,
          field: fc.array(field, { maxLength: 4 }),
          nestedType: fc.oneof(
            { depthSize: "small" },
            fc.constant([]),
            fc.array(tie("message"), { maxLength: 2 }),
          ),
          enumType: fc.array(
            fc.record({ name, value: fc.array(fc.record({ name, number: fc.integer() }), { maxLength: 3 }) }),
            { maxLength: 2 },
          ),
          oneofDecl: fc.array(fc.record({ name }), { maxLength: 2 }),
          reservedName: fc.array(name, { maxLength: 2 }),
          options: fc.record({ deprecated: fc.boolean(), mapEntry: fc.boolean() }, { requiredKeys: [] }),
        },
        { requiredKeys: ["name"] },
      ),
    })).message;
    const file = fc.record(
      {
        name,
        package: name,
        dependency: fc.array(name, { maxLength: 3 }),
        messageType: fc.array(message, { maxLength: 3 }),
        service: fc.array(
          fc.record({
            name,
            method: fc.array(
              fc.record({ name, inputType: name, outputType: name, clientStreaming: fc.boolean() }),
              { maxLength: 2 },
            ),
          }),
          { maxLength: 2 },
        ),
        syntax: fc.constantFrom("proto2", "proto3", "editions"),
        options: fc.record(
          { javaPackage: name, goPackage: name, deprecated: fc.boolean() },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ["name"] },
    );
    fc.assert(
      fc.property(file, (init) => {
        const bytes = toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, init as never));
        expectSameTree(
          decodeFileDescriptorProto(bytes),
          fromBinary(FileDescriptorProtoSchema, bytes),
          "file",
        );
      }),
      { numRuns: 200 },
    );
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

/** What a file's descriptors are, by name: every type, field, value and method, as plain data. */
function summary(file: GenFile): unknown {
  return {
    name: file.proto.name,
    dependencies: file.dependencies.map((dep) => dep.proto.name),
    types: [...nestedTypes(file)].map((type) => {
      switch (type.kind) {
        case "message":
          return [
            type.typeName,
            type.fields.map((f) => [
              f.name,
              f.number,
              f.fieldKind,
              f.localName,
              f.jsonName,
              f.presence,
              f.oneof?.name,
              f.message?.typeName,
              f.enum?.typeName,
              f.scalar,
              f.fieldKind === "list" ? f.packed : undefined,
            ]),
          ];
        case "enum":
          return [type.typeName, type.values.map((v) => [v.name, v.number, v.localName])];
        case "service":
          return [
            type.typeName,
            type.methods.map((m) => [m.name, m.methodKind, m.input.typeName, m.output.typeName]),
          ];
        default:
          return [type.typeName, type.number, type.extendee.typeName];
      }
    }),
  };
}

/** Every descriptor object `file` points to: its imports and the types of its fields and methods. */
function references(file: GenFile): object[] {
  const out: object[] = [...file.dependencies];
  for (const type of nestedTypes(file)) {
    if (type.kind === "message") {
      for (const f of type.fields) out.push(...(f.message ? [f.message] : []), ...(f.enum ? [f.enum] : []));
    } else if (type.kind === "service") {
      for (const m of type.methods) out.push(m.input, m.output);
    }
  }
  return out;
}

describe("fileDesc over the imports", () => {
  const ours = files.map((file) => file());
  const b64ByName = new Map(embedded.map(({ b64, bytes }) => [decodeFileDescriptorProto(bytes).name, b64]));

  test("builds every generated file as codegenv2's fileDesc does, pointing at the very imported descriptors", () => {
    // codegenv2's own build of every file, over its own builds of the imports (the files of
    // protobuf-es, such as google/protobuf/*.proto, are shared)
    const theirs = new Map<string, GenFile>();
    const build = (file: GenFile): GenFile => {
      const b64 = b64ByName.get(file.proto.name);
      if (b64 === undefined) return file;
      let built = theirs.get(file.proto.name);
      if (built === undefined) {
        built = codegenFileDesc(b64, file.dependencies.map(build));
        theirs.set(file.proto.name, built);
      }
      return built;
    };
    expect(ours.length).toBeGreaterThan(80);
    const known = new Set<object>();
    for (const file of ours) {
      known.add(file);
      for (const type of nestedTypes(file)) known.add(type);
    }
    for (const file of ours) {
      expect(summary(file), file.proto.name).toEqual(summary(build(file)));
      for (const target of references(file)) {
        const external = "file" in target && !b64ByName.has((target.file as GenFile).proto.name);
        const externalFile = "proto" in target && !b64ByName.has((target as GenFile).proto.name);
        if (!external && !externalFile) expect(known.has(target), `${file.proto.name}: a copy`).toBe(true);
      }
    }
  });

  test("builds any graph of files as codegenv2's fileDesc does, over direct imports or the full way (property)", () => {
    const fileSpec = fc.record({
      deps: fc.array(fc.nat(), { maxLength: 3 }),
      publicDeps: fc.array(fc.nat(), { maxLength: 2 }),
      messages: fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(fileSpec, { minLength: 1, maxLength: 5 }), (specs) => {
        const ours: GenFile[] = [];
        const theirs: GenFile[] = [];
        const closure: Set<number>[] = [];
        specs.forEach((spec, i) => {
          const deps = i === 0 ? [] : [...new Set(spec.deps.map((d) => d % i))];
          closure[i] = new Set([i, ...deps.flatMap((d) => [...(closure[d] ?? [])])]);
          // a field may name a message of this file or of any file imported, directly or not
          const visible = [...(closure[i] ?? [])].flatMap((f) =>
            (specs[f]?.messages ?? []).map((_, m) => `.p.M${f}_${m}`),
          );
          const b64 = Buffer.from(
            toBinary(
              FileDescriptorProtoSchema,
              create(FileDescriptorProtoSchema, {
                name: `f${i}.proto`,
                package: "p",
                syntax: "proto3",
                dependency: deps.map((d) => `f${d}.proto`),
                publicDependency:
                  deps.length === 0 ? [] : [...new Set(spec.publicDeps.map((d) => d % deps.length))],
                messageType: spec.messages.map((refs, m) => ({
                  name: `M${i}_${m}`,
                  field: refs.map((ref, n) => ({
                    name: `f${n}`,
                    number: n + 1,
                    label: FieldDescriptorProto_Label.OPTIONAL,
                    type: FieldDescriptorProto_Type.MESSAGE,
                    typeName: visible[ref % visible.length] ?? "",
                  })),
                })),
              }),
            ),
          ).toString("base64");
          ours.push(
            fileDesc(
              b64,
              deps.map((d) => ours[d] as GenFile),
            ),
          );
          theirs.push(
            codegenFileDesc(
              b64,
              deps.map((d) => theirs[d] as GenFile),
            ),
          );
        });
        const known = new Set<object>(ours.flatMap((file) => [file, ...nestedTypes(file)]));
        ours.forEach((file, i) => {
          expect(summary(file)).toEqual(summary(theirs[i] as GenFile));
          for (const target of references(file)) expect(known.has(target)).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  test("builds a file that names a type of a public import's file, as codegenv2 does", () => {
    const b64Of = (proto: Parameters<typeof create<typeof FileDescriptorProtoSchema>>[1]) =>
      Buffer.from(toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, proto))).toString(
        "base64",
      );
    const a = b64Of({ name: "a.proto", package: "p", syntax: "proto3", messageType: [{ name: "A" }] });
    const b = b64Of({
      name: "b.proto",
      package: "p",
      syntax: "proto3",
      dependency: ["a.proto"],
      publicDependency: [0],
    });
    const c = b64Of({
      name: "c.proto",
      package: "p",
      syntax: "proto3",
      dependency: ["b.proto"],
      messageType: [
        {
          name: "C",
          field: [
            { name: "a", number: 1, label: 1, type: FieldDescriptorProto_Type.MESSAGE, typeName: ".p.A" },
          ],
        },
      ],
    });
    const ourA = fileDesc(a);
    const ourB = fileDesc(b, [ourA]);
    const ourC = fileDesc(c, [ourB]);
    const theirA = codegenFileDesc(a);
    const theirC = codegenFileDesc(c, [codegenFileDesc(b, [theirA])]);
    expect(summary(ourC)).toEqual(summary(theirC));
    expect(ourC.messages[0]?.fields[0]?.message).toBe(ourA.messages[0]);
    expect(ourC.dependencies).toEqual([ourB]);
    expect(ourC.dependencies[0]).toBe(ourB);
  });
});
