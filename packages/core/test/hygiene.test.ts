/**
 * Library hygiene: no process.env reads, no console, no `any`, no import-time side effects, and a
 * TSDoc `@example` on every public export of the package's own modules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";

const srcDir = new URL("../src/", import.meta.url).pathname;
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".bench.ts"))
  .map((name) => ({ name, text: readFileSync(join(srcDir, name), "utf8") }));

describe("library code", () => {
  it("never reads process.env, never logs and never uses any", () => {
    for (const { name, text } of sources) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code, name).not.toMatch(/process\.env/);
      expect(code, name).not.toMatch(/\bconsole\./);
      expect(code, name).not.toMatch(/:\s*any\b|as any\b|<any>/);
    }
  });

  it("has no import-time side effects on globals or the environment", async () => {
    const globalsBefore = Reflect.ownKeys(globalThis);
    const envReads: string[] = [];
    const realEnv = process.env;
    process.env = new Proxy(realEnv, {
      get(target, key, receiver) {
        if (typeof key === "string") envReads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    try {
      vi.resetModules();
      const core = await import("../src/index.js");
      core.resolveNetwork({ network: "testnet" });
    } finally {
      process.env = realEnv;
    }
    expect(envReads.filter((key) => key.startsWith("PERPX_"))).toEqual([]);
    expect(Reflect.ownKeys(globalThis)).toEqual(globalsBefore);
  });

  it("documents every public export with an @example", () => {
    const program = ts.createProgram([join(srcDir, "index.ts")], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
    });
    const checker = program.getTypeChecker();
    const index = program.getSourceFile(join(srcDir, "index.ts"));
    if (!index) throw new Error("no index.ts");
    const moduleSymbol = checker.getSymbolAtLocation(index);
    if (!moduleSymbol) throw new Error("no module symbol");
    const missing: string[] = [];
    let own = 0;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      if (!declaration?.getSourceFile().fileName.startsWith(srcDir)) continue; // re-exports
      own++;
      const tags = ts.getJSDocTags(
        ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration,
      );
      if (!tags.some((tag) => tag.tagName.text === "example")) missing.push(exported.name);
    }
    expect(own).toBeGreaterThan(60);
    expect(missing).toEqual([]);
  });
});
