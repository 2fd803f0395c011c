import { defineConfig, type Options } from "tsup";
import { deferCjsRequires } from "./scripts/defer-cjs-requires.mjs";

/** What a package's build may add to tsup's options. */
interface PackageBuildOptions extends Options {
  /**
   * Dependencies the CommonJS build loads on first use instead of at `require` time (specifier
   * prefixes, e.g. `@bufbuild/protobuf`); see `scripts/defer-cjs-requires.mjs`.
   */
  deferRequires?: readonly string[];
}

/**
 * The build every publishable package shares: ESM (`.js`) and CommonJS (`.cjs`) from `src/index.ts`,
 * each with its own declarations (`.d.ts` / `.d.cts`), so `import` and `require` both get types.
 */
export function packageBuild({ deferRequires, ...overrides }: PackageBuildOptions = {}) {
  const outDir = overrides.outDir ?? "dist";
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    splitting: false,
    treeshake: true,
    ...(deferRequires?.length
      ? {
          onSuccess: async () => {
            deferCjsRequires(outDir, (specifier) =>
              deferRequires.some((prefix) => specifier.startsWith(prefix)),
            );
          },
        }
      : {}),
    ...overrides,
  });
}
