/**
 * The packages as they ship: a workspace package's built entry for `import` (its `exports["."]`),
 * loaded by Node itself, as `npm install` users load it. The rows that measure the devnet take it
 * from here, not from the TypeScript sources the tests run on: under vitest's module runner every
 * call from one module to another goes through an export getter, which cost the devnet about a
 * tenth of its CPU per order tx (interleaved runs of the RPC row), a cost no user pays.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const nativeImport = createRequire(import.meta.url)("./native-import.cjs") as (
  url: string,
) => Promise<unknown>;

/** The `import` entry of `exports["."]`: a path, or an object whose `default` is one. */
function importEntry(manifest: { exports?: Record<string, unknown> }): string | undefined {
  const entry = (manifest.exports?.["."] as { import?: unknown } | undefined)?.import;
  if (typeof entry === "string") return entry;
  const target = (entry as { default?: unknown } | undefined)?.default;
  return typeof target === "string" ? target : undefined;
}

/**
 * Loads the built package `packages/<name>` with Node's own `import()`.
 *
 * @param name - the package's folder, e.g. `"devnet"`.
 * @returns its module namespace; throws when it has no `import` entry or is not built.
 * @example
 * ```ts
 * const { startDevnet } = await shipped<typeof import("@perpx/devnet")>("devnet");
 * ```
 */
export async function shipped<T>(name: string): Promise<T> {
  const folder = new URL(`../../packages/${name}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL("package.json", folder), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  const entry = importEntry(manifest);
  if (entry === undefined) throw new Error(`packages/${name} has no "import" entry in its exports`);
  const file = fileURLToPath(new URL(entry, folder));
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (pnpm build)`);
  return (await nativeImport(pathToFileURL(file).href)) as T;
}
