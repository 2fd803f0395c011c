/**
 * The shape of `@perpx/node-client`'s public surface (issue 23, point 3): the root entry is sized for
 * a trader (a bounded number of names), and every `Query` method the devnet's chain serves is an
 * action of the package (`@perpx/node-client/queries` or the root), read from the proto descriptors
 * of `@perpx/proto` and the devnet's own routes, so a new proto method cannot be forgotten.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createChainApp } from "@perpx/devnet";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as proto from "../packages/proto/src/index.js";

const nodeClientSrc = fileURLToPath(new URL("../packages/node-client/src/", import.meta.url));

/** The root entry's exported names (values and types), as the type checker sees them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new TypeError(`${entry} has no module symbol`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.name);
}

/** What the test reads of a protobuf-es service descriptor (`DescService`). */
interface DescService {
  kind: "service";
  typeName: string;
  methods: ReadonlyArray<{ name: string }>;
  method: Record<string, { name: string } | undefined>;
}

/** Every `Query` service descriptor `@perpx/proto` exports (one per module namespace). */
function queryServices(): DescService[] {
  const services: DescService[] = [];
  for (const namespace of Object.values(proto)) {
    const service = (namespace as { Query?: DescService }).Query;
    if (typeof namespace === "object" && service?.kind === "service") services.push(service);
  }
  return services;
}

/**
 * The gRPC paths the node client's queries call: every `<namespace>.Query.method.<name>` of the
 * query sources, resolved through the `@perpx/proto` namespace it names.
 */
function pathsCalledByQueries(): Set<string> {
  const called = new Set<string>();
  const dir = join(nodeClientSrc, "query");
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const text = readFileSync(join(dir, name), "utf8");
    for (const [, namespace, method] of text.matchAll(/\b(\w+)\.Query\.method\.(\w+)/g)) {
      const service = (proto as Record<string, { Query?: DescService }>)[namespace!]?.Query;
      const desc = service?.method[method!];
      if (desc) called.add(`/${service.typeName}/${desc.name}`);
    }
  }
  return called;
}

describe("@perpx/node-client's surface", () => {
  it("the root entry is sized for a trader: at most 96 names (320 before the chain-module queries moved)", () => {
    const names = exportedNames(join(nodeClientSrc, "index.ts"));
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(96);
    // The chain-module queries live behind the subpath, not at the root.
    expect(names.filter((name) => /^get(Packet|Bridge|Affiliate|Denom|Daily|Limit|Wrap)/.test(name))).toEqual(
      [],
    );
  });

  it("every Query method the devnet serves is called by a node-client query", () => {
    const app = createChainApp({ profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") });
    const served: string[] = [];
    for (const service of queryServices()) {
      for (const method of service.methods) {
        const path = `/${service.typeName}/${method.name}`;
        // Code 6 in the sdk codespace is "unknown request": the chain has no route for the path.
        const answer = app.query(path, new Uint8Array());
        if (!(answer.code === 6 && answer.codespace === "sdk")) served.push(path);
      }
    }
    expect(served.length).toBeGreaterThan(50);
    const called = pathsCalledByQueries();
    expect(served.filter((path) => !called.has(path))).toEqual([]);
  });
});
