/**
 * Library hygiene: no process.env reads, no console, no `any`, no import-time side effects on
 * globals, and a TSDoc `@example` on every public export.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";

const srcDir = new URL("../src/", import.meta.url).pathname;
const sources = (readdirSync(srcDir, { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".bench.ts"))
  .map((name) => ({ name, text: readFileSync(join(srcDir, name), "utf8") }));

describe("library code", () => {
  it("never reads process.env, never logs and never uses any", () => {
    expect(sources.length).toBeGreaterThan(30);
    for (const { name, text } of sources) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code, name).not.toMatch(/process\.env/);
      expect(code, name).not.toMatch(/\bconsole\./);
      expect(code, name).not.toMatch(/:\s*any\b|as any\b|<any>/);
    }
  });

  it("has no import-time side effects on globals", async () => {
    const before = Reflect.ownKeys(globalThis);
    vi.resetModules();
    const client = await import("../src/index.js");
    expect(typeof client.createNodeClient).toBe("function");
    // protobuf-es memoizes its TextEncoder/TextDecoder on globalThis under its own symbol when
    // @perpx/proto's descriptors load; that is protobuf-es's, not a mutation of ours.
    const added = Reflect.ownKeys(globalThis).filter((key) => !before.includes(key));
    expect(added.map(String).filter((key) => key !== "Symbol(@bufbuild/protobuf/text-encoding)")).toEqual([]);
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
      if (!declaration?.getSourceFile().fileName.startsWith(srcDir)) continue;
      own++;
      const tags = ts.getJSDocTags(
        ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration,
      );
      if (!tags.some((tag) => tag.tagName.text === "example")) {
        missing.push(`${exported.name} (${relative(srcDir, declaration.getSourceFile().fileName)})`);
      }
    }
    expect(own).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
