/**
 * The devnet checks EVM transactions and EIP-712 approvals with its own implementation
 * (`src/lib/evm`), never with the client's (`@perpx/core`, on `ox`): otherwise a wire test, where a
 * client signs and the devnet verifies, would run one implementation against itself and could not
 * catch a bug in it. This reads the devnet's sources for any import of the client's encoders.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../package.json", import.meta.url));

/** Core's names that encode, hash or recover: the devnet must have its own. */
const CLIENT_ENCODERS = [
  "encodeType",
  "hashType",
  "hashStruct",
  "hashTypedData",
  "recoverAddress",
  "verifyApproveAgent",
  "verifyEthSignature",
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * The names a file imports from `@perpx/core`, and whether it imports `@perpx/core/evm`,
 * `@perpx/core/evm-verify` or `ox`.
 */
function coreImports(text: string): { names: string[]; evm: boolean; ox: boolean } {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@perpx\/core"/g)) {
    for (const part of (match[1] as string).split(",")) {
      const name = part
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.push(name);
    }
  }
  return {
    names,
    evm: /from\s+"@perpx\/core\/(evm|evm-verify)"/.test(text),
    ox: /from\s+"ox(\/[\w-]+)?"/.test(text),
  };
}

describe("the devnet verifies with an implementation of its own", () => {
  it("no devnet source imports the client's EVM encoders, EIP-712 hashing or ox", () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      // Doc comments may show client code (an example signs as a client would): check code only.
      const code = readFileSync(file, "utf8").replace(/\/\*\*[\s\S]*?\*\//g, "");
      const { names, evm, ox } = coreImports(code);
      const where = relative(SRC, file);
      if (evm) offenders.push(`${where}: @perpx/core/evm or /evm-verify`);
      if (ox) offenders.push(`${where}: ox`);
      for (const name of names.filter((n) => CLIENT_ENCODERS.includes(n)))
        offenders.push(`${where}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });

  it("ox is not a dependency of the devnet", () => {
    const manifest = JSON.parse(readFileSync(PACKAGE, "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    expect(manifest.dependencies?.ox).toBeUndefined();
  });
});
