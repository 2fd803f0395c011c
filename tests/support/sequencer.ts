/**
 * The order vitest starts test files in: the long ones first, so no long file starts last and keeps
 * one worker busy while the others have nothing left (a clean clone has no timing cache, and vitest's
 * default order there runs the projects one after another by name, the `workspace` project's long
 * files last). Every other file keeps vitest's default order after them.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { pathFromRoot } from "./files.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The files that took over ten seconds in a clean-clone CI run (session 9, commit eecf99e), longest
 * first (paths from the repository root). An order, not a bound: a file that got faster or slower only starts a little
 * earlier or later than it should.
 */
export const LONG_FILES: readonly string[] = [
  "tests/docs.test.ts",
  "tests/examples.test.ts",
  "packages/devnet/test/cli.test.ts",
  "tests/packaging.test.ts",
  "packages/mcp-server/test/load.test.ts",
  "packages/explorer/test/browser.test.ts",
  "packages/composite-client/test/restart-handles.test.ts",
  "tests/fresh-install.test.ts",
  // About 49 s before it built one TypeScript program for both doc checks, a third of that since.
  "tests/hygiene.test.ts",
  "packages/mcp-server/test/postgres.test.ts",
  "packages/mcp-server/test/transport.test.ts",
  "packages/mcp-server/test/concurrency.test.ts",
  "packages/devnet/test/soak.test.ts",
  "packages/devnet/test/faults.test.ts",
  "packages/mcp-server/test/safety.test.ts",
  "packages/mcp-server/test/oauth-browser.test.ts",
  "packages/mcp-server/test/oauth.test.ts",
  "packages/explorer/test/server.test.ts",
  "packages/mcp-server/test/cli.test.ts",
  "packages/composite-client/test/restart.test.ts",
];

/** The position of a file in {@link LONG_FILES}, or the list's length for a file not in it. */
export function rankOf(file: string): number {
  const at = LONG_FILES.indexOf(pathFromRoot(file));
  return at === -1 ? LONG_FILES.length : at;
}

/** The files of {@link LONG_FILES} that do not exist (renamed or removed: the list must follow). */
export function missingLongFiles(): string[] {
  return LONG_FILES.filter((file) => !existsSync(`${root}${file}`));
}

/** vitest's sequencer with {@link LONG_FILES} moved to the front, in that order. */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: files of equal rank keep the default order.
    return sorted.sort((a, b) => rankOf(a.moduleId) - rankOf(b.moduleId));
  }
}
