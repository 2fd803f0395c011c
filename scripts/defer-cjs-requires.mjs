/**
 * Defers heavy dependencies in a package's CommonJS build until first use.
 *
 * esbuild writes every external import of a CommonJS bundle as a module-level
 * `var name = require('specifier');` and reads it as `name.member` where the import is used. For
 * each such line whose specifier matches, this rewrites the value to a stand-in that `require`s the
 * module on the first read of any member and then puts the module itself in `name`, so later reads
 * cost what they did before. `@bufbuild/protobuf`'s entry decodes its built-in descriptors when it
 * loads and noble precomputes curve tables: deferred, a process that only imports the SDK does not
 * pay for them. The line count is unchanged, so the source maps stay valid.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const HELPER = "__perpxDeferredRequire";

// The stand-in: every read goes to the loaded module (the loader also rebinds the bundle's variable).
const helperSource = `
function ${HELPER}(load) {
  return new Proxy(Object.create(null), {
    get: (_, key) => load()[key],
    has: (_, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      if (descriptor) descriptor.configurable = true;
      return descriptor;
    },
  });
}
`;

const requireLine = /^var ([A-Za-z_$][\w$]*) = require\('([^']+)'\);$/gm;

// Rollup reads a namespace import (`import * as Hex from "ox/Hex"`) through
// `var Hex__namespace = /*#__PURE__*/_interopNamespace(Hex);`, which asks the module for
// `__esModule` when the bundle loads: that read alone would load a deferred module. For a deferred
// name, the namespace becomes a stand-in too, built by the same helper on its first read.
const namespaceLine =
  /^var ([A-Za-z_$][\w$]*) = \/\*#__PURE__\*\/_interopNamespace\(([A-Za-z_$][\w$]*)\);$/gm;

/**
 * Rewrites the `.cjs` files of a build directory (recursively).
 *
 * @param dir - the build output, e.g. `dist`.
 * @param matches - which specifiers to defer.
 * @returns how many requires were deferred.
 */
export function deferCjsRequires(dir, matches) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      count += deferCjsRequires(path, matches);
      continue;
    }
    if (!entry.name.endsWith(".cjs")) continue;
    const source = readFileSync(path, "utf8");
    let changed = 0;
    const deferred = new Set();
    const rewritten = source
      .replace(requireLine, (line, name, specifier) => {
        if (!matches(specifier)) return line;
        changed += 1;
        deferred.add(name);
        return `var ${name} = ${HELPER}(() => (${name} = require(${JSON.stringify(specifier)})));`;
      })
      .replace(namespaceLine, (line, namespace, name) =>
        deferred.has(name)
          ? `var ${namespace} = ${HELPER}(() => (${namespace} = _interopNamespace(${name})));`
          : line,
      );
    if (changed === 0) continue;
    const mapAt = rewritten.lastIndexOf("\n//# sourceMappingURL=");
    const withHelper =
      mapAt < 0
        ? rewritten + helperSource
        : rewritten.slice(0, mapAt) + helperSource.trimEnd() + rewritten.slice(mapAt);
    writeFileSync(path, withHelper);
    count += changed;
  }
  return count;
}
