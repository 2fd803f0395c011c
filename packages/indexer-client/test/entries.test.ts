/**
 * A trader-sized root (issue 23, point 3): `@perpx/indexer-client` exports the client, the common
 * reads and the live books and accounts; the long tail of REST calls and the socket's parts are
 * in `/rest` and `/ws`, and every name is in exactly one entry.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

/** The names (values and types) an entry file exports, as the type checker sees them. */
function exportsOf(file: string): string[] {
  const program = ts.createProgram([src(file)], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(src(file));
  const symbol = entry && checker.getSymbolAtLocation(entry);
  if (!symbol) throw new Error(`${file} has no module symbol`);
  return checker.getExportsOfModule(symbol).map((exported) => exported.name);
}

describe("the entries of @perpx/indexer-client", () => {
  const root = exportsOf("index.ts");
  const rest = exportsOf("rest.ts");
  const ws = exportsOf("ws.ts");

  it("keeps the root trader-sized: at most 70 names (191 when it held everything)", () => {
    expect(root.length).toBeLessThanOrEqual(70);
    for (const name of ["createIndexerClient", "getFills", "getOrders", "getSubaccount", "watchOrderBook"]) {
      expect(root).toContain(name);
    }
    for (const name of ["watchSubaccount", "connectIndexerSocket", "IndexerHttpError", "OrderBook"]) {
      expect(root).toContain(name);
    }
  });

  it("puts the long tail behind /rest and the socket's parts behind /ws, each name in one entry", () => {
    expect(rest).toEqual(
      expect.arrayContaining(["restActions", "restIterators", "withDecimals", "indexerActions"]),
    );
    expect(ws).toEqual(expect.arrayContaining(["Subscription", "Emitter", "IndexerFrameError"]));
    const all = [...root, ...rest, ...ws];
    expect(new Set(all).size).toBe(all.length);
  });
});
