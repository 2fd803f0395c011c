import { readFileSync } from "node:fs";
import * as protobuf from "@bufbuild/protobuf";
import * as cosmjs from "@cosmjs/proto-signing";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import * as api from "./index.js";

// Every ```ts block of the README runs here, and every value a line claims is checked:
//   expression; // value     the expression deep-equals `value` (a JS expression)

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
const modules: Record<string, unknown> = {
  "@perpx/proto": api,
  "@bufbuild/protobuf": protobuf,
  "@cosmjs/proto-signing": cosmjs,
};

/** Turns `expr; // value` lines into checks; returns the code and how many checks it holds. */
function instrument(code: string): { code: string; checks: number } {
  let checks = 0;
  const lines = code.split("\n").map((line) => {
    const claim = /^(\s*)(?!const |let |import |\/\/)(.+?);\s*\/\/ (.+)$/.exec(line);
    if (!claim) return line;
    checks++;
    return `${claim[1]}__check(${claim[2]}, ${claim[3]}, ${JSON.stringify(line.trim())});`;
  });
  return { code: lines.join("\n"), checks };
}

describe("README", () => {
  test("has ts blocks", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  test.each(blocks.map((code, i) => [i, code] as const))("block %i runs and its claims hold", (_, block) => {
    const { code, checks } = instrument(block);
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    let checked = 0;
    const __check = (actual: unknown, expected: unknown, line: string) => {
      expect(actual, line).toEqual(expected);
      checked++;
    };
    const require = (name: string) => {
      if (!(name in modules)) throw new Error(`README imports ${name}, which the docs test does not provide`);
      return modules[name];
    };
    new Function("require", "exports", "__check", js)(require, {}, __check);
    expect(checked).toBe(checks);
  });
});
