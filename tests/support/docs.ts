/**
 * The doc runner's pure half: finds every TypeScript snippet of the READMEs (root and packages) and
 * every `@example` of the publishable packages' sources, and rewrites the values a snippet shows
 * into checks, so a README or a doc comment shows true values or the doc test fails.
 *
 * The claim conventions (one per statement):
 *   expression; // value              the expression deep-equals `value` (any JS/TS expression)
 *   expression; // value: why         text after ": ", " (", " — " or " - " is explanation when what is
 *                                     before it is a value
 *   expression;                       followed by a line holding only `// value`, for long values
 *   expression; // throws Name        the expression throws (or rejects with) an error named `Name`
 *   expression; // throws Name (why)  `why` is the error's `reason` when it is one word (a-z and -)
 * A comment that is not a value (prose, a bare identifier) is not a claim.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One snippet: where it is, what it documents, and its code. */
export interface DocSnippet {
  /** `packages/core/src/credential.ts:120 createCredential` or `packages/core/README.md:40`. */
  id: string;
  /** The package directory it belongs to (the root for the root README). */
  dir: string;
  /** The package name, when it belongs to one. */
  pkg: string | undefined;
  /** The source file of an `@example`, undefined for a README snippet. */
  file: string | undefined;
  code: string;
}

const fenced = /```ts\n([\s\S]*?)```/g;

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

function readmeSnippets(root: string, readme: string, dir: string, pkg: string | undefined): DocSnippet[] {
  const text = readFileSync(readme, "utf8");
  return [...text.matchAll(fenced)].map((match) => ({
    id: `${relative(root, readme)}:${lineAt(text, match.index + 6)}`,
    dir,
    pkg,
    file: undefined,
    code: match[1] ?? "",
  }));
}

/** The `@example` blocks of one source file, each with the name of what it documents. */
function exampleSnippets(root: string, file: string, dir: string, pkg: string): DocSnippet[] {
  const text = readFileSync(file, "utf8");
  const found: DocSnippet[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = comment[1] ?? "";
    const at = body.indexOf("@example");
    if (at === -1) continue;
    const after = text.slice(comment.index + comment[0].length);
    const owner =
      /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:const|let|function\*?|class|type|interface|enum|readonly|static|get|set)?\s*\[?([\w$.]+)/.exec(
        after,
      )?.[1] ?? "?";
    const unstarred = body.slice(at).replace(/^[ \t]*\* ?/gm, "");
    for (const block of unstarred.matchAll(fenced)) {
      const line = lineAt(text, comment.index + 3 + at) + lineAt(unstarred, block.index) - 1;
      found.push({
        id: `${relative(root, file)}:${line} ${owner}`,
        dir,
        pkg,
        file,
        code: block[1] ?? "",
      });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter(
      (name) => name.endsWith(".ts") && !/\.(test|test-d|bench)\.ts$/.test(name) && !name.endsWith(".d.ts"),
    )
    .filter((name) => !name.split(/[\\/]/).includes("node_modules"))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Every README snippet of the workspace and every `@example` of its publishable packages. The root
 * README's snippets run in `examples/`, the private package that depends on every client (the root
 * package depends on none, so `@perpx/...` would not resolve there).
 */
export function workspaceSnippets(root: string): DocSnippet[] {
  const snippets = readmeSnippets(root, join(root, "README.md"), join(root, "examples"), undefined);
  const packagesDir = join(root, "packages");
  for (const name of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, name);
    if (!existsSync(join(dir, "package.json"))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (existsSync(join(dir, "README.md")))
      snippets.push(...readmeSnippets(root, join(dir, "README.md"), dir, manifest.name));
    if (manifest.private === true || !existsSync(join(dir, "src"))) continue;
    for (const file of sourceFiles(join(dir, "src")))
      snippets.push(...exampleSnippets(root, file, dir, manifest.name));
  }
  return snippets;
}

/** True when `text` parses as one expression that is worth comparing against (not a bare name). */
function isValue(text: string): boolean {
  if (text === "") return false;
  if (/^[A-Za-z_$][\w$]*$/.test(text))
    return ["true", "false", "null", "undefined", "NaN", "Infinity"].includes(text);
  // prose: "the order rests", "true when ...", "multi-hop"
  if (/^[A-Za-z]+ [A-Za-z]/.test(text) || /^[A-Za-z]+(-[A-Za-z]+)+$/.test(text)) return false;
  const source = ts.createSourceFile("claim.ts", `(${text});`, ts.ScriptTarget.Latest, false);
  const diagnostics = (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
  return diagnostics.length === 0 && source.statements.length === 1;
}

/** The value a claim comment shows, cut before an explanation when the whole text is not a value. */
function claimedValue(claim: string): string | undefined {
  const text = claim.trim();
  for (const cut of text.matchAll(/: | \(| — | - /g)) {
    const head = text.slice(0, cut.index).trim();
    if (isValue(head)) return head;
  }
  return isValue(text) ? text : undefined;
}

/** A claim of one statement: the value it shows, or the error it throws. */
type Claim = { kind: "value"; value: string } | { kind: "throws"; name: string; reason: string | undefined };

function claimOf(comment: string): Claim | undefined {
  const thrown = /^throws (\w+)(?: \(([a-z][a-z-]*)\))?/.exec(comment.trim());
  if (thrown) return { kind: "throws", name: thrown[1] ?? "", reason: thrown[2] };
  const value = claimedValue(comment);
  return value === undefined ? undefined : { kind: "value", value };
}

/**
 * Rewrites the claims of `code` into calls of `__check(actual, expected, line)` and
 * `__throws(fn, name, reason, line)`. Returns the code and how many checks it holds.
 */
export function instrument(code: string): { code: string; checks: number } {
  const source = ts.createSourceFile("snippet.ts", code, ts.ScriptTarget.Latest, true);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const visit = (node: ts.Node, topLevel: boolean) => {
    if (ts.isExpressionStatement(node)) {
      const end = node.getEnd();
      const lineEnd = code.indexOf("\n", end) === -1 ? code.length : code.indexOf("\n", end);
      const rest = code.slice(end, lineEnd);
      let comment = /^\s*\/\/ ?(.*)$/.exec(rest)?.[1];
      let claimEnd = lineEnd;
      if (comment === undefined && rest.trim() === "") {
        const nextEnd =
          code.indexOf("\n", lineEnd + 1) === -1 ? code.length : code.indexOf("\n", lineEnd + 1);
        const next = /^\s*\/\/ ?(.*)$/.exec(code.slice(lineEnd + 1, nextEnd));
        if (next) {
          comment = next[1];
          claimEnd = nextEnd;
        }
      }
      const claim = comment === undefined ? undefined : claimOf(comment);
      if (claim) {
        // `console.log(x); // value` shows the value of `x`.
        const shown =
          ts.isCallExpression(node.expression) &&
          node.expression.expression.getText(source) === "console.log" &&
          node.expression.arguments.length === 1
            ? node.expression.arguments[0]!
            : node.expression;
        const expression = shown.getText(source);
        const line = JSON.stringify(code.slice(node.getStart(source), claimEnd).replace(/\s+/g, " ").trim());
        const text =
          claim.kind === "value"
            ? `__check((${expression}), (${claim.value}), ${line});`
            : `${topLevel ? "await " : ""}__throws(${topLevel ? "async " : ""}() => (${expression}), ${JSON.stringify(claim.name)}, ${JSON.stringify(claim.reason)}, ${line});`;
        edits.push({ start: node.getStart(source), end: claimEnd, text });
        return;
      }
    }
    const inFunction = ts.isFunctionLike(node);
    ts.forEachChild(node, (child) => visit(child, topLevel && !inFunction));
  };
  for (const statement of source.statements) visit(statement, true);
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return { code: out, checks: edits.length };
}

/** The names a snippet declares or imports at its top level (they shadow the package's exports). */
export function declaredNames(code: string): Set<string> {
  const source = ts.createSourceFile("snippet.ts", code, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** The identifiers a snippet uses (values and types). */
export function usedNames(code: string): Set<string> {
  const source = ts.createSourceFile("snippet.ts", code, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isMember = parent && ts.isPropertyAccessExpression(parent) && parent.name === node;
      const isKey = parent && ts.isPropertyAssignment(parent) && parent.name === node;
      if (!isMember && !isKey) names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}
