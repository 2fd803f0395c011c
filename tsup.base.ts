import { defineConfig, type Options } from "tsup";

/**
 * The build every publishable package shares: ESM (`.js`) and CommonJS (`.cjs`) from `src/index.ts`,
 * each with its own declarations (`.d.ts` / `.d.cts`), so `import` and `require` both get types.
 */
export function packageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    splitting: false,
    treeshake: true,
    ...overrides,
  });
}
