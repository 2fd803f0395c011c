/**
 * The examples' expected output: each `examples/src/tasks/<name>.ts` lists, in its opening
 * comment under "Output (checked by tests/examples.test.ts):", the lines it prints, in order, with
 * `<placeholders>` for what varies from run to run.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The examples' task directory. */
const TASKS_DIR = join(import.meta.dirname, "..", "..", "examples", "src", "tasks");

/** The examples package's directory. */
const EXAMPLES_DIR = join(TASKS_DIR, "..", "..");

/** What a script of the examples package printed, and how it exited. */
export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript file of the examples package (`script`, relative to it) with tsx in a child
 * Node process, collecting its output; a script still running after `timeoutMs` is killed, and its
 * exit code then fails the caller's test.
 */
export function runExamplesScript(
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: EXAMPLES_DIR,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    // "close", not "exit": a child's output can still be in its pipes when it exits, and its last
    // lines would be missing from `stdout`.
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The example names (file names without `.ts`), sorted. */
export function exampleNames(): string[] {
  return readdirSync(TASKS_DIR)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => file.slice(0, -3))
    .sort();
}

const HEADER = "Output (checked by tests/examples.test.ts):";

/** An example's expected lines, as patterns matching a whole printed line each. */
export function expectedLines(name: string): RegExp[] {
  const source = readFileSync(join(TASKS_DIR, `${name}.ts`), "utf8");
  const comment = /^\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? "";
  const lines = comment.split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
  const start = lines.findIndex((line) => line.trim() === HEADER);
  if (start < 0) throw new Error(`${name}.ts: its opening comment has no "${HEADER}" section`);
  const expected: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break;
    expected.push(line.trim());
  }
  return expected.map((line) => patternOf(line));
}

/** A shown line to a pattern: literal text, `<anything>` matching one or more characters. */
export function patternOf(line: string): RegExp {
  const parts = line.split(/<[^<>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".+?")}$`);
}

/**
 * Whether `output`'s lines contain lines matching `expected`, in that order (other lines may sit
 * between them). Returns the first pattern not found, or undefined when all are.
 */
export function missingLine(output: string, expected: readonly RegExp[]): RegExp | undefined {
  const lines = output.split("\n");
  let at = 0;
  for (const pattern of expected) {
    while (at < lines.length && !pattern.test(lines[at] ?? "")) at += 1;
    if (at === lines.length) return pattern;
    at += 1;
  }
  return undefined;
}
