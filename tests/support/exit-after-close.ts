/**
 * Runs a child script that connects, closes and reports what it left behind (see
 * `close-report.ts`), then must exit by itself: the close tests of the client packages share it.
 * Nothing here times the child; the only clock is a hang guard.
 */
import { spawn } from "node:child_process";
import { CLOSE_REPORT_PREFIX } from "./close-report.js";

/** A bound that only catches a child that never exits (a socket or interval left open), never a slow one. */
const HANG_GUARD_MS = 120_000;

/** The vitest timeout of a close test: longer than the hang guard, so the guard's report is what fails. */
export const CLOSE_TEST_TIMEOUT_MS = HANG_GUARD_MS + 30_000;

/** How the child ended. */
export interface ExitAfterClose {
  /** Its exit code (null when the hang guard killed it). */
  readonly code: number | null;
  /** The resources the child still held once its client had closed (none is the goal); undefined without a report. */
  readonly left: readonly string[] | undefined;
  /** What it wrote to stderr. */
  readonly stderr: string;
}

/**
 * Spawns `node --import tsx <script> ...args` in `cwd`; `onOutput` sees each stdout chunk. A child
 * that has not exited after the hang guard is killed (its code is then null).
 *
 * @returns the child's exit code, its report and its stderr.
 */
export function exitAfterClose(options: {
  script: string;
  args?: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  onOutput?: (text: string) => void;
}): Promise<ExitAfterClose> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", options.script, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stdout += text;
      options.onOutput?.(text);
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const guard = setTimeout(() => proc.kill("SIGKILL"), HANG_GUARD_MS);
    proc.on("error", reject);
    proc.on("close", (code) => {
      clearTimeout(guard);
      const line = stdout.split("\n").find((text) => text.startsWith(CLOSE_REPORT_PREFIX));
      const left =
        line === undefined
          ? undefined
          : (JSON.parse(line.slice(CLOSE_REPORT_PREFIX.length)).left as string[]);
      resolve({ code, left, stderr });
    });
  });
}
