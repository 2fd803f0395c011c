/**
 * The one mapping of `@perpx/*` imports to TypeScript source that the tests run on: vitest's
 * `resolve.alias` (vitest.config.ts) and the esbuild plugin of the browser tests
 * (./source-plugin.ts) both take these entries.
 */
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One alias: an import specifier that matches `find` resolves to `specifier.replace(find, replacement)`. */
export interface SourceAlias {
  find: RegExp;
  replacement: string;
}

const packagesDir = fileURLToPath(new URL("../../packages/", import.meta.url));

/** The folder names of the workspace's packages (those with a package.json). */
export const packageNames: readonly string[] = readdirSync(packagesDir).filter((name) =>
  existsSync(`${packagesDir}${name}/package.json`),
);

/**
 * `@perpx/<name>` resolves to `packages/<name>/src/index.ts`, and a subpath `@perpx/<name>/<entry>`
 * to `packages/<name>/src/<entry>.ts`.
 */
export const sourceAliases: readonly SourceAlias[] = [
  ...packageNames.map((name) => ({
    find: new RegExp(`^@perpx/${name}$`),
    replacement: `${packagesDir}${name}/src/index.ts`,
  })),
  { find: /^@perpx\/([\w-]+)\/([\w-]+)$/, replacement: `${packagesDir}$1/src/$2.ts` },
];

/**
 * The source file an `@perpx/*` specifier resolves to, by the first alias that matches it.
 *
 * @param specifier - an import specifier, such as `@perpx/core` or `@perpx/core/evm`.
 * @returns the absolute path of the TypeScript source, or undefined when no alias matches.
 */
export function sourceOf(specifier: string): string | undefined {
  const alias = sourceAliases.find(({ find }) => find.test(specifier));
  return alias && specifier.replace(alias.find, alias.replacement);
}
