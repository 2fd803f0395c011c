/**
 * Every `docsPath` a perpx error can carry, read from the library source (no list kept by hand).
 *
 * A docsPath is given as a `docsPath` property of an object literal (the options of a `PerpxError`
 * or of a subclass's `super` call). Its value is read when it is a string, `caller.docsPath ??
 * "string"` (a default the caller can replace with its own, itself collected where it is written),
 * or `TABLE[key]` / `TABLE.key` over a `const` object literal of strings in the same file (every
 * value of the table). Any other form is reported as unreadable, so a new way of computing a
 * docsPath fails the docs-site test until this reader learns it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** One docsPath and where it is written. */
interface DocsPathUse {
  docsPath: string;
  /** `file:line` of the `docsPath` property. */
  at: string;
}

/** What {@link docsPathsOfSource} found in one file. */
export interface DocsPathsOfSource {
  found: DocsPathUse[];
  /** `file:line` of each `docsPath` property whose value this reader cannot follow. */
  unreadable: string[];
}

/** The string values of a `const NAME = { ... }` table declared in `file` (undefined when not one). */
function tableValues(file: ts.SourceFile, name: string): string[] | undefined {
  let values: string[] | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) {
      let init = node.initializer;
      while (
        init &&
        (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
      ) {
        init = init.expression;
      }
      if (init && ts.isObjectLiteralExpression(init)) {
        const strings = init.properties.map((property) =>
          ts.isPropertyAssignment(property) && ts.isStringLiteralLike(property.initializer)
            ? property.initializer.text
            : undefined,
        );
        if (strings.every((value) => value !== undefined)) values = strings as string[];
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return values;
}

/** The docsPaths an expression can evaluate to, or undefined when it cannot be followed. */
function valuesOf(file: ts.SourceFile, expression: ts.Expression): string[] | undefined {
  if (ts.isStringLiteralLike(expression)) return [expression.text];
  if (ts.isParenthesizedExpression(expression)) return valuesOf(file, expression.expression);
  if (
    ts.isBinaryExpression(expression) &&
    expression.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken &&
    ts.isPropertyAccessExpression(expression.left) &&
    expression.left.name.text === "docsPath"
  ) {
    return valuesOf(file, expression.right);
  }
  if (
    (ts.isElementAccessExpression(expression) || ts.isPropertyAccessExpression(expression)) &&
    ts.isIdentifier(expression.expression)
  ) {
    return tableValues(file, expression.expression.text);
  }
  return undefined;
}

/** The docsPaths written in one source text. */
export function docsPathsOfSource(fileName: string, text: string): DocsPathsOfSource {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: DocsPathUse[] = [];
  const unreadable: string[] = [];
  const visit = (node: ts.Node): void => {
    const isDocsPath =
      (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      node.name.text === "docsPath";
    if (isDocsPath) {
      const at = `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const values = ts.isPropertyAssignment(node) ? valuesOf(file, node.initializer) : undefined;
      if (values === undefined) unreadable.push(at);
      else for (const docsPath of values) found.push({ docsPath, at });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { found, unreadable };
}

/** The docsPaths written in the library source (not tests, benches or generated code) of `packagesDir`'s packages. */
export function collectDocsPaths(packagesDir: string): DocsPathsOfSource {
  const found: DocsPathUse[] = [];
  const unreadable: string[] = [];
  for (const pkg of readdirSync(packagesDir)) {
    const srcDir = join(packagesDir, pkg, "src");
    let names: string[];
    try {
      names = readdirSync(srcDir, { recursive: true }) as string[];
    } catch {
      continue;
    }
    for (const name of names) {
      if (!/\.tsx?$/.test(name) || /\.(test|test-d|bench)\.ts$/.test(name) || name.startsWith("gen/"))
        continue;
      const text = readFileSync(join(srcDir, name), "utf8");
      if (!text.includes("docsPath")) continue;
      const result = docsPathsOfSource(`packages/${pkg}/src/${name}`, text);
      found.push(...result.found);
      unreadable.push(...result.unreadable);
    }
  }
  return { found, unreadable };
}
