/**
 * What each entry point's module graph may pull in. The browser budgets (`.size-limit.js`) measure
 * the sizes; this names the libraries: `ox` is some forty modules and noble's secp256k1 the biggest
 * library of the SDK's bundles, so the main entry carries neither, `@perpx/core/evm` (building and
 * signing) carries no secp256k1, and only `@perpx/core/evm-verify` (signer recovery) has both.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

/** Every package specifier the module graph from `entry` imports (values and types), by file. */
function externalImports(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const match of code.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)";/gms)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else found.set(specifier, [...(found.get(specifier) ?? []), file.slice(SRC.length + 1)]);
    }
  };
  visit(join(SRC, entry));
  return found;
}

/** The specifiers of `entry`'s graph that match `pattern`, each with the files that import it. */
function offenders(entry: string, pattern: RegExp): string[] {
  return [...externalImports(entry)]
    .filter(([specifier]) => pattern.test(specifier))
    .map(([specifier, files]) => `${specifier} <- ${files.join(", ")}`);
}

describe("what each entry point loads", () => {
  it("@perpx/core imports neither ox nor noble's curves", () => {
    expect(offenders("index.ts", /^ox(\/|$)|^@noble\/curves/)).toEqual([]);
  });

  it("@perpx/core/indexer imports neither ox nor noble", () => {
    expect(offenders("indexer.ts", /^ox(\/|$)|^@noble\//)).toEqual([]);
  });

  it("@perpx/core/evm encodes with ox and needs no secp256k1", () => {
    expect(offenders("evm.ts", /^@noble\/curves/)).toEqual([]);
    expect([...externalImports("evm.ts").keys()]).toContain("ox/TxEnvelopeEip1559");
  });

  it("@perpx/core/evm-verify recovers signers with noble's secp256k1", () => {
    expect([...externalImports("evm-verify.ts").keys()]).toContain("@noble/curves/secp256k1.js");
  });
});
