import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const packages = readdirSync(`${root}packages`).filter((name) =>
  existsSync(`${root}packages/${name}/package.json`),
);

/**
 * Tests run on source: every `@perpx/<name>` import resolves to that package's `src/index.ts`, and
 * a subpath `@perpx/<name>/<entry>` to its `src/<entry>.ts`.
 */
const alias = [
  ...packages.map((name) => ({
    find: new RegExp(`^@perpx/${name}$`),
    replacement: `${root}packages/${name}/src/index.ts`,
  })),
  { find: /^@perpx\/([\w-]+)\/([\w-]+)$/, replacement: `${root}packages/$1/src/$2.ts` },
];

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      ...packages.map((name) => ({
        extends: true as const,
        test: {
          name,
          root: `${root}packages/${name}`,
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          benchmark: { include: ["src/**/*.bench.ts", "test/**/*.bench.ts"] },
        },
      })),
      {
        extends: true as const,
        test: {
          name: "workspace",
          root: `${root}tests`,
          include: ["**/*.test.ts"],
          benchmark: { include: [] },
        },
      },
      {
        extends: true as const,
        test: {
          name: "bench",
          root: `${root}bench`,
          include: ["**/*.test.ts"],
          benchmark: { include: ["**/*.bench.ts"] },
        },
      },
    ],
  },
});
