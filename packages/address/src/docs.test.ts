import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

// Every `@example` in the source and every `ts` block of the README runs here, and every value a
// comment claims is checked:
//   expression; // value              the expression equals `value` (any JS expression)
//   expression; // value: why         text after the value (": " or " (") is explanation
//   expression;                       followed by a line `// value`, for long values
//   expression; // throws Name (reason)
// Every claimed value must be reached exactly once, so a check inside `catch` proves the throw.

const root = new URL("../", import.meta.url);

/** The ```ts blocks of a markdown text. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The `@example` blocks of a TypeScript source, with the comment's leading ` * ` removed. */
function examples(source: string): { name: string; code: string }[] {
  const found: { name: string; code: string }[] = [];
  for (const match of source.matchAll(
    /\/\*\*([\s\S]*?)\*\/\s*export\s+(?:declare\s+)?(?:const|function|class|type|interface)\s+(\w+)/g,
  )) {
    const body = match[1]!.replace(/^[ \t]*\* ?/gm, "");
    const at = body.indexOf("@example");
    if (at === -1) continue;
    for (const code of codeBlocks(body.slice(at))) found.push({ name: match[2]!, code });
  }
  return found;
}

/** The first reading of `text` (whole, or cut before an explanation) that evaluates. */
function parseValue(text: string): { source: string; value: unknown } | undefined {
  const cuts = [text.length];
  for (const m of text.matchAll(/: | \(/g)) cuts.push(m.index);
  for (const cut of cuts) {
    const source = text.slice(0, cut).trim();
    try {
      return { source, value: new Function(`return (${source});`)() };
    } catch {
      // not a value; try a shorter reading
    }
  }
  return undefined;
}

/** Rewrites claimed values into checks; returns the code and the number of checks. */
function instrument(code: string): { code: string; checks: number } {
  const lines = code.split("\n");
  const out: string[] = [];
  let checks = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const inline = /^(\s*)(.+?);\s*\/\/ (.+)$/.exec(line);
    const next = /^\s*\/\/ (.+)$/.exec(lines[i + 1] ?? "");
    const bare = /^(\s*)([^/].*?);\s*$/.exec(line);
    const [indent, expression, claim] = inline
      ? [inline[1]!, inline[2]!, inline[3]!]
      : bare && next
        ? [bare[1]!, bare[2]!, next[1]!]
        : [undefined, undefined, undefined];
    if (expression === undefined || /^\s*(const|let|if|return|throw)\b/.test(expression)) {
      out.push(line);
      continue;
    }
    if (!inline) i++;
    const thrown = /^throws (\w+)(?: \(([\w-]+)\))?/.exec(claim!);
    if (thrown) {
      out.push(
        `${indent}__throws(() => (${expression}), ${JSON.stringify(thrown[1])}, ${JSON.stringify(thrown[2])});`,
      );
    } else {
      const value = parseValue(claim!);
      if (value === undefined) throw new Error(`example claims a value that does not parse: ${claim}`);
      out.push(`${indent}__check(() => (${expression}), ${value.source}, ${JSON.stringify(line.trim())});`);
    }
    checks++;
  }
  return { code: out.join("\n"), checks };
}

/** Runs an example with the package's exports in scope; returns how many checks ran. */
function run(code: string): { declared: number; ran: number } {
  const { code: instrumented, checks } = instrument(
    code.replace(/^import[\s\S]*?from "@perpx\/address";\n/m, ""),
  );
  const js = ts.transpileModule(instrumented, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  let ran = 0;
  const __check = (actual: () => unknown, expected: unknown, line: string) => {
    ran++;
    expect(actual(), line).toEqual(expected);
  };
  const __throws = (fn: () => unknown, name: string, reason: string | undefined) => {
    ran++;
    expect(fn).toThrowError(expect.objectContaining(reason === undefined ? { name } : { name, reason }));
  };
  const names = Object.keys(api);
  new Function(...names, "__check", "__throws", js)(
    ...names.map((n) => (api as Record<string, unknown>)[n]),
    __check,
    __throws,
  );
  return { declared: checks, ran };
}

const sources = readdirSync(new URL("src/", root)).filter((f) => f.endsWith(".ts") && !f.includes(".test."));

describe("TSDoc examples", () => {
  const all = sources.flatMap((file) =>
    examples(readFileSync(new URL(`src/${file}`, root), "utf8")).map((e) => ({ ...e, file })),
  );

  it("exist for every export of the package, types included", () => {
    const index = readFileSync(new URL("src/index.ts", root), "utf8");
    const exported = [...index.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!
        .split(",")
        .map((name) => name.replace(/^\s*type\s+/, "").trim())
        .filter(Boolean),
    );
    expect(exported).toEqual(expect.arrayContaining(Object.keys(api)));
    const documented = new Set(all.map((e) => e.name));
    expect(exported.filter((name) => !documented.has(name))).toEqual([]);
  });

  it.each(all.map((e) => [`${e.file} ${e.name}`, e.code] as const))(
    "%s runs and its values hold",
    (_, code) => {
      const { declared, ran } = run(code);
      expect(ran).toBe(declared);
    },
  );
});

describe("README", () => {
  const readme = readFileSync(new URL("README.md", root), "utf8");
  const blocks = codeBlocks(readme);

  it("has an example that imports only real exports", () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const imported = /import \{([\s\S]*?)\} from "@perpx\/address"/.exec(block)?.[1] ?? "";
      for (const name of imported
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        expect(Object.keys(api), name).toContain(name);
      }
    }
  });

  it.each(blocks.map((b, i) => [i, b] as const))("block %i runs and its values hold", (_, code) => {
    const { declared, ran } = run(code);
    expect(declared).toBeGreaterThan(0);
    expect(ran).toBe(declared);
  });
});
