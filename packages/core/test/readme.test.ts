/**
 * Every TypeScript snippet of the README runs (against the source, through the workspace aliases),
 * and every `expression; // <JS literal>` line in it is checked: the comment is the value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readmeSnippets, withValueChecks } from "../../../tests/support/readme.js";

const snippets = readmeSnippets(new URL("../README.md", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "perpx-core-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README", () => {
  it("has snippets", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(4);
  });

  it.each(snippets.map((code, index) => [index + 1, code] as const))(
    "snippet %i runs and shows true values",
    async (index, code) => {
      const { code: checked, checks } = withValueChecks(code);
      expect(checks).toBeGreaterThan(0);
      const file = join(dir, `snippet-${index}.ts`);
      writeFileSync(file, checked);
      await expect(import(/* @vite-ignore */ pathToFileURL(file).href)).resolves.toBeDefined();
    },
  );
});
