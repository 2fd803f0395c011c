/**
 * The doc runner: every TypeScript snippet of the READMEs (root and packages) and every `@example`
 * in the source of the publishable packages runs, and every value it shows is checked (the claim
 * conventions are in ./support/docs.ts). An example sees its package's exports, the exports of its
 * own module and (for an internal module) what the package's other modules export, without importing
 * them; a snippet that names `devnet` without declaring it gets a running devnet on free ports, and
 * `PERPX_MNEMONIC_0` to `PERPX_MNEMONIC_3` and core's `PERPX_*_URL` variables point at it (gRPC
 * at its h2c port, so `PERPX_GRPC_CA` stays unset). An
 * `@example` may also use its package's
 * fixtures (./support/docs-fixtures.ts: the node client's `client`, `wallet`, `subaccount`, `btc`,
 * `mnemonic`; the composite client's `client`, `wallet`, `devnetOptions`, `context`, `node`,
 * `indexer`, `btc`, `subaccount`, `placed`, `faucetUrl`, `mnemonic`, on a devnet of their own with
 * a market maker; the agent server's `credential`, `principal`, `account`, `accounts`, `deps`,
 * `baseContext`, `node`, `serverOptions`, `devnetOptions` on that devnet and a `postgresUrl`),
 * built the first time one is used and shared by every example. Every check a
 * snippet holds must run once.
 *
 * `npm run check:docs` runs only this file; `DOCS_FILTER=<text>` runs the snippets whose id contains it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Devnet } from "@perpx/devnet";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { declaredNames, instrument, usedNames, workspaceSnippets } from "./support/docs.js";
import { closeFixtures, fixtureDeclarations, fixtureNames, fixtureValue } from "./support/docs-fixtures.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const RUN_DIR = ".docs-run";
const filter = process.env.DOCS_FILTER;
const snippets = workspaceSnippets(root).filter((snippet) => !filter || snippet.id.includes(filter));

/**
 * Examples known not to run yet (`path owner`, or a README's path), each with why. The test fails
 * when one of their snippets runs, so this list only shrinks.
 */
const PENDING: Record<string, string> = {};

/**
 * Packages whose examples are not run in CI, with why. `DOCS_ALL=1` runs them too (and reports
 * their failures).
 */
const SKIPPED_PACKAGES: Record<string, string> = {};

let devnet: Devnet | undefined;
const savedEnv = { ...process.env };
async function sharedDevnet(): Promise<Devnet> {
  if (devnet) return devnet;
  const { startDevnet } = await import("@perpx/devnet");
  devnet = await startDevnet({ ports: "free", blockTimeMs: 50, faucetWindowMs: 0 });
  for (const index of [0, 1, 2, 3]) process.env[`PERPX_MNEMONIC_${index}`] = devnet.accounts[index]!.mnemonic;
  // Core's endpoint variables (gRPC in h2c, so no CA is needed), and no PERPX_MNEMONIC (the
  // composite client's README quick start then funds a new wallet from the faucet).
  const { endpoints } = devnet;
  process.env.PERPX_NODE_RPC_URL = endpoints.nodeRpc;
  process.env.PERPX_NODE_REST_URL = endpoints.nodeRest;
  process.env.PERPX_GRPC_URL = endpoints.grpc;
  process.env.PERPX_FAUCET_URL = endpoints.faucet;
  process.env.PERPX_INDEXER_URL = endpoints.indexer;
  process.env.PERPX_INDEXER_WS_URL = endpoints.indexerWs;
  delete process.env.PERPX_MNEMONIC;
  return devnet;
}

/** The working tree's changes (`git status`): a snippet must not write into the repository. */
const treeState = () =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: root, encoding: "utf8" });
const treeBefore = treeState();

const dirs = new Set<string>();
afterAll(async () => {
  await closeFixtures();
  await devnet?.stop();
  process.env = savedEnv;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  expect(treeState(), "a snippet wrote into the working tree").toBe(treeBefore);
});

const exporters = new Map<string, Map<string, string>>();
/** Which source file of a package declares each export (`export function|const|class|interface|type name`). */
function exportersOf(dir: string): Map<string, string> {
  let found = exporters.get(dir);
  if (found) return found;
  found = new Map();
  for (const file of (readdirSync(join(dir, "src"), { recursive: true }) as string[]).sort()) {
    if (!file.endsWith(".ts") || /\.(test|test-d|bench)\.ts$/.test(file)) continue;
    const text = readFileSync(join(dir, "src", file), "utf8");
    for (const match of text.matchAll(
      /^export (?:declare )?(?:async )?(?:function\*?|const|let|class|interface|type|enum) ([\w$]+)/gm,
    )) {
      if (!found.has(match[1]!)) found.set(match[1]!, join(dir, "src", file));
    }
  }
  exporters.set(dir, found);
  return found;
}

/** Imports (values and types) of the package names a snippet uses without declaring, for the type checker. */
function typePrelude(snippet: (typeof snippets)[number], dir: string): string {
  const declared = declaredNames(snippet.code);
  const used = usedNames(snippet.code);
  const lines: string[] = [];
  if (used.has("devnet") && !declared.has("devnet")) {
    const devnetIndex = relative(dir, join(root, "packages/devnet/src/index.js"));
    lines.push(`declare const devnet: import(${JSON.stringify(devnetIndex)}).Devnet;`);
  }
  if (!snippet.pkg || !snippet.file) return lines.join("\n") + (lines.length ? "\n" : "");
  const byFile = new Map<string, string[]>();
  for (const name of used) {
    if (declared.has(name)) continue;
    const exportedHere = new RegExp(
      `^export (?:declare )?(?:async )?(?:function\\*?|const|let|class|interface|type|enum) ${name}\\b`,
      "m",
    ).test(readFileSync(snippet.file, "utf8"));
    const file = exportedHere ? snippet.file : exportersOf(snippet.dir).get(name);
    if (!file) continue;
    byFile.set(file, [...(byFile.get(file) ?? []), name]);
  }
  const imported = new Set([...byFile.values()].flat());
  const fixtures = [...used].filter((name) => !declared.has(name) && !imported.has(name));
  const declarations = fixtureDeclarations(snippet.pkg, fixtures, relative(dir, join(snippet.dir, "src")));
  if (declarations) lines.push(declarations.trimEnd());
  for (const [file, names] of byFile) {
    const specifier = relative(dir, file).replace(/\.ts$/, ".js");
    lines.push(`import { ${names.join(", ")} } from ${JSON.stringify(specifier)};`);
  }
  return lines.join("\n") + (lines.length ? "\n" : "");
}

interface Ran {
  ran: number;
}

/** Runs one snippet as a module inside its package (so its imports resolve as the package's would). */
async function run(
  snippet: (typeof snippets)[number],
  index: number,
): Promise<{ declared: number; ran: number }> {
  const { code, checks } = instrument(snippet.code);
  const declared = declaredNames(snippet.code);
  const used = usedNames(code);
  const scope: Record<string, unknown> = {};
  const modules = [
    snippet.pkg ? await import(/* @vite-ignore */ join(snippet.dir, "src", "index.ts")) : {},
    snippet.file ? await import(/* @vite-ignore */ snippet.file) : {},
  ] as Array<Record<string, unknown>>;
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (used.has(name) && !declared.has(name)) scope[name] = value;
    }
  }
  // An example of an internal module may use the other modules of its package.
  if (snippet.file) {
    for (const name of used) {
      if (name in scope || declared.has(name)) continue;
      const owner = exportersOf(snippet.dir).get(name);
      if (owner) {
        const value = (await import(/* @vite-ignore */ owner))[name];
        if (value !== undefined) scope[name] = value;
      }
    }
  }
  // A README snippet declares what it uses; an `@example` may use its package's fixtures.
  const fixtures = [...fixtureNames(snippet.file && snippet.pkg)].filter(
    (name) => used.has(name) && !declared.has(name) && !(name in scope),
  );
  const needsNetwork =
    (used.has("devnet") && !declared.has("devnet")) ||
    snippet.code.includes("process.env.PERPX_") ||
    fixtures.length > 0;
  if (needsNetwork) {
    const net = await sharedDevnet();
    if (used.has("devnet") && !declared.has("devnet")) scope.devnet = net;
    for (const name of fixtures) scope[name] = await fixtureValue(snippet.pkg!, name, net);
  }
  const counter: Ran = { ran: 0 };
  const __check = (actual: unknown, expected: unknown, line: string) => {
    counter.ran++;
    expect(actual, line).toEqual(expected);
  };
  const __throws = (fn: () => unknown, name: string, reason: string | undefined, line: string) => {
    counter.ran++;
    const matcher = expect.objectContaining(reason === undefined ? { name } : { name, reason });
    let result: unknown;
    try {
      result = fn();
    } catch (error) {
      expect(error, line).toEqual(matcher);
      return;
    }
    if (result instanceof Promise) {
      return result.then(
        () => expect.unreachable(`${line}: resolved, expected it to throw ${name}`),
        (error: unknown) => expect(error, line).toEqual(matcher),
      );
    }
    expect.unreachable(`${line}: returned, expected it to throw ${name}`);
  };
  (globalThis as { __perpxDocs?: unknown }).__perpxDocs = { ...scope, __check, __throws };
  const names = ["__check", "__throws", ...Object.keys(scope)];
  const prelude = `const { ${names.join(", ")} } = (globalThis as unknown as { __perpxDocs: Record<string, any> }).__perpxDocs;\n`;
  const dir = join(snippet.dir, RUN_DIR);
  mkdirSync(dir, { recursive: true });
  dirs.add(dir);
  const file = join(dir, `snippet-${index}.ts`);
  writeFileSync(file, `${prelude}${code}\nexport {};\n`);
  await import(/* @vite-ignore */ pathToFileURL(file).href);
  return { declared: checks, ran: counter.ran };
}

describe("docs", () => {
  it("finds the READMEs' snippets and the packages' examples", () => {
    if (filter) return;
    expect(snippets.filter((s) => s.file === undefined).length).toBeGreaterThanOrEqual(10);
    expect(snippets.filter((s) => s.file !== undefined).length).toBeGreaterThanOrEqual(300);
  });

  const table = snippets.map((snippet, index) => [snippet.id, snippet, index] as const);
  const skipped = ([, snippet]: (typeof table)[number]) =>
    !process.env.DOCS_ALL && snippet.pkg !== undefined && snippet.pkg in SKIPPED_PACKAGES;
  it.skip.each(table.filter(skipped))("%s (skipped: see SKIPPED_PACKAGES)", () => {});

  // One TypeScript program over ~1,300 snippets: about 15 s alone, over 30 s on a loaded machine.
  it("every snippet typechecks (so one that only shows a type or a shape is checked too)", () => {
    const files: string[] = [];
    const origin = new Map<string, string>();
    for (const [id, snippet, index] of table.filter(
      (row) => !skipped(row) && !(row[0].replace(/:\d+/, "") in PENDING),
    )) {
      const dir = join(snippet.dir, RUN_DIR);
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
      const file = join(dir, `typecheck-${index}.ts`);
      writeFileSync(file, `${typePrelude(snippet, dir)}${snippet.code}\nexport {};\n`);
      files.push(file);
      origin.set(file, id);
    }
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ["node"],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
    });
    const problems = files.flatMap((file) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
        return `${origin.get(file)} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
      }),
    );
    expect(problems).toEqual([]);
  }, 180_000);

  it.each(table.filter((row) => !skipped(row)))(
    "%s runs and shows true values",
    async (id, snippet, index) => {
      const pending = PENDING[id.replace(/:\d+/, "")];
      const outcome = await run(snippet, index).then(
        ({ declared, ran }) => {
          expect(ran, "every check of the snippet ran").toBe(declared);
          return undefined;
        },
        (error: unknown) => error,
      );
      if (pending) {
        expect(outcome, `${id} runs now: remove it from PENDING`).toBeDefined();
      } else if (outcome !== undefined) {
        throw outcome;
      }
    },
  );
});
