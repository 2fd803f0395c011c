import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { filesUnder } from "./tests/support/files.js";
import { LongFirstSequencer } from "./tests/support/sequencer.js";
import { packageNames as packages, sourceAliases } from "./tests/support/source-alias.js";
import { UnfinishedFilesReporter } from "./tests/support/unfinished-reporter.js";

const root = fileURLToPath(new URL(".", import.meta.url));
const TYPE_TESTS = ["src/**/*.test-d.ts", "test/**/*.test-d.ts"];
/** The packages with type tests (`*.test-d.ts`): each gets a `<name>:types` project. */
const typed = packages.filter((name) =>
  filesUnder(`${root}packages/${name}`).some((file) => file.endsWith(".test-d.ts")),
);

export default defineConfig({
  // Tests run on source: every `@perpx/<name>` import resolves to that package's `src/index.ts`, and
  // a subpath `@perpx/<name>/<entry>` to its `src/<entry>.ts` (the browser tests' esbuild plugin
  // takes the same entries).
  resolve: { alias: sourceAliases.map((alias) => ({ ...alias })) },
  test: {
    // Hang guards, not speed claims: a test waits for states, never for time, so these only end one
    // that would never finish, and a machine at full load (two busy loops on two cores) passes.
    testTimeout: 120_000,
    // Two files at a time at least: most of a file's time is spent waiting for blocks and sockets,
    // so on two cores vitest's default (one worker fewer than the cores) leaves one core idle
    // (the whole suite took 1,040 s with one worker and 742 s with two, on the same 2-core machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 120_000,
    // The same for a wait for a state that names no bound: 60 s (vi.waitFor's is set in the setup file).
    expect: { poll: { timeout: 60_000 } },
    setupFiles: [`${root}tests/support/wait-defaults.ts`],
    // vitest names no file when a worker process dies ("Worker exited unexpectedly"): the second
    // reporter prints, after the summary, each file that started and never finished.
    reporters: ["default", new UnfinishedFilesReporter()],
    // The long files first (a clean clone has no timings cache to order by).
    sequence: { sequencer: LongFirstSequencer },
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
      // The type contract: `*.test-d.ts` files, checked by `tsc` with the package's tsconfig.json, so a
      // loosened public type fails (`npm run test:types` runs only these).
      ...typed.map((name) => ({
        extends: true as const,
        test: {
          name: `${name}:types`,
          root: `${root}packages/${name}`,
          include: [],
          benchmark: { include: [] },
          typecheck: { enabled: true, only: true, include: TYPE_TESTS, tsconfig: "tsconfig.json" },
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
