/**
 * Every TypeScript snippet of the README runs against a devnet (through the workspace aliases), and
 * every `expression; // <JS literal>` line is checked: the comment is the value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useDevnet } from "./support.js";

const net = useDevnet();
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
const dir = mkdtempSync(join(tmpdir(), "perpx-node-client-readme-"));
const saved = { ...process.env };
beforeAll(() => {
  process.env.PERPX_NODE_RPC = net.devnet.endpoints.rpc;
  process.env.PERPX_GRPC_TLS = net.devnet.endpoints.grpcTls;
  process.env.PERPX_GRPC_CA = net.devnet.caPem;
  process.env.PERPX_MNEMONIC_0 = net.devnet.accounts[0]!.mnemonic;
  process.env.PERPX_MNEMONIC_1 = net.devnet.accounts[1]!.mnemonic;
});
afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

function isLiteral(text: string): boolean {
  try {
    new Function(`return (${text});`);
    return !/^[A-Za-z_$][\w$]*$/.test(text) || ["true", "false", "undefined", "null"].includes(text);
  } catch {
    return false;
  }
}

function withChecks(code: string): { code: string; checks: number } {
  let checks = 0;
  const lines = code.split("\n").map((line) => {
    const match = /^(\s*)(?!const |let |import |\/\/)(.+?); \/\/ (.+)$/.exec(line);
    if (!match) return line;
    const [, indent = "", expression = "", literal = ""] = match;
    if (!isLiteral(literal)) return line;
    checks++;
    return `${indent}__check((${expression}), ${literal}, ${JSON.stringify(expression)});`;
  });
  return { code: `import { deepStrictEqual as __check } from "node:assert";\n${lines.join("\n")}\n`, checks };
}

describe("README", () => {
  it("has snippets", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(3);
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
