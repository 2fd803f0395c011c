/**
 * Which names a bundle imports from chosen packages, after esbuild's tree shaking.
 *
 * A first pass builds the same bundle (the same entries and options) as an ES module with those
 * packages external: esbuild then writes, for each, the `import { a, b } from "package"` statements
 * of the code it kept, which this reads back. A namespace import, an `export *`, a default import, a
 * dynamic `import()` or a `require` of one counts as {@link EVERY_EXPORT}.
 */
import type { Options } from "tsup";

/** An esbuild plugin: the type tsup's `esbuildPlugins` takes (esbuild is tsup's dependency). */
export type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

/** What an esbuild plugin's `setup` receives: the build, its options and esbuild's API. */
type PluginBuild = Parameters<EsbuildPlugin["setup"]>[0];

/** Stands for every export of a module, among the names of a module the bundle uses as a whole. */
export const EVERY_EXPORT = "*";

/** `export { a, b as c }` / `import { a as b }` clause entries: the exported name of each. */
function namedList(clause: string): string[] {
  return clause
    .slice(1, -1)
    .split(",")
    .map((entry) => entry.trim().split(/\s+/)[0] ?? "")
    .filter((name) => name !== "");
}

/**
 * The names the ES module `code` imports (or re-exports) from each specifier `wanted` accepts.
 *
 * @param code - esbuild's output, unminified.
 * @param wanted - which specifiers to report.
 */
export function namesImportedBy(
  code: string,
  wanted: (specifier: string) => boolean,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (specifier: string, names: readonly string[]) => {
    if (!wanted(specifier)) return;
    const set = found.get(specifier) ?? new Set<string>();
    for (const name of names) set.add(name);
    found.set(specifier, set);
  };
  for (const [, clause = "", specifier = ""] of code.matchAll(
    /\b(?:import|export)\s*([^;"'`]*?)\s*from\s*"([^"]+)"/g,
  )) {
    add(specifier, /^\{[^}]*\}$/.test(clause) ? namedList(clause) : [EVERY_EXPORT]);
  }
  for (const [, specifier = ""] of code.matchAll(/\b(?:import|require)\(\s*"([^"]+)"\s*\)/g)) {
    add(specifier, [EVERY_EXPORT]);
  }
  return found;
}

/**
 * Builds what `build` builds, as an ES module with the specifiers `filter` matches external, and
 * returns the names its code imports from each.
 *
 * @param build - the build a plugin is set up in.
 * @param filter - the specifiers to report (exact matches).
 * @param pluginName - the calling plugin, left out of the first pass.
 */
export async function importedNames(
  build: PluginBuild,
  filter: RegExp,
  pluginName: string,
): Promise<Map<string, Set<string>>> {
  const { plugins = [], ...options } = build.initialOptions;
  const external: EsbuildPlugin = {
    name: `${pluginName}-first-pass`,
    setup(first) {
      first.onResolve({ filter }, (args) => ({ path: args.path, external: true }));
    },
  };
  const result = await build.esbuild.build({
    ...options,
    plugins: [external, ...plugins.filter((plugin) => plugin.name !== pluginName)],
    format: "esm",
    write: false,
    metafile: false,
    sourcemap: false,
    minify: false,
    minifyWhitespace: false,
    minifyIdentifiers: false,
    minifySyntax: false,
    logLevel: "silent",
  });
  const names = new Map<string, Set<string>>();
  for (const file of result.outputFiles ?? []) {
    if (!/\.[cm]?js$/.test(file.path)) continue;
    for (const [specifier, found] of namesImportedBy(file.text, (specifier) => filter.test(specifier))) {
      names.set(specifier, new Set([...(names.get(specifier) ?? []), ...found]));
    }
  }
  return names;
}
