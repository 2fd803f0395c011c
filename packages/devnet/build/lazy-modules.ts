/**
 * An esbuild plugin that makes chosen packages lazy in a bundle: their code runs at the first read
 * of one of their exports, not when the bundle loads.
 *
 * esbuild evaluates a bundled ES module, with everything it imports, when the bundle loads (or, for
 * one wrapped in a lazy initializer, when the first module importing it does). protobuf-es decodes
 * `google/protobuf/descriptor.proto` and a few well-known types then, milliseconds a program that
 * never touches protobuf pays at every start. With this plugin, an import of a listed specifier
 * from any module resolves to a stand-in in three parts:
 *
 * - an ES module (the facade) that re-exports, by name, the real module's exports the bundle uses,
 *   from
 * - a CommonJS module (the loader) whose exports are getters: the first read of one `require`s
 *   the picker and turns that export into a plain value (see {@link loaderSource} for how a use
 *   then costs a property load);
 * - an ES module (the picker) that re-exports those names from the real module: the same bundled
 *   copy everything else uses (its path is the one esbuild resolved for the import, so it is never
 *   the stand-in again), and only the parts of it that define them (a `require` of the real module
 *   itself keeps all of it: in the command line's bundle, 61 KB more, and ~5 ms more CPU in a
 *   start, 14 interleaved starts).
 *
 * esbuild reads an import from a CommonJS module as a property of it at each use, so nothing of
 * the real module runs until a value is used. The names are never listed by hand: a first pass
 * builds the same bundle with these packages external and reads which names its code imports
 * (`imported-names.ts`); a module used as a whole (a namespace import, `export *`) gets every
 * export of the real module, read at build time (`Object.keys` of its namespace). An import of a
 * name the real module lacks fails the build, as without the plugin (the picker's re-export has
 * nothing to bind). A module used by its default export is refused (a CommonJS stand-in cannot
 * give it the same meaning). Exports become plain values at their first read, after the real
 * module has run: right for the functions, classes, constants and enum objects these packages
 * export, which never change once their module has run.
 */
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { type EsbuildPlugin, EVERY_EXPORT, importedNames } from "./imported-names.js";

const PLUGIN = "lazy-modules";

/** The namespaces of the stand-in modules; the path in each is the real module's file. */
const FACADE = "lazy-module";
const LOADER = "lazy-module-loader";
const PICKER = "lazy-module-picker";

/** Marks the plugin's own resolution of a specifier, which must find the real module. */
const REAL = { lazyModulesReal: true };

/** The escaped alternatives of a regular expression matching exactly one of `specifiers`. */
function exactly(specifiers: readonly string[]): RegExp {
  const escaped = specifiers.map((specifier) => specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(`^(?:${escaped.join("|")})$`);
}

/** The source of the facade: the real module's exports, by name, from the loader. */
function facadeSource(file: string, names: readonly string[]): string {
  return `export { ${names.join(", ")} } from ${JSON.stringify(`${LOADER}:${file}`)};\n`;
}

/**
 * The source of the picker, which the loader requires: only the names the bundle uses, from the
 * real module, so esbuild leaves out the exports nothing uses.
 */
function pickerSource(file: string, names: readonly string[]): string {
  return `export { ${names.join(", ")} } from ${JSON.stringify(file)};\n`;
}

/**
 * The source of the loader. Its exports object holds nothing of its own: the exports are getters on
 * its prototype, each of which, at its first read, loads the picker (so the real module) and becomes
 * a plain value.
 * An import reads through esbuild's `__toESM` wrapper, which inherits from the module's prototype
 * and copies only own properties (as getters): so after the first read, a use is a plain property
 * load, not a getter call. On a create/toBinary/fromBinary loop, against direct calls: 1.04x;
 * getters on the exports object itself 1.11x (the wrapper's getter stays); a getter that reads the
 * real module at every call 1.46x.
 */
function loaderSource(file: string, names: readonly string[]): string {
  return `"use strict";
let real;
const values = {};
for (const name of ${JSON.stringify(names)}) {
  Object.defineProperty(values, name, {
    configurable: true,
    enumerable: true,
    get() {
      real ??= require(${JSON.stringify(`${PICKER}:${file}`)});
      const value = real[name];
      Object.defineProperty(values, name, { value });
      return value;
    },
  });
}
module.exports = Object.create(values);
`;
}

/**
 * The plugin: every import of one of `specifiers` (exact package specifiers, such as
 * `@bufbuild/protobuf` or `@bufbuild/protobuf/wkt`) loads its module on the first read of an export.
 * It builds the bundle once more first (`imported-names.ts`), to learn which names the code uses.
 *
 * @param specifiers - the packages or package entries to defer.
 */
export function lazyModules(specifiers: readonly string[]): EsbuildPlugin {
  const filter = exactly(specifiers);
  return {
    name: PLUGIN,
    setup(build) {
      let used: ReturnType<typeof importedNames> | undefined;
      /** The specifiers that resolved to each real file. */
      const specifiersOf = new Map<string, Set<string>>();
      /**
       * The names the bundle uses, by real file: those of the specifiers resolved to it when its
       * facade loads (should another resolve to it later, with other names, the build fails on them).
       */
      const namesByFile = new Map<string, Promise<string[]>>();
      build.onStart(() => {
        specifiersOf.clear();
        namesByFile.clear();
        used = importedNames(build, filter, PLUGIN);
        // Reported by the facades' loads, which wait for it; unawaited when none loads.
        used.catch(() => undefined);
      });
      const namesOf = (file: string) => {
        let names = namesByFile.get(file);
        if (names === undefined) {
          names = (async () => {
            const found = new Set<string>();
            const imported = await used;
            for (const specifier of specifiersOf.get(file) ?? []) {
              for (const name of imported?.get(specifier) ?? []) found.add(name);
            }
            if (!found.has(EVERY_EXPORT)) return [...found].sort();
            return Object.keys(await import(pathToFileURL(file).href));
          })();
          namesByFile.set(file, names);
        }
        return names;
      };

      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === REAL) return undefined;
        const real = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: REAL,
        });
        if (real.errors.length > 0) return { errors: real.errors };
        // Left to esbuild (which resolves it again, the same way) unless it is a bundled file.
        if (real.external || real.namespace !== "file") return undefined;
        specifiersOf.set(real.path, new Set([...(specifiersOf.get(real.path) ?? []), args.path]));
        return { path: real.path, namespace: FACADE };
      });

      build.onLoad({ filter: /.*/, namespace: FACADE }, async (args) => {
        const names = await namesOf(args.path);
        if (names.includes("default")) {
          return {
            errors: [{ text: `${PLUGIN}: ${args.path} is used by its default export; load it as usual` }],
          };
        }
        return { contents: facadeSource(args.path, names), loader: "js" };
      });

      build.onResolve({ filter: new RegExp(`^(${LOADER}|${PICKER}):`) }, (args) => {
        const at = args.path.indexOf(":");
        return { path: args.path.slice(at + 1), namespace: args.path.slice(0, at) };
      });

      build.onLoad({ filter: /.*/, namespace: LOADER }, async (args) => ({
        contents: loaderSource(args.path, await namesOf(args.path)),
        loader: "js",
      }));

      build.onLoad({ filter: /.*/, namespace: PICKER }, async (args) => ({
        contents: pickerSource(args.path, await namesOf(args.path)),
        loader: "js",
        resolveDir: dirname(args.path),
      }));
    },
  };
}
