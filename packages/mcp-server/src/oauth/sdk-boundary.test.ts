/**
 * The authorization server is ours: the agent server's sources import nothing from the MCP SDK's
 * `server/auth/*` modules that its next major freezes in `@modelcontextprotocol/server-legacy/auth`
 * (`mcpAuthRouter`, `OAuthServerProvider`, the handlers, `clients`, `errors`, the client-auth and
 * allowed-methods middleware, the proxy provider). Only the resource-server helpers the next major
 * keeps (in `@modelcontextprotocol/express` and `@modelcontextprotocol/server`) may be imported, by
 * name, so that upgrade is a change of import paths.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SDK_AUTH = "@modelcontextprotocol/sdk/server/auth/";

/** The kept resource-server helpers, by the v1 module that exports them. */
const KEPT: Record<string, readonly string[]> = {
  "middleware/bearerAuth.js": ["requireBearerAuth"],
  "router.js": ["mcpAuthMetadataRouter", "getOAuthProtectedResourceMetadataUrl"],
  "provider.js": ["OAuthTokenVerifier"],
  "types.js": ["AuthInfo"],
};

/** Every import (static, re-export or dynamic) of an SDK auth module in a source, with its names. */
function sdkAuthImports(file: string, text: string): { module: string; names: string[]; at: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { module: string; names: string[]; at: string }[] = [];
  const at = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text.startsWith(SDK_AUTH)
    ) {
      const names: string[] = [];
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
      } else {
        names.push("*");
      }
      if (ts.isImportDeclaration(node) && node.importClause?.name) names.push("default");
      found.push({ module: node.moduleSpecifier.text.slice(SDK_AUTH.length), names, at: at(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      node.arguments[0].text.startsWith(SDK_AUTH)
    ) {
      found.push({ module: node.arguments[0].text.slice(SDK_AUTH.length), names: ["*"], at: at(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the MCP SDK's authorization-server modules", () => {
  const srcDir = fileURLToPath(new URL("..", import.meta.url));
  const sources = (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => ({ file: name, text: readFileSync(join(srcDir, name), "utf8") }));

  it("finds the imports it checks (static, type-only, re-exported and dynamic)", () => {
    const sample = [
      'import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";',
      'import type { OAuthServerProvider as P } from "@modelcontextprotocol/sdk/server/auth/provider.js";',
      'export { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";',
      'const m = await import("@modelcontextprotocol/sdk/server/auth/handlers/token.js");',
      'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
    ].join("\n");
    expect(sdkAuthImports("sample.ts", sample).map(({ module, names }) => ({ module, names }))).toEqual([
      { module: "router.js", names: ["mcpAuthRouter"] },
      { module: "provider.js", names: ["OAuthServerProvider"] },
      { module: "errors.js", names: ["InvalidGrantError"] },
      { module: "handlers/token.js", names: ["*"] },
    ]);
  });

  it("are not imported: only the resource-server helpers the next major keeps, by name", () => {
    expect(sources.length).toBeGreaterThan(20);
    const offending: string[] = [];
    for (const { file, text } of sources) {
      for (const { module, names, at } of sdkAuthImports(file, text)) {
        const kept = KEPT[module] ?? [];
        const frozen = names.filter((name) => !kept.includes(name));
        if (frozen.length > 0) offending.push(`${at}: ${frozen.join(", ")} from ${SDK_AUTH}${module}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
