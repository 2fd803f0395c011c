import { defineConfig, type Options } from "tsup";
import { deferCjsRequires } from "./scripts/defer-cjs-requires.mjs";
import { writeNodeEsmWrappers } from "./scripts/node-esm-wrappers.mjs";

/** What a package's build may add to tsup's options. */
interface PackageBuildOptions extends Options {
  /**
   * Dependencies the CommonJS build loads on first use instead of at `require` time (specifier
   * prefixes, e.g. `@bufbuild/protobuf`); see `scripts/defer-cjs-requires.mjs`.
   */
  deferRequires?: readonly string[];
  /**
   * Write Node's `import` wrappers over the CommonJS entries (`scripts/node-esm-wrappers.mjs`).
   * @default true when the build writes CommonJS
   */
  nodeImportWrappers?: boolean;
  /**
   * Entries that run a program when loaded (a CLI): they get no wrapper, since listing an entry's
   * exports loads it.
   */
  programEntries?: readonly string[];
}

/** The output names of tsup's `entry` option: `src/wallets.ts` and `{ wallets: ... }` give `wallets`. */
function entryNames(entry: Options["entry"]): string[] {
  if (entry === undefined) return ["index"];
  const files = Array.isArray(entry) ? entry : Object.keys(entry);
  return files.map((file) => file.replace(/^.*\//, "").replace(/\.[cm]?[jt]sx?$/, ""));
}

/**
 * The build every publishable package shares: ESM (`.js`) and CommonJS (`.cjs`) from `src/index.ts`,
 * each with its own declarations (`.d.ts` / `.d.cts`), so `import` and `require` both get types.
 * A CommonJS build also gets Node's `import` wrappers (`<entry>.node.js`, see
 * `scripts/node-esm-wrappers.mjs`), and the real ESM build is the bundlers' (`module` condition).
 */
export function packageBuild({
  deferRequires,
  nodeImportWrappers = true,
  programEntries = [],
  ...overrides
}: PackageBuildOptions = {}) {
  const outDir = overrides.outDir ?? "dist";
  const format = overrides.format ?? ["esm", "cjs"];
  const writesCjs = Array.isArray(format) ? format.includes("cjs") : format === "cjs";
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    splitting: false,
    treeshake: true,
    ...(writesCjs
      ? {
          onSuccess: async () => {
            if (deferRequires?.length) {
              deferCjsRequires(outDir, (specifier) =>
                deferRequires.some((prefix) => specifier.startsWith(prefix)),
              );
            }
            if (nodeImportWrappers) {
              const entries = entryNames(overrides.entry).filter((name) => !programEntries.includes(name));
              writeNodeEsmWrappers(outDir, entries);
            }
          },
        }
      : {}),
    ...overrides,
  });
}
