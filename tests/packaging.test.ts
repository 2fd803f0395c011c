import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const packagesDir = join(import.meta.dirname, "..", "packages");
const publishable = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, "package.json")))
  .map((name) => ({
    dir: join(packagesDir, name),
    pkg: JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")),
  }))
  .filter(({ pkg }) => !pkg.private);

type Seen = { names: string[] } | { error: string };

/**
 * Loads entries of one package in one child Node process (plain Node, no loaders, in the package's
 * folder so its own name resolves), each by `import`, `require` or path (`file:` URLs, the module
 * build bundlers take), and gives each one's export names ("default" left out of an import) or the
 * error it threw. One process per package and way of loading, not one per entry: an entry's export
 * names do not depend on which entries the process loaded before it.
 */
function exportsSeen(mode: "import" | "require", specifiers: string[], cwd: string): Map<string, Seen> {
  const load =
    mode === "require"
      ? "async (s) => Object.keys(require(s))"
      : `async (s) => Object.keys(await import(s)).filter((k) => k !== "default")`;
  const script = `const load = ${load};
(async () => {
  const seen = {};
  for (const s of ${JSON.stringify(specifiers)}) {
    try { seen[s] = { names: (await load(s)).sort() }; } catch (e) { seen[s] = { error: String(e?.stack ?? e) }; }
  }
  console.log(JSON.stringify(seen));
})();`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd, encoding: "utf8" });
  return new Map(Object.entries<Seen>(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")));
}

/**
 * Whether `import` and `require` of each entry give the same module: every export is the same value
 * (one instance per process, so a class is one class however the package was loaded). One process
 * per package, as Node would load them side by side in one program.
 */
function sameInstances(specifiers: string[], cwd: string): Map<string, boolean> {
  const script = `(async () => {
  const same = {};
  for (const s of ${JSON.stringify(specifiers)}) {
    const c = require(s);
    const m = await import(s);
    same[s] = Object.keys(c).every((k) => m[k] === c[k]);
  }
  console.log(JSON.stringify(same));
})();`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd, encoding: "utf8" });
  return new Map(Object.entries<boolean>(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")));
}

/** The names an entry exposes, or the test fails with the error its loading threw. */
function namesOf(seen: Map<string, Seen>, specifier: string): string[] {
  const result = seen.get(specifier);
  if (result === undefined) throw new Error(`${specifier} was not loaded`);
  if ("error" in result) throw new Error(`${specifier} failed to load: ${result.error}`);
  return result.names;
}

/** Memoizes a computation per package, done the first time one of its tests asks. */
function perPackage<T>(compute: (dir: string) => T): (dir: string) => T {
  const done = new Map<string, T>();
  return (dir) => {
    if (!done.has(dir)) done.set(dir, compute(dir));
    return done.get(dir) as T;
  };
}

/** The entry points a package's `exports` map declares: "." and its subpaths (not package.json). */
function entryPointsOf(pkg: { name: string; exports?: Record<string, unknown> }): string[] {
  return Object.keys(pkg.exports ?? { ".": {} })
    .filter((key) => key !== "./package.json")
    .map((key) => (key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

const manifestOf = new Map(publishable.map(({ dir, pkg }) => [dir, pkg]));
/** The `module` builds of a package's exports: entry specifier and built file. */
function moduleBuildsOf(dir: string): Array<{ entry: string; file: string }> {
  const pkg = manifestOf.get(dir)!;
  return Object.entries<Record<string, { default: string }>>(pkg.exports).flatMap(([subpath, conditions]) => {
    const moduleBuild = conditions.module?.default;
    if (moduleBuild === undefined) return [];
    const entry = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    return [{ entry, file: pathToFileURL(join(dir, moduleBuild)).href }];
  });
}
const imported = perPackage((dir) => exportsSeen("import", entryPointsOf(manifestOf.get(dir)!), dir));
const required = perPackage((dir) => exportsSeen("require", entryPointsOf(manifestOf.get(dir)!), dir));
const byPath = perPackage((dir) =>
  exportsSeen(
    "import",
    moduleBuildsOf(dir).map(({ file }) => file),
    dir,
  ),
);
const same = perPackage((dir) =>
  sameInstances(
    moduleBuildsOf(dir).map(({ entry }) => entry),
    dir,
  ),
);

describe("built packages load in plain Node 20", () => {
  for (const { dir, pkg } of publishable) {
    for (const entry of entryPointsOf(pkg)) {
      it(`${entry}: import and require expose the same non-empty API`, () => {
        expect(existsSync(join(dir, "dist", "index.js")), `${pkg.name} is built`).toBe(true);
        const viaImport = namesOf(imported(dir), entry);
        const viaRequire = namesOf(required(dir), entry);
        expect(viaImport.length).toBeGreaterThan(0);
        expect(viaRequire).toEqual(viaImport);
      });
    }
  }
});

describe("Node's import is the CommonJS build, bundlers get the ES module build", () => {
  for (const { dir } of publishable) {
    for (const { entry, file } of moduleBuildsOf(dir)) {
      it(`${entry}: one instance for import and require; the module build has the same names`, () => {
        expect(same(dir).get(entry)).toBe(true);
        expect(namesOf(byPath(dir), file)).toEqual(namesOf(imported(dir), entry));
      });
    }
  }
});

describe("a clean install", () => {
  const root = join(import.meta.dirname, "..");
  const read = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));

  it("packs only the publishable packages: every workspace member outside packages/ is private", () => {
    for (const member of ["examples", "tests", "bench"]) {
      expect(read(`${member}/package.json`).private, member).toBe(true);
    }
    expect(publishable.map(({ pkg }) => pkg.name).sort()).toEqual([
      "@perpx/address",
      "@perpx/composite-client",
      "@perpx/core",
      "@perpx/devnet",
      "@perpx/errors",
      "@perpx/explorer",
      "@perpx/fork",
      "@perpx/indexer-client",
      "@perpx/mcp-server",
      "@perpx/node-client",
      "@perpx/proto",
    ]);
  });

  it("links every bin before the build: bins are committed files, not build output", () => {
    for (const { dir, pkg } of publishable) {
      for (const target of Object.values<string>(pkg.bin ?? {})) {
        expect(target.startsWith("./dist/"), `${pkg.name} bin ${target}`).toBe(false);
        const tracked = execFileSync("git", ["ls-files", "--error-unmatch", target], {
          cwd: dir,
          encoding: "utf8",
        });
        expect(tracked.trim()).not.toBe("");
      }
    }
  });

  it("decides every dependency build script: allowed or deliberately ignored", () => {
    const { onlyBuiltDependencies, ignoredBuiltDependencies } = read("package.json").pnpm;
    expect(ignoredBuiltDependencies).toContain("protobufjs");
    expect(onlyBuiltDependencies).toContain("secp256k1");
  });
});

describe("loading is cheap", () => {
  /** The packages (under node_modules) a plain `require` of `name` loads, run from `cwd`. */
  function packagesLoadedBy(name: string, cwd: string, then = ""): string[] {
    const script = `require(${JSON.stringify(name)}); ${then}
const nameOf = (f) => (f.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?!.*node_modules)/) ?? [])[1] ?? ((f.match(/\\/packages\\/([^/]+)\\/dist\\//) ?? [])[1] && "@perpx/" + f.match(/\\/packages\\/([^/]+)\\/dist\\//)[1]);
const names = new Set(Object.keys(require.cache).map(nameOf).filter(Boolean));
console.log(JSON.stringify([...names].sort()));`;
    const out = execFileSync(process.execPath, ["-e", script], { cwd, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").at(-1) ?? "[]");
  }
  const nodeClient = join(packagesDir, "node-client");

  it("@perpx/node-client loads no transport library (cosmjs, connect, ws) until a transport is used", () => {
    const loaded = packagesLoadedBy("@perpx/node-client", nodeClient);
    expect(loaded).toContain("@perpx/proto");
    expect(
      loaded.filter((name) => /^@cosmjs\/|^@connectrpc\/|^ws$|^secp256k1$|^@scure\//.test(name)),
    ).toEqual([]);
  });

  it("@perpx/node-client's CommonJS build loads protobuf-es and noble on first use, not at require", () => {
    expect(
      packagesLoadedBy("@perpx/node-client", nodeClient).filter((name) =>
        /^@bufbuild\/|^@noble\//.test(name),
      ),
    ).toEqual([]);
    const used = packagesLoadedBy(
      "@perpx/node-client",
      nodeClient,
      `const { placeOrderMsg } = require("@perpx/node-client/tx");
const { LocalWallet } = require("@perpx/node-client/wallets");
const wallet = LocalWallet.fromPrivateKey("1f".repeat(32), { backend: "js" });
placeOrderMsg({ subaccount: { owner: wallet.address, number: 0 }, clientId: 1, clobPairId: 0, side: "BUY", quantums: 10n, subticks: 10n, kind: "short-term", goodTilBlock: 10 });`,
    );
    expect(used).toContain("@bufbuild/protobuf");
    expect(used).toContain("@noble/curves");
  });

  it("@perpx/core loads neither @perpx/proto nor protobuf-es", () => {
    const loaded = packagesLoadedBy("@perpx/core", join(packagesDir, "core"));
    expect(loaded.filter((name) => /protobuf|^@perpx\/proto$/.test(name))).toEqual([]);
  });

  it("@perpx/core, its EVM entries, node-client and composite-client load ox and noble on first use, not at require", () => {
    const core = join(packagesDir, "core");
    const composite = join(packagesDir, "composite-client");
    for (const [name, cwd] of [
      ["@perpx/core", core],
      ["@perpx/core/evm", core],
      ["@perpx/core/evm-verify", core],
      ["@perpx/node-client", nodeClient],
      ["@perpx/composite-client", composite],
    ] as const) {
      const loaded = packagesLoadedBy(name, cwd).filter((pkg) => /^ox$|^@noble\//.test(pkg));
      expect(loaded, name).toEqual([]);
    }
    const used = packagesLoadedBy(
      "@perpx/core/evm",
      core,
      `require("@perpx/core/evm").evmSelector("transfer(address,uint256)");`,
    );
    expect(used).toContain("ox");
  });
});
