/**
 * One name per variable: every `PERPX_*` name in every README, in the per-network `.env` templates
 * and in the publishable packages' and examples' sources is a variable of `@perpx/core`'s two
 * tables (`ENDPOINT_VARIABLES` for endpoints, `OTHER_ENV_VARS` for the rest), so no doc can teach a
 * name the code does not read (`PERPX_NODE_RPC` for `PERPX_NODE_RPC_URL`).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENDPOINT_NAMES, ENDPOINT_VARIABLES, OTHER_ENV_VARS } from "@perpx/core";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const KNOWN = new Set([
  ...ENDPOINT_NAMES.map((name) => ENDPOINT_VARIABLES[name].envVar),
  ...Object.keys(OTHER_ENV_VARS),
]);

/** Tracked files matching `patterns` (git pathspecs). */
function tracked(...patterns: string[]): string[] {
  return execFileSync("git", ["ls-files", "--", ...patterns], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file !== "");
}

/** Every `PERPX_*` name in `files` that is in neither table, as `file: NAME`. */
function unknownNames(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), "utf8");
    const names = new Set(text.match(/\bPERPX_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);
    return [...names].filter((name) => !KNOWN.has(name)).map((name) => `${file}: ${name}`);
  });
}

describe("environment variable names", () => {
  it("every README names only variables of core's tables", () => {
    const readmes = tracked("*README.md", ":!:**/CHANGELOG.md");
    expect(readmes.length).toBeGreaterThan(5);
    expect(unknownNames(readmes)).toEqual([]);
  });

  it("the .env templates and the sources name only variables of core's tables", () => {
    const templates = tracked("packages/core/env/*.env.example");
    expect(templates.length).toBe(3);
    const sources = tracked("packages/*/src/**/*.ts", "examples/src/**/*.ts", ":!:**/*.test.ts");
    expect(unknownNames([...templates, ...sources])).toEqual([]);
  });

  it("catches a name outside the tables (the node-client README's old PERPX_NODE_RPC)", () => {
    expect(KNOWN.has("PERPX_NODE_RPC_URL")).toBe(true);
    expect(KNOWN.has("PERPX_NODE_RPC")).toBe(false);
    expect("nodeRpc: process.env.PERPX_NODE_RPC ?? x".match(/\bPERPX_[A-Z0-9_]*[A-Z0-9]\b/g)).toEqual([
      "PERPX_NODE_RPC",
    ]);
  });
});
