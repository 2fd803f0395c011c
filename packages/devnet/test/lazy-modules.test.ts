/**
 * The command line's esbuild plugin that loads chosen packages on first use (`build/lazy-modules.ts`),
 * on small bundles built with tsup (esbuild) as the program's build does: fixture packages (one
 * counts its module's runs) and protobuf-es itself; and its reading of the names a bundle
 * imports (`build/imported-names.ts`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { build } from "tsup";
import { afterAll, describe, expect, it } from "vitest";
import { EVERY_EXPORT, namesImportedBy } from "../build/imported-names.js";
import { lazyModules } from "../build/lazy-modules.js";

/** What the fixture package's module records: how many times it ran. */
interface FixtureLog {
  runs: number;
}

declare global {
  var lazyModulesFixture: FixtureLog | undefined;
}

globalThis.lazyModulesFixture = { runs: 0 };

/** The fixture package's exports, as the bundles below hand them out. */
interface Fixture {
  Thing: new (value: number) => { value: number };
  Kind: { A: number; B: number };
  make(value: number): { value: number };
}

const require = createRequire(import.meta.url);
const devnetModules = fileURLToPath(new URL("../node_modules", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "perpx-lazy-modules-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (path relative to the fixture directory: source). */
function write(files: Record<string, string>): void {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
}

write({
  "node_modules/counted/package.json": JSON.stringify({
    name: "counted",
    type: "module",
    exports: "./index.js",
  }),
  "node_modules/counted/index.js": [
    "globalThis.lazyModulesFixture.runs += 1;",
    "export class Thing { constructor(value) { this.value = value; } }",
    "export const Kind = { A: 0, B: 1 };",
    "export function make(value) { return new Thing(value); }",
  ].join("\n"),
  "node_modules/parts/package.json": JSON.stringify({ name: "parts", type: "module", sideEffects: false }),
  "node_modules/parts/index.js": 'export * from "./used.js";\nexport * from "./unused.js";\n',
  "node_modules/parts/used.js": 'export function used() { return "kept in"; }\n',
  "node_modules/parts/unused.js": 'export function unused() { return "left out"; }\n',
  "node_modules/with-default/package.json": JSON.stringify({ name: "with-default", type: "module" }),
  "node_modules/with-default/index.js": "export default 1;\n",
});

/**
 * Bundles `entry` (a fixture file) into one CommonJS file with the plugin deferring `specifiers`,
 * and returns its path.
 */
async function bundle(entry: string, specifiers: readonly string[]): Promise<string> {
  const name = entry.replace(/\W/g, "-");
  await build({
    config: false,
    entry: { [name]: join(dir, entry) },
    outDir: join(dir, "dist"),
    outExtension: () => ({ js: ".cjs" }),
    format: ["cjs"],
    platform: "node",
    target: "node20",
    silent: true,
    treeshake: false,
    noExternal: [/.*/],
    esbuildPlugins: [lazyModules(specifiers)],
    esbuildOptions(options) {
      // protobuf-es is the devnet's dependency: the fixtures outside the package resolve it there.
      options.nodePaths = [devnetModules];
      options.logLevel = "silent";
    },
  });
  // The plugin imported the real modules to read their export names: in this process, which the
  // bundle shares, so the fixture's count starts after the build.
  globalThis.lazyModulesFixture = { runs: 0 };
  return join(dir, "dist", `${name}.cjs`);
}

function runs(): number {
  return globalThis.lazyModulesFixture?.runs ?? Number.NaN;
}

describe("lazyModules", () => {
  it("runs a deferred module at the first read of an export, once, with its values' identity kept", async () => {
    write({
      "first-read/a.js":
        'import { Kind, make, Thing } from "counted";\nexport const useA = () => ({ Kind, made: make(2), Thing });\n',
      "first-read/b.js": 'import * as counted from "counted";\nexport const useB = () => counted;\n',
      "first-read/entry.js": 'export { useA } from "./a.js";\nexport { useB } from "./b.js";\n',
    });
    const file = await bundle("first-read/entry.js", ["counted"]);
    const program = require(file) as { useA(): Fixture & { made: { value: number } }; useB(): Fixture };
    expect(runs()).toBe(0);

    const a = program.useA();
    expect(runs()).toBe(1);
    expect(a.made).toBeInstanceOf(a.Thing);
    expect(a.made.value).toBe(2);
    expect(a.Kind).toEqual({ A: 0, B: 1 });

    const again = program.useA();
    const b = program.useB();
    expect(runs()).toBe(1);
    expect(again.Thing).toBe(a.Thing);
    expect(again.Kind).toBe(a.Kind);
    expect(b.Thing).toBe(a.Thing);
    expect(b.Kind).toBe(a.Kind);
    expect(b.make(3)).toBeInstanceOf(a.Thing);
    // Every export of the real module, by the names it has (read when building).
    expect(Object.keys(b).sort()).toEqual(["Kind", "Thing", "make"]);
  });

  it("loads the bundled real module: an import of its file and of the package share one copy", async () => {
    write({
      "one-copy/entry.js": [
        'import { Thing } from "counted";',
        'import { Thing as Direct } from "../node_modules/counted/index.js";',
        "export const classes = () => [Thing, Direct];",
      ].join("\n"),
    });
    const program = require(await bundle("one-copy/entry.js", ["counted"])) as {
      classes(): [unknown, unknown];
    };
    const [viaStandIn, direct] = program.classes();
    expect(viaStandIn).toBe(direct);
    expect(runs()).toBe(1);
  });

  it("leaves out the exports of a deferred module that the bundle does not use", async () => {
    write({ "parts/entry.js": 'import { used } from "parts";\nexport const value = () => used();\n' });
    const file = await bundle("parts/entry.js", ["parts"]);
    const program = require(file) as { value(): string };
    expect(program.value()).toBe("kept in");
    expect(readFileSync(file, "utf8")).not.toContain("left out");
  });

  it("fails the build on an import of a name the real module does not export", async () => {
    write({ "missing/entry.js": 'import { Thing, Missing } from "counted";\nexport { Thing, Missing };\n' });
    await expect(bundle("missing/entry.js", ["counted"])).rejects.toThrow(/No matching export .* "Missing"/);
  });

  it("refuses a module with a default export", async () => {
    write({ "default/entry.js": 'import one from "with-default";\nexport const value = () => one;\n' });
    await expect(bundle("default/entry.js", ["with-default"])).rejects.toThrow(/default export/);
  });

  it("defers protobuf-es: messages encode and decode through the stand-ins", async () => {
    write({
      "protobuf/entry.js": [
        'import { create, fromBinary, isMessage, toBinary } from "@bufbuild/protobuf";',
        'import { TimestampSchema } from "@bufbuild/protobuf/wkt";',
        'import { messageDesc } from "@bufbuild/protobuf/codegenv2";',
        "export function roundTrip() {",
        "  const bytes = toBinary(TimestampSchema, create(TimestampSchema, { seconds: 5n, nanos: 7 }));",
        "  const back = fromBinary(TimestampSchema, bytes);",
        "  return { back, bytes, isTimestamp: isMessage(back, TimestampSchema), same: messageDesc(TimestampSchema.file, 0) === TimestampSchema };",
        "}",
      ].join("\n"),
    });
    const file = await bundle("protobuf/entry.js", [
      "@bufbuild/protobuf",
      "@bufbuild/protobuf/wkt",
      "@bufbuild/protobuf/codegenv2",
    ]);
    const program = require(file) as {
      roundTrip(): {
        back: { seconds: bigint; nanos: number };
        bytes: Uint8Array;
        isTimestamp: boolean;
        same: boolean;
      };
    };
    const result = program.roundTrip();
    expect([...result.bytes]).toEqual([8, 5, 16, 7]);
    expect(result.back.seconds).toBe(5n);
    expect(result.back.nanos).toBe(7);
    expect(result.isTimestamp).toBe(true);
    expect(result.same).toBe(true);
  });
});

describe("namesImportedBy", () => {
  const wanted = (specifier: string) => specifier.startsWith("pkg");

  it("reads named imports and re-exports; a module used as a whole counts as every export", () => {
    const code = [
      'import { a, b as b2 } from "pkg";',
      'import {\n  c,\n  d as d2\n} from "pkg/sub";',
      'export { e as e2 } from "pkg";',
      'import * as whole from "pkg/whole";',
      'import { z } from "other";',
      'const lazy = import("pkg/dynamic");',
    ].join("\n");
    expect(namesImportedBy(code, wanted)).toEqual(
      new Map([
        ["pkg", new Set(["a", "b", "e"])],
        ["pkg/sub", new Set(["c", "d"])],
        ["pkg/whole", new Set([EVERY_EXPORT])],
        ["pkg/dynamic", new Set([EVERY_EXPORT])],
      ]),
    );
  });

  it("finds every name of any number of import statements, however laid out", () => {
    const identifier = fc.stringMatching(/^[A-Za-z_$][\w$]{0,8}$/);
    const statement = fc.record({
      specifier: fc.constantFrom("pkg", "pkg/a", "other"),
      names: fc.uniqueArray(
        fc.record({ name: identifier, alias: fc.option(identifier, { nil: undefined }) }),
        {
          minLength: 1,
          maxLength: 6,
          selector: (entry) => entry.name,
        },
      ),
      separator: fc.constantFrom(", ", ",", ",\n  "),
      keyword: fc.constantFrom("import", "export"),
    });
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 8 }), (statements) => {
        const code = statements
          .map(({ specifier, names, separator, keyword }) => {
            const list = names.map(({ name, alias }) => (alias === undefined ? name : `${name} as ${alias}`));
            return `${keyword} { ${list.join(separator)} } from "${specifier}";`;
          })
          .join("\n");
        const expected = new Map<string, Set<string>>();
        for (const { specifier, names } of statements) {
          if (!wanted(specifier)) continue;
          const set = expected.get(specifier) ?? new Set<string>();
          for (const { name } of names) set.add(name);
          expected.set(specifier, set);
        }
        expect(namesImportedBy(code, wanted)).toEqual(expected);
      }),
    );
  });
});
