/**
 * Library hygiene of every publishable package, checked on its source: no `process.env` reads, no
 * console output, no `any` and no `throw new Error` (a typed error instead) in library code; no import-time side effects on globals; a TSDoc
 * `@example` on every public export a package declares itself; and, for every package but
 * mcp-server, a `@param` for each parameter and a `@returns` (unless it returns nothing) on every
 * public function, exported class method and function-valued export.
 *
 * Generated protobuf code (`src/gen/`) and command-line entry points (`cli.ts`, and `cli-main.ts`, the
 * program the devnet's `cli.ts` launcher runs) are not library
 * code: the first is protoc-gen-es output, the second is a program that talks to its terminal.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";
import { envReadsOf } from "./support/env.js";
import { filesUnder } from "./support/files.js";

const packagesDir = fileURLToPath(new URL("../packages/", import.meta.url));
const packages = readdirSync(packagesDir).filter((name) => {
  try {
    return JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")).private !== true;
  } catch {
    return false;
  }
});

const isLibrarySource = (name: string) =>
  name.endsWith(".ts") &&
  !/\.(test|bench)\.ts$/.test(name) &&
  !name.startsWith("gen/") &&
  !name.split("/").includes("node_modules") &&
  !/^cli(-main)?\.ts$/.test(name);

function sourcesOf(srcDir: string): Array<{ name: string; text: string }> {
  return (readdirSync(srcDir, { recursive: true }) as string[])
    .filter(isLibrarySource)
    .map((name) => ({ name, text: readFileSync(join(srcDir, name), "utf8") }));
}

/** The source file of every entry point of a package's `exports` (`.` is `index.ts`, `./x` is `x.ts`). */
function entryFilesOf(packageDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  return Object.keys(pkg.exports ?? { ".": {} })
    .filter((key) => key !== "./package.json")
    .map((key) => join(packageDir, "src", key === "." ? "index.ts" : `${key.slice(2)}.ts`));
}

/** The doc comment a declaration carries: a variable's is on its statement. */
function docNodeOf(declaration: ts.Declaration): ts.Node {
  return ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
}

let shared: ts.Program | undefined;
/**
 * One TypeScript program over the entry files of every package checked here, built the first time a
 * check asks and shared by both doc checks: a program's answers about one file's exports do not
 * depend on which other files are its roots, and building it once instead of once per entry per check
 * is most of this file's time.
 */
function program(): ts.Program {
  shared ??= ts.createProgram(
    [...new Set([...packages, ...typedDocsPackages])].flatMap((name) =>
      entryFilesOf(join(packagesDir, name)),
    ),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
    },
  );
  return shared;
}

/** The exports of an entry file declared in the package's own files (not re-exports) that lack an `@example`. */
function undocumentedExports(srcDir: string, entry: string): { own: number; missing: string[] } {
  const checker = program().getTypeChecker();
  const index = program().getSourceFile(entry);
  const moduleSymbol = index && checker.getSymbolAtLocation(index);
  if (!moduleSymbol) throw new Error(`${entry} has no module symbol`);
  const missing: string[] = [];
  let own = 0;
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    const file = declaration?.getSourceFile().fileName;
    if (!declaration || !file?.startsWith(srcDir) || relative(srcDir, file).startsWith("gen/")) continue;
    own++;
    if (!ts.getJSDocTags(docNodeOf(declaration)).some((tag) => tag.tagName.text === "example")) {
      missing.push(`${exported.name} (${relative(srcDir, file)})`);
    }
  }
  return { own, missing };
}

/** A return type that needs no `@returns`: nothing, or a promise of nothing. */
const returnsNothing = (text: string) => ["void", "undefined", "never", "Promise<void>"].includes(text);

/**
 * The public functions of an entry file declared in the package's own files: exported functions,
 * function-valued exported constants, and the public constructors (with parameters) and methods of
 * exported classes. For each, the `@param` tags it lacks (a tag per parameter, by name, or by position
 * for a destructured one) and a missing `@returns` when it returns something (a constructor needs none).
 */
function untypedDocs(srcDir: string, entry: string): { functions: string[]; missing: string[] } {
  const checker = program().getTypeChecker();
  const index = program().getSourceFile(entry);
  const moduleSymbol = index && checker.getSymbolAtLocation(index);
  if (!moduleSymbol) throw new Error(`${entry} has no module symbol`);
  const functions: string[] = [];
  const missing: string[] = [];
  const check = (label: string, docNode: ts.Node, signature: ts.Signature | undefined, returns = true) => {
    const declaration = signature?.getDeclaration();
    if (!signature || !declaration) return;
    functions.push(label);
    const tags = ts.getJSDocTags(docNode);
    const params = tags.filter(ts.isJSDocParameterTag).map((tag) => tag.name.getText());
    const lacking: string[] = [];
    declaration.parameters.forEach((parameter, position) => {
      const named = ts.isIdentifier(parameter.name) ? parameter.name.text : undefined;
      if (named === "this") return;
      if (named === undefined ? params[position] === undefined : !params.includes(named)) {
        lacking.push(`@param ${named ?? `#${position}`}`);
      }
    });
    const returned = checker.typeToString(checker.getReturnTypeOfSignature(signature));
    if (returns && !returnsNothing(returned) && !tags.some((tag) => tag.tagName.text === "returns"))
      lacking.push("@returns");
    if (lacking.length > 0) missing.push(`${label}: ${lacking.join(", ")}`);
  };
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    const file = declaration?.getSourceFile().fileName;
    if (!declaration || !file?.startsWith(srcDir) || relative(srcDir, file).startsWith("gen/")) continue;
    const where = `${exported.name} (${relative(srcDir, file)})`;
    if (ts.isFunctionDeclaration(declaration)) {
      check(where, declaration, checker.getSignatureFromDeclaration(declaration));
    } else if (ts.isVariableDeclaration(declaration)) {
      const [signature] = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
      check(where, docNodeOf(declaration), signature);
    } else if (ts.isClassDeclaration(declaration)) {
      const seen = new Set<string>();
      for (const member of declaration.members) {
        const hidden =
          ts.getCombinedModifierFlags(member).valueOf() &
          (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
        if (hidden || (member.name && ts.isPrivateIdentifier(member.name))) continue;
        if (ts.isConstructorDeclaration(member) && member.parameters.length > 0) {
          if (seen.has("constructor")) continue;
          seen.add("constructor");
          check(`new ${where}`, member, checker.getSignatureFromDeclaration(member), false);
        } else if (ts.isMethodDeclaration(member)) {
          const method = member.name.getText();
          if (seen.has(method)) continue;
          seen.add(method);
          check(
            `${exported.name}.${method} (${relative(srcDir, file)})`,
            member,
            checker.getSignatureFromDeclaration(member),
          );
        }
      }
    }
  }
  return { functions, missing };
}

/**
 * The packages whose public functions must carry `@param` and `@returns` (issue 23, points 9 and
 * 10): every publishable package.
 */
const typedDocsPackages = [
  "node-client",
  "composite-client",
  "indexer-client",
  "errors",
  "core",
  "devnet",
  "proto",
  "explorer",
  "address",
  "mcp-server",
];

describe.each(packages)("@perpx/%s", (name) => {
  const srcDir = join(packagesDir, name, "src/");

  it("never reads process.env, never logs and never uses any", () => {
    const sources = sourcesOf(srcDir);
    expect(sources.length).toBeGreaterThan(0);
    const offending: string[] = [];
    for (const { name: file, text } of sources) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      code.split("\n").forEach((line, index) => {
        if (/process\.env|\bconsole\.|:\s*any\b(?![.\w])|\bas any\b|<any>/.test(line)) {
          offending.push(`${file}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offending).toEqual([]);
  });

  it("throws no plain Error: every error library code throws is typed", () => {
    const offending: string[] = [];
    for (const { name: file, text } of sourcesOf(srcDir)) {
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isThrowStatement(node) &&
          ts.isNewExpression(node.expression) &&
          ts.isIdentifier(node.expression.expression) &&
          node.expression.expression.text === "Error"
        ) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          offending.push(`${file}:${line + 1}: ${node.getText(source).split("\n")[0]}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offending).toEqual([]);
  });

  it("has no import-time side effects on globals or the environment", async () => {
    const globalsBefore = Reflect.ownKeys(globalThis);
    const envReads = await envReadsOf(async () => {
      vi.resetModules();
      const loaded: Record<string, unknown> = await import(/* @vite-ignore */ join(srcDir, "index.ts"));
      expect(Object.keys(loaded).length).toBeGreaterThan(0);
    });
    expect(envReads.filter((key) => key.startsWith("PERPX_"))).toEqual([]);
    // protobuf-es memoizes its TextEncoder/TextDecoder on globalThis under its own symbol when
    // descriptors load; that is protobuf-es's, not a mutation of ours.
    const added = Reflect.ownKeys(globalThis).filter((key) => !globalsBefore.includes(key));
    expect(added.map(String).filter((key) => key !== "Symbol(@bufbuild/protobuf/text-encoding)")).toEqual([]);
  });

  it("documents every public export of every entry point with an @example", () => {
    for (const entry of entryFilesOf(join(packagesDir, name))) {
      const { own, missing } = undocumentedExports(srcDir, entry);
      expect(own, entry).toBeGreaterThan(0);
      expect(missing, entry).toEqual([]);
    }
  });
});

describe.each(typedDocsPackages)("@perpx/%s", (name) => {
  it("documents every parameter and return value of every public function", () => {
    const srcDir = join(packagesDir, name, "src/");
    const functions = new Set<string>();
    const missing = new Set<string>();
    for (const entry of entryFilesOf(join(packagesDir, name))) {
      const found = untypedDocs(srcDir, entry);
      for (const label of found.functions) functions.add(label);
      for (const gap of found.missing) missing.add(gap);
    }
    expect(functions.size).toBeGreaterThan(0);
    expect(
      [...missing],
      `${missing.size} of ${functions.size} public functions lack a @param or @returns`,
    ).toEqual([]);
  });
});

/**
 * One exact decimal (issue 20): money, prices, sizes, PnL and equity go through `@perpx/core`'s
 * `Exact`. No source of a package, an example or a benchmark imports decimal.js (core takes its
 * values as they are, through their plain text, so users may still pass one) or constructs a
 * `Decimal`, whose default precision of 20 significant digits rounds amounts; no publishable
 * package depends on it. Tests may use decimal.js, as an input users pass or as an oracle.
 */
describe("one decimal policy", () => {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const isSource = (name: string) =>
    /\.(ts|mts|mjs|js)$/.test(name) &&
    !/\.(test|test-d)\.ts$/.test(name) &&
    !name.endsWith(".d.ts") &&
    !name.startsWith("gen/") &&
    !name.split("/").includes("node_modules");
  const sourceDirs = [
    ...readdirSync(packagesDir).map((name) => join("packages", name, "src")),
    join("examples", "src"),
    "bench",
  ];
  const sources = sourceDirs.flatMap((dir) =>
    filesUnder(join(root, dir))
      .filter(isSource)
      .map((name) => ({ file: join(dir, name), text: readFileSync(join(root, dir, name), "utf8") })),
  );
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");

  it("no package, example or benchmark source imports decimal.js or constructs a Decimal", () => {
    expect(sources.length).toBeGreaterThan(100);
    const offending: string[] = [];
    for (const { file, text } of sources) {
      code(text)
        .split("\n")
        .forEach((line, index) => {
          if (
            /(from|import\(|require\()\s*["']decimal\.js["']/.test(line) ||
            /\bnew\s+Decimal\s*\(|\bDecimal\.(clone|set|config)\s*\(/.test(line)
          ) {
            offending.push(`${file}:${index + 1}: ${line.trim()}`);
          }
        });
    }
    expect(offending).toEqual([]);
  });

  it("no publishable package depends on decimal.js", () => {
    const depending = packages.filter((name) => {
      const pkg = JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8"));
      return "decimal.js" in { ...pkg.dependencies, ...pkg.peerDependencies };
    });
    expect(depending).toEqual([]);
  });
});
