/**
 * The examples' expected output: each `examples/src/tasks/<name>.ts` lists, in its opening
 * comment under "Output (checked by tests/examples.test.ts):", the lines it prints, in order, with
 * `<placeholders>` for what varies from run to run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The examples' task directory. */
export const TASKS_DIR = join(import.meta.dirname, "..", "..", "examples", "src", "tasks");

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
