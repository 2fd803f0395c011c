/**
 * Shared by the packages' README tests: the TypeScript snippets of a README, and a rewrite of a
 * snippet that turns every `expression; // <JS literal>` line into an assertion, so a README shows
 * true values or its test fails.
 */
import { readFileSync } from "node:fs";

/** The body of every ```ts block of the README at `url`, in order. */
export function readmeSnippets(url: URL): string[] {
  const readme = readFileSync(url, "utf8");
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/** True when `text` is a JS literal worth comparing against (not a bare identifier). */
function isLiteral(text: string): boolean {
  try {
    new Function(`return (${text});`);
    return !/^[A-Za-z_$][\w$]*$/.test(text) || ["true", "false", "undefined", "null"].includes(text);
  } catch {
    return false;
  }
}

/**
 * Rewrites `[if (cond) ]expression; // literal` lines of `code` into `deepStrictEqual` checks.
 * Returns the module text to run and how many checks it holds.
 */
export function withValueChecks(code: string): { code: string; checks: number } {
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
