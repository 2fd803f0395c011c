/**
 * An esbuild plugin that resolves every `@perpx/<package>` and `@perpx/<package>/<subpath>` import to
 * the package's TypeScript source through vitest's own aliases (./source-alias.ts), for the browser
 * tests that bundle a page.
 */
import { sourceOf } from "./source-alias.js";

/** The part of esbuild's plugin interface this plugin uses (the tests folder does not depend on esbuild). */
interface SourcePlugin {
  name: string;
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string }) => { path: string } | undefined,
    ): void;
  }): void;
}

/**
 * The plugin: `@perpx/x` -> `packages/x/src/index.ts`, `@perpx/x/y` -> `packages/x/src/y.ts`.
 *
 * @param only - the package folder names it resolves (others are left to esbuild, so a page that
 *   must not pull a package in fails to bundle).
 * @returns the esbuild plugin.
 */
export function perpxSource(only: readonly string[]): SourcePlugin {
  return {
    name: "perpx-source",
    setup(build) {
      build.onResolve({ filter: /^@perpx\/[\w-]+(\/[\w-]+)?$/ }, (args) => {
        const name = /^@perpx\/([\w-]+)/.exec(args.path)?.[1];
        const path = name !== undefined && only.includes(name) ? sourceOf(args.path) : undefined;
        return path === undefined ? undefined : { path };
      });
    },
  };
}
