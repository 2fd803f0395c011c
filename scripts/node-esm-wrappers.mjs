/**
 * Node's `import` of a package gets a thin ES module over the package's CommonJS build.
 *
 * An ES module graph cannot defer a static import: importing the real ESM build of
 * `@perpx/node-client` makes Node link and evaluate every file of protobuf-es, noble and scure
 * up front (about 100 ms of CPU here), while the CommonJS build defers them to first use
 * (`defer-cjs-requires.mjs`). So, for each entry `dist/<name>.cjs`, this writes
 * `dist/<name>.node.js`: it `require`s the CommonJS entry and re-exports its names. `package.json`
 * maps Node's `import` condition to it and keeps the real ESM build under the `module` condition,
 * which bundlers (esbuild, webpack, Rollup, Vite) prefer, so tree-shaking is unchanged.
 *
 * One instance per process follows as well: `import` and `require` of a package give the same
 * module (the dual-package hazard of Node's documentation does not arise), so classes such as
 * `PerpxError` are one class however the package was loaded.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The names a CommonJS module exports, read by loading it in a fresh process (no cache). */
function exportNames(file) {
  const child = spawnSync(
    process.execPath,
    ["-e", `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(file)}))))`],
    { encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(`cannot load ${file} to list its exports:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

/** The ES module source that re-exports the CommonJS entry `./<name>.cjs`. */
function wrapperSource(name, names) {
  const named = names.filter((key) => key !== "default" && key !== "__esModule");
  const invalid = named.filter((key) => !IDENTIFIER.test(key));
  if (invalid.length > 0) throw new Error(`${name}.cjs exports names that are not identifiers: ${invalid}`);
  const lines = [
    "// Node's `import` of this entry: the CommonJS build, which loads heavy dependencies on first use.",
    'import { createRequire } from "node:module";',
    `const cjs = createRequire(import.meta.url)("./${name}.cjs");`,
  ];
  if (named.length > 0) lines.push(`export const { ${named.join(", ")} } = cjs;`);
  if (names.includes("default")) lines.push("export default cjs.default;");
  return `${lines.join("\n")}\n`;
}

/**
 * Writes `dist/<name>.node.js` beside every `dist/<name>.cjs` entry named in `entries`.
 *
 * @param {string} outDir the build's output directory
 * @param {readonly string[]} entries entry names (`index`, `wallets`, ...)
 */
export function writeNodeEsmWrappers(outDir, entries) {
  for (const name of entries) {
    const cjs = resolve(outDir, `${name}.cjs`);
    if (!existsSync(cjs)) continue;
    writeFileSync(join(outDir, `${name}.node.js`), wrapperSource(name, exportNames(cjs)));
  }
}
