/**
 * An esbuild plugin that makes chosen packages lazy in a bundle: their code runs at the first read
 * of one of their exports, not when the bundle loads.
 *
 * esbuild evaluates a bundled ES module, with everything it imports, when the bundle loads (or, for
 * one wrapped in a lazy initializer, when the first module importing it does). protobuf-es decodes
 * `google/protobuf/descriptor.proto` and a few well-known types then, milliseconds a program that
 * never touches protobuf pays at every start. With this plugin, an import of a listed specifier
 * from any module resolves to a stand-in in two parts:
 *
 * - an ES module (the facade) that re-exports, by name, every export of the real module from
 * - a CommonJS module (the loader) whose exports are getters: the first read of one `require`s the
 *   real module (the same bundled copy everything else uses: its path is the one esbuild resolved
 *   for the import, so it is never the stand-in again) and turns that export into a plain value
 *   (see {@link loaderSource} for how a use then costs a property load).
 *
 * esbuild reads an import from a CommonJS module as a property of it at each use, so nothing of
 * the real module runs until a value is used. The names are the real module's own, read at build
 * time (`Object.keys` of its namespace), so an upgrade that adds or drops one cannot go unnoticed:
 * the facade's exports are static, and an import of a name the real module lacks fails the build
 * as it would without the plugin. A module with a default export is refused (a CommonJS stand-in
 * cannot give it the same meaning). Exports become plain values at their first read, after the real
 * module has run: right for the functions, classes, constants and enum objects these packages
 * export, which never change once their module has run.
 */
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { Options } from "tsup";

/** An esbuild plugin: the type tsup's `esbuildPlugins` takes (esbuild is tsup's dependency). */
type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

/** The namespaces of the two stand-in modules; the path in each is the real module's file. */
const FACADE = "lazy-module";
const LOADER = "lazy-module-loader";

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
 * The source of the loader. Its exports object holds nothing of its own: the exports are getters on
 * its prototype, each of which, at its first read, loads the real module and becomes a plain value.
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
      real ??= require(${JSON.stringify(file)});
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
 *
 * @param specifiers - the packages or package entries to defer.
 */
export function lazyModules(specifiers: readonly string[]): EsbuildPlugin {
  return {
    name: "lazy-modules",
    setup(build) {
      /** Export names by real file: each module is imported once per build. */
      const exportsOf = new Map<string, Promise<string[]>>();
      const namesOf = (file: string) => {
        let names = exportsOf.get(file);
        if (names === undefined) {
          names = import(pathToFileURL(file).href).then((namespace: object) => Object.keys(namespace));
          exportsOf.set(file, names);
        }
        return names;
      };

      build.onResolve({ filter: exactly(specifiers) }, async (args) => {
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
        return { path: real.path, namespace: FACADE };
      });

      build.onLoad({ filter: /.*/, namespace: FACADE }, async (args) => {
        const names = await namesOf(args.path);
        if (names.includes("default")) {
          return { errors: [{ text: `lazy-modules: ${args.path} has a default export; load it as usual` }] };
        }
        return { contents: facadeSource(args.path, names), loader: "js" };
      });

      build.onResolve({ filter: new RegExp(`^${LOADER}:`), namespace: FACADE }, (args) => ({
        path: args.path.slice(LOADER.length + 1),
        namespace: LOADER,
      }));

      build.onLoad({ filter: /.*/, namespace: LOADER }, async (args) => ({
        contents: loaderSource(args.path, await namesOf(args.path)),
        loader: "js",
        resolveDir: dirname(args.path),
      }));
    },
  };
}
