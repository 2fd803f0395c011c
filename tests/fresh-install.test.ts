/**
 * A fresh machine: the packed tarballs of the published packages (built `dist/`, as `pnpm pack`
 * makes them for the registry) installed with plain `npm` into an empty folder, no workspace links,
 * every `@perpx/*` dependency resolved to its tarball. The installed `perpx-devnet` CLI starts a
 * devnet and writes its `.env` (`--print-env`), and the composite client's README quick start, taken
 * from the README as written, runs against it from that folder with that file as its only
 * configuration. The README's one-line devnet connection runs as written, the installed `.env`
 * templates list every variable of core's table, and testnet with nothing set is refused naming
 * every missing endpoint.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENDPOINT_NAMES, ENDPOINT_VARIABLES, envTemplate, NETWORK_NAMES, OTHER_ENV_VARS } from "@perpx/core";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PORTS } from "../packages/devnet/test/support/cli-child.js";

const root = join(import.meta.dirname, "..");
const packagesDir = join(root, "packages");

/** The publishable packages: every package under packages/ that is not private. */
function publishable(): { name: string; dir: string }[] {
  return readdirSync(packagesDir)
    .map((entry) => join(packagesDir, entry))
    .flatMap((dir) => {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
          name: string;
          private?: boolean;
        };
        return pkg.private ? [] : [{ name: pkg.name, dir }];
      } catch {
        return [];
      }
    });
}

/** The environment of a user's shell: none of pnpm's `npm_*` variables, none of ours. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|PERPX_|PNPM_)/i.test(key)),
  );
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * The composite client README's first ts block after `heading` (the quick start: the first of all),
 * with its types stripped for plain Node.
 */
function readmeSnippet(heading = ""): string {
  const readme = readFileSync(join(packagesDir, "composite-client", "README.md"), "utf8");
  const from = heading ? readme.indexOf(heading) : 0;
  const block = from < 0 ? undefined : /```ts\n([\s\S]*?)```/.exec(readme.slice(from))?.[1];
  if (block === undefined) throw new Error(`the composite client's README has no ts block after ${heading}`);
  return ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** The variables a template assigns, commented out (`# NAME=`) or not, in order. */
function templateNames(text: string): string[] {
  return [...text.matchAll(/^(?:# )?(PERPX_[A-Z0-9_]+)=/gm)].map((m) => m[1]!);
}

/** The template's line count: `--print-env` has printed the whole file once it has this many. */
const ENV_LINES = envTemplate("local").split("\n").length - 1;

/** Starts the installed CLI on free ports and resolves with the `.env` it prints. */
function startDevnetCli(dir: string): Promise<{ child: ChildProcess; envFile: string }> {
  const args = ["start", "--print-env", "--liquidity", "--block-time-ms", "200", "--faucet-window-ms", "0"];
  args.push(...FREE_PORTS);
  const child = spawn(join(dir, "node_modules", ".bin", "perpx-devnet"), args, {
    cwd: dir,
    env: userEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split("\n").length - 1 >= ENV_LINES) resolve({ child, envFile: out });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) =>
      reject(new Error(`perpx-devnet exited (${code}) before it was ready: ${err}`)),
    );
  });
}

function runNode(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, file], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    // "close", not "exit": the child's last output can still be in its pipes when it exits.
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a user installs: the README's `pnpm add` line, and the devnet. */
const wanted = ["@perpx/composite-client", "@perpx/node-client", "@perpx/devnet"];

/** The @perpx packages `names` need, themselves included (their dependency closure). */
function closureOf(names: readonly string[]): string[] {
  const byName = new Map(publishable().map((p) => [p.name, p.dir]));
  const seen = new Set<string>();
  const visit = (name: string): void => {
    const dir = byName.get(name);
    if (dir === undefined || seen.has(name)) return;
    seen.add(name);
    const { dependencies = {} } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(dependencies)) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...seen];
}

describe("a fresh machine: the packed tarballs installed with npm", () => {
  const dir = mkdtempSync(join(tmpdir(), "perpx-fresh-install-"));
  let devnet: ChildProcess | undefined;
  let envFile: string;

  beforeAll(async () => {
    const packages = publishable();
    const filters = packages.flatMap((p) => ["--filter", p.name]);
    run(
      join(root, "node_modules", ".bin", "pnpm"),
      ["-r", ...filters, "pack", "--pack-destination", dir],
      root,
    );
    const tarballs = Object.fromEntries(
      packages.map((p) => {
        const file = `${p.name.replace("@", "").replace("/", "-")}-${
          (JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")) as { version: string }).version
        }.tgz`;
        return [p.name, `file:./${file}`];
      }),
    );
    // Every @perpx package resolves to its tarball, never to the registry.
    const pkg = {
      name: "fresh-machine",
      private: true,
      type: "module",
      dependencies: Object.fromEntries(wanted.map((name) => [name, tarballs[name]])),
      overrides: tarballs,
    };
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel", "error"], dir);
    const started = await startDevnetCli(dir);
    devnet = started.child;
    envFile = started.envFile;
  }, 180_000);

  afterAll(() => {
    devnet?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("installs no workspace link: every @perpx package is a real folder from its tarball", () => {
    const installed = readdirSync(join(dir, "node_modules", "@perpx"), { withFileTypes: true });
    expect(installed.map((e) => e.name).sort()).toEqual(
      closureOf(wanted)
        .map((name) => name.slice("@perpx/".length))
        .sort(),
    );
    for (const entry of installed) expect(entry.isDirectory(), entry.name).toBe(true);
  });

  it("runs the composite client's README quick start as written with the devnet's .env as its only configuration", async () => {
    expect(templateNames(envFile)).toEqual(templateNames(envTemplate("local")));
    writeFileSync(join(dir, ".env"), envFile);
    writeFileSync(join(dir, "quick-start.mjs"), readmeSnippet());
    const { code, stdout, stderr } = await runNode("quick-start.mjs", dir, userEnv(), ["--env-file=.env"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^BTC-USD oracle \d+(\.\d+)? USD, height \d+$/);
    expect(lines[1]).toMatch(/^equity 1000 USDC, 0 positions$/);
    expect(lines[2]).toMatch(/^order \d+: RESTING$/);
    expect(lines[3]).toMatch(/^order \d+: CANCELED$/);
  }, 60_000);

  it("runs the README's one-line devnet connection as written", async () => {
    const code = readmeSnippet("## Connecting");
    expect(code).toContain(
      "CompositeClient.connect({ endpoints: devnet.endpoints, grpcCaCert: devnet.caPem, wallet })",
    );
    writeFileSync(join(dir, "connect-devnet.mjs"), code);
    const run = await runNode("connect-devnet.mjs", dir, userEnv());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  }, 60_000);

  it("ships a .env template per network that lists every variable of core's table", async () => {
    const expected = [
      ...ENDPOINT_NAMES.map((name) => ENDPOINT_VARIABLES[name].envVar),
      ...Object.entries(OTHER_ENV_VARS)
        .filter(([, row]) => row.inTemplate)
        .map(([name]) => name),
    ].sort();
    const script = [
      'import { readFileSync } from "node:fs";',
      'import { envTemplate } from "@perpx/core";',
      `const out = {};`,
      `for (const network of ${JSON.stringify(NETWORK_NAMES)}) {`,
      '  const text = readFileSync("node_modules/@perpx/core/env/" + network + ".env.example", "utf8");',
      "  out[network] = { text, generated: text === envTemplate(network) };",
      "}",
      "console.log(JSON.stringify(out));",
    ].join("\n");
    writeFileSync(join(dir, "templates.mjs"), script);
    const run = await runNode("templates.mjs", dir, userEnv());
    expect(run.stderr).toBe("");
    const templates = JSON.parse(run.stdout) as Record<string, { text: string; generated: boolean }>;
    expect(Object.keys(templates)).toEqual([...NETWORK_NAMES]);
    for (const [network, { text, generated }] of Object.entries(templates)) {
      expect(generated, network).toBe(true);
      expect([...new Set(templateNames(text))].sort(), network).toEqual(expected);
    }
  }, 60_000);

  it("refuses PERPX_NETWORK=testnet with nothing else, naming every missing endpoint and its variable", async () => {
    const script = [
      'import { CompositeClient } from "@perpx/composite-client";',
      "const error = await CompositeClient.connect({ env: process.env }).catch((e) => e);",
      "console.log(JSON.stringify({ name: error.name, missing: error.missing, message: error.message }));",
    ].join("\n");
    writeFileSync(join(dir, "testnet.mjs"), script);
    const run = await runNode("testnet.mjs", dir, { ...userEnv(), PERPX_NETWORK: "testnet" });
    expect(run.stderr).toBe("");
    const refused = JSON.parse(run.stdout) as {
      name: string;
      missing: { endpoint: string; envVar: string; required: boolean }[];
      message: string;
    };
    expect(refused.name).toBe("MissingEndpointError");
    expect(refused.missing).toEqual(
      ENDPOINT_NAMES.map((name) => ({
        endpoint: name,
        envVar: ENDPOINT_VARIABLES[name].envVar,
        required: ENDPOINT_VARIABLES[name].required,
      })),
    );
    for (const name of ENDPOINT_NAMES) expect(refused.message).toContain(ENDPOINT_VARIABLES[name].envVar);
  }, 60_000);
});
