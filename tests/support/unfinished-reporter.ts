/**
 * A vitest reporter that names the test files a run started and never finished. When a worker
 * process dies (a native crash, the kernel's out-of-memory killer, an exit from the code under test),
 * vitest reports only "Worker exited unexpectedly", without the file it was running; this reporter
 * prints, after the summary, each file that began and never ended, with the tests it had begun and
 * not finished, so a crash on a CI machine names its file in the output's last lines.
 */
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { pathFromRoot } from "./files.js";

/** What one started file has begun: its tests that have started and have no result yet. */
interface Started {
  readonly module: TestModule;
  readonly running: Set<TestCase>;
}

/**
 * Lines that name each unfinished file (its path from the repository root and project) and the
 * tests it had begun; empty when every started file ended.
 * @param unfinished - the started files that have no end, in the order they started
 * @returns the lines to print
 */
export function unfinishedLines(
  unfinished: ReadonlyArray<{ file: string; project: string; running: readonly string[] }>,
): string[] {
  if (unfinished.length === 0) return [];
  const lines = ["", `Test files that started and never finished (${unfinished.length}):`];
  for (const { file, project, running } of unfinished) {
    lines.push(`  ${project} ${file}`);
    for (const name of running) lines.push(`    running: ${name}`);
  }
  return lines;
}

/** The reporter (see the module comment). */
export class UnfinishedFilesReporter implements Reporter {
  private readonly started = new Map<string, Started>();

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.id, { module, running: new Set() });
  }

  onTestModuleEnd(module: TestModule): void {
    this.started.delete(module.id);
  }

  onTestCaseReady(test: TestCase): void {
    this.started.get(test.module.id)?.running.add(test);
  }

  onTestCaseResult(test: TestCase): void {
    this.started.get(test.module.id)?.running.delete(test);
  }

  onTestRunEnd(): void {
    const lines = unfinishedLines(
      [...this.started.values()].map(({ module, running }) => ({
        file: pathFromRoot(module.moduleId),
        project: module.project.name,
        running: [...running].map((test) => test.fullName),
      })),
    );
    this.started.clear();
    if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
  }
}
