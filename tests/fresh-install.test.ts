/**
 * A fresh machine: the packed tarballs of the published packages (built `dist/`, as `pnpm pack`
 * makes them for the registry) installed with plain `npm` into an empty folder, no workspace links,
 * every `@perpx/*` dependency resolved to its tarball. The installed `perpx-devnet` CLI starts a
 * devnet, and the composite client's README quick start, taken from the README as written, runs
 * against it from that folder, named only by `PERPX_NETWORK` and the `PERPX_*_URL` variables.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** The README's quick start (its first ts block), with its types stripped for plain Node. */
function quickStart(): string {
  const readme = readFileSync(join(packagesDir, "composite-client", "README.md"), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error("the composite client's README has no ts block");
  return ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

interface DevnetReady {
  endpoints: Record<string, string>;
}

/** Starts the installed CLI on free ports and resolves with its `--json` ready line. */
function startDevnetCli(dir: string): Promise<{ child: ChildProcess; ready: DevnetReady }> {
  const args = ["start", "--json", "--liquidity", "--block-time-ms", "200", "--faucet-window-ms", "0"];
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
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line && out.includes("\n")) resolve({ child, ready: JSON.parse(line) as DevnetReady });
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
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
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
    child.on("exit", (code) => {
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
  let ready: DevnetReady;

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
    ready = started.ready;
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

  it("runs the composite client's README quick start as written against the installed devnet", async () => {
    writeFileSync(join(dir, "quick-start.mjs"), quickStart());
    const { endpoints } = ready;
    const env: NodeJS.ProcessEnv = {
      ...userEnv(),
      PERPX_NETWORK: "local",
      PERPX_NODE_RPC_URL: endpoints.nodeRpc,
      PERPX_NODE_REST_URL: endpoints.nodeRest,
      PERPX_GRPC_URL: endpoints.grpc,
      PERPX_FAUCET_URL: endpoints.faucet,
      PERPX_INDEXER_URL: endpoints.indexer,
    };
    const { code, stdout, stderr } = await runNode("quick-start.mjs", dir, env);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^BTC-USD oracle \d+(\.\d+)? USD, height \d+$/);
    expect(lines[1]).toMatch(/^equity 1000 USDC, 0 positions$/);
    expect(lines[2]).toMatch(/^order \d+: RESTING$/);
    expect(lines[3]).toMatch(/^order \d+: CANCELED$/);
  }, 60_000);
});
