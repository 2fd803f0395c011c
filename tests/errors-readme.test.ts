/**
 * The codes table of `packages/errors/README.md` is the `PerpxErrorCode` union of
 * `packages/errors/src/index.ts`, code for code and in the same order, so the README cannot drift
 * from the codes an error can carry.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const errorsDir = fileURLToPath(new URL("../packages/errors/", import.meta.url));

/** The string literals of the `PerpxErrorCode` union, read from the source's syntax tree. */
function unionCodes(): string[] {
  const file = `${errorsDir}src/index.ts`;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const alias = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && statement.name.text === "PerpxErrorCode",
  );
  if (!alias || !ts.isUnionTypeNode(alias.type)) throw new TypeError("PerpxErrorCode is not a union type");
  return alias.type.types.map((member) => {
    if (!ts.isLiteralTypeNode(member) || !ts.isStringLiteral(member.literal)) {
      throw new TypeError(
        `PerpxErrorCode has a member that is not a string literal: ${member.getText(source)}`,
      );
    }
    return member.literal.text;
  });
}

/** The first column of the table under the README's `## Codes` heading. */
function readmeCodes(): string[] {
  const readme = readFileSync(`${errorsDir}README.md`, "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Codes\n"));
  if (section === undefined) throw new TypeError("packages/errors/README.md has no ## Codes section");
  return [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1] ?? "");
}

describe("@perpx/errors README", () => {
  it("lists exactly the PerpxErrorCode codes, in the union's order", () => {
    const codes = unionCodes();
    expect(codes.length).toBeGreaterThan(10);
    expect(readmeCodes()).toEqual(codes);
  });
});
