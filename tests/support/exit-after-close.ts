/**
 * Runs a child script that connects, closes and prints "closed", and measures how long the process
 * lived after that line: the close tests of the client packages share it.
 */
import { spawn } from "node:child_process";

/** How the child ended. */
export interface ExitAfterClose {
  /** Its exit code (null when it was killed). */
  readonly code: number | null;
  /** Milliseconds from its "closed" line to its exit (infinite without the line). */
  readonly afterCloseMs: number;
  /** What it wrote to stderr. */
  readonly stderr: string;
}

/**
 * Spawns `node --import tsx <script> ...args` in `cwd`; `onOutput` sees each stdout chunk. A child
 * that has not exited after `killAfterMs` is killed (the caller's assertions then fail).
 */
export function exitAfterClose(options: {
  script: string;
  args?: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  killAfterMs: number;
  onOutput?: (text: string) => void;
}): Promise<ExitAfterClose> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", options.script, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let closedAt: number | undefined;
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      options.onOutput?.(text);
      if (text.includes("closed")) closedAt = performance.now();
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const guard = setTimeout(() => proc.kill("SIGKILL"), options.killAfterMs);
    proc.on("error", reject);
    proc.on("exit", (code) => {
      clearTimeout(guard);
      resolve({
        code,
        afterCloseMs: closedAt === undefined ? Number.POSITIVE_INFINITY : performance.now() - closedAt,
        stderr,
      });
    });
  });
}
