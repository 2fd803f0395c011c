/**
 * The `perpx-devnet` CLI as a child process (through tsx, from the sources): start it and wait for
 * its `--json` ready line, or run it to its exit.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DevnetEndpoints } from "../../src/index.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));

/** Flags that give every server a free port. */
export const FREE_PORTS = [
  "rpc",
  "rest",
  "grpc",
  "grpc-tls",
  "evm",
  "evm-ws",
  "faucet",
  "control",
  "indexer",
  "indexer-ws",
  "source-l1",
  "source-l2",
].flatMap((p) => [`--port-${p}`, "0"]);

/**
 * How long one CLI may take to print its ready line (tsx compiles the sources first): a guard
 * against a hang, never a claim on speed, so it holds on a fully loaded machine.
 */
const START_GUARD_MS = 120_000;

const children = new Set<ChildProcess>();

/** Kills (SIGKILL) every child still running; for `afterAll`. */
export function killChildren(): void {
  for (const child of children) child.kill("SIGKILL");
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartedCli {
  child: ChildProcess;
  ready: { ready: true; endpoints: DevnetEndpoints; caPem: string; stateDir: string | null };
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
}

/**
 * Which program runs: the sources through tsx (the default), or the built command line a user runs,
 * `bin/perpx-devnet.js` (`pnpm --filter @perpx/devnet build` first).
 */
export interface CliProgram {
  built?: boolean;
  /** The working directory of the built program. @default the package's directory */
  cwd?: string;
  /** Variables added to the child's environment (`NODE_OPTIONS`, say). @default none */
  env?: NodeJS.ProcessEnv;
}

/** Starts `perpx-devnet` with `args`, without waiting for anything: its process, output and exit. */
export function spawnCli(args: string[], program: CliProgram = {}) {
  const entry =
    program.built === true ? [join(packageDir, "bin/perpx-devnet.js")] : ["--import", "tsx", "src/cli.ts"];
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: program.built === true ? (program.cwd ?? packageDir) : packageDir,
    stdio: ["ignore", "pipe", "pipe"],
    ...(program.env === undefined ? {} : { env: { ...process.env, ...program.env } }),
  });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  // 'close', not 'exit': the pipes may still hold the child's last output when it exits.
  const exited = new Promise<Exit>((resolve) =>
    child.once("close", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, exited, stdout: () => out, stderr: () => err };
}

/** Starts `perpx-devnet start --json` with free ports and `args`; resolves on its ready line. */
export function startCli(args: string[], program: CliProgram = {}): Promise<StartedCli> {
  const run = spawnCli(["start", "--json", ...FREE_PORTS, ...args], program);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line in ${START_GUARD_MS / 1000} s; stderr: ${run.stderr()}`)),
      START_GUARD_MS,
    );
    run.child.stdout!.on("data", () => {
      const out = run.stdout();
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve({ ...run, ready: JSON.parse(out.slice(0, newline)) });
      } catch (error) {
        reject(error);
      }
    });
    void run.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited with ${code}; stderr: ${run.stderr()}`));
    });
  });
}

/**
 * Starts `perpx-devnet start --print-env` with free ports and `args`; resolves once it has printed
 * `lines` lines (the template's), with what it printed.
 */
export function startCliEnv(
  args: string[],
  lines: number,
): Promise<Omit<StartedCli, "ready"> & { printed: string }> {
  const run = spawnCli(["start", "--print-env", ...FREE_PORTS, ...args]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no .env in ${START_GUARD_MS / 1000} s; stderr: ${run.stderr()}`)),
      START_GUARD_MS,
    );
    run.child.stdout!.on("data", () => {
      const out = run.stdout();
      if (out.split("\n").length - 1 < lines) return;
      clearTimeout(timer);
      resolve({ ...run, printed: out });
    });
    void run.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited with ${code}; stderr: ${run.stderr()}`));
    });
  });
}

/** Runs `perpx-devnet` with `args` to its exit (for a start that must fail). */
export async function runCli(
  args: string[],
  program: CliProgram = {},
): Promise<Exit & { stdout: string; stderr: string }> {
  const run = spawnCli(args, program);
  const exit = await run.exited;
  return { ...exit, stdout: run.stdout(), stderr: run.stderr() };
}
