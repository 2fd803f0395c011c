/**
 * Every TypeScript snippet of the README runs (against the source, through the workspace aliases),
 * and every `expression; // <JS literal>` line in it is checked: the comment is the value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
const dir = mkdtempSync(join(tmpdir(), "perpx-core-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function isLiteral(text: string): boolean {
  try {
    new Function(`return (${text});`);
    return !/^[A-Za-z_$][\w$]*$/.test(text) || ["true", "false", "undefined", "null"].includes(text);
  } catch {
    return false;
  }
}

/** Turns `[if (cond) ]expr; // literal` into an assertion; returns the line and whether it did. */
function withChecks(code: string): { code: string; checks: number } {
  let checks = 0;
  const lines = code.split("\n").map((line) => {
    const match = /^(\s*)(if \(.+?\) )?(?!const |let |import |\/\/)(.+?); \/\/ (.+)$/.exec(line);
    if (!match) return line;
    const [, indent = "", condition = "", expression = "", literal = ""] = match;
    if (!isLiteral(literal)) return line;
    checks++;
    return `${indent}${condition}__check((${expression}), ${literal}, ${JSON.stringify(expression)});`;
  });
  return { code: `import { deepStrictEqual as __check } from "node:assert";\n${lines.join("\n")}\n`, checks };
}

describe("README", () => {
  it("has snippets", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(4);
  });

  it.each(snippets.map((code, index) => [index + 1, code] as const))(
    "snippet %i runs and shows true values",
    async (index, code) => {
      const { code: checked, checks } = withChecks(code);
      expect(checks).toBeGreaterThan(0);
      const file = join(dir, `snippet-${index}.ts`);
      writeFileSync(file, checked);
      await expect(import(/* @vite-ignore */ pathToFileURL(file).href)).resolves.toBeDefined();
    },
  );
});
