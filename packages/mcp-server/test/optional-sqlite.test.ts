/**
 * `better-sqlite3` is optional: the built `perpx-mcp`, installed where that package cannot be
 * resolved (a copy of the package whose `node_modules` links every dependency but it), serves a
 * Postgres store, and refuses the SQLite store with an error that names the package and how to
 * install it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { usePostgres } from "./postgres-support.js";
import { endpointsOf, useMcpNet } from "./support.js";

const net = useMcpNet();
const pg = usePostgres();
const packageDir = join(import.meta.dirname, "..");
const installDir = mkdtempSync(join(tmpdir(), "perpx-mcp-no-sqlite-"));
const installed = join(installDir, "node_modules", "@perpx", "mcp-server");

/** Links `packageDir`'s dependencies into the copy, all but better-sqlite3. */
function linkDependenciesBut(missing: string): void {
  const from = join(packageDir, "node_modules");
  const to = join(installed, "node_modules");
  for (const entry of readdirSync(from)) {
    if (entry === missing || entry === ".bin") continue;
    const names = entry.startsWith("@")
      ? readdirSync(join(from, entry)).map((n) => `${entry}/${n}`)
      : [entry];
    for (const name of names) {
      mkdirSync(join(to, name, ".."), { recursive: true });
      symlinkSync(join(from, name), join(to, name));
    }
  }
}

mkdirSync(installed, { recursive: true });
for (const part of ["package.json", "bin", "dist"]) {
  cpSync(join(packageDir, part), join(installed, part), { recursive: true });
}
linkDependenciesBut("better-sqlite3");

afterAll(() => rmSync(installDir, { recursive: true, force: true }));

/**
 * The environment of a program installed there: without NODE_PATH, which `pnpm` sets for its
 * scripts to its own store's hoisted packages (better-sqlite3 among them), where no user's
 * installation would look.
 */
function installedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs a Node ES module script there; answers its exit code and output. */
async function node(script: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: installDir,
    env: installedEnv(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += String(chunk);
  });
  // "close", not "exit": the child's last output can still be in its pipes when it exits.
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout };
}

function run(args: string[]) {
  const endpoints = endpointsOf(net.devnet);
  const child = spawn(process.execPath, [join(installed, "bin", "perpx-mcp.js"), ...args], {
    cwd: installDir,
    env: installedEnv({
      PERPX_NODE_RPC_URL: endpoints.nodeRpc,
      PERPX_NODE_REST_URL: endpoints.nodeRest,
      PERPX_GRPC_URL: endpoints.grpc,
      PERPX_INDEXER_URL: endpoints.indexer,
      PERPX_GRPC_CA: net.devnet.caPem,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  return { child, stderr: () => stderr };
}

describe("perpx-mcp without better-sqlite3", () => {
  it("cannot resolve better-sqlite3 from the installed copy (the premise)", async () => {
    const { stdout } = await node(`const { createRequire } = await import("node:module");
      try { createRequire(${JSON.stringify(join(installed, "dist", "cli.cjs"))}).resolve("better-sqlite3"); process.stdout.write("found"); }
      catch (e) { process.stdout.write(e.code); }`);
    expect(stdout).toBe("MODULE_NOT_FOUND");
  });

  it("serves a Postgres store", async () => {
    const { child, stderr } = run(["--network", "local", "--port", "0", "--postgres", pg.url(), "--json"]);
    const exited = once(child, "exit").then(([code]) => {
      throw new Error(`perpx-mcp exited (${code}) before it was ready: ${stderr()}`);
    });
    const line = once(createInterface({ input: child.stdout }), "line").then(([l]) => l as string);
    const ready = JSON.parse(await Promise.race([line, exited])) as { ready: boolean; url: string };
    expect(ready.ready).toBe(true);
    const health = (await (await fetch(new URL("/health", ready.url))).json()) as { chainId: string };
    expect(health.chainId).toBe("perpx-local-1");
    exited.catch(() => {});
    child.kill("SIGTERM");
    expect((await once(child, "exit"))[0]).toBe(0);
  });

  it("refuses the SQLite store, naming better-sqlite3 and how to install it", async () => {
    const { child, stderr } = run(["--network", "local", "--port", "0", "--database", ":memory:", "--json"]);
    expect((await once(child, "close"))[0]).toBe(1); // its stderr is all read (not so at "exit")
    expect(stderr()).toContain("the SQLite store needs the optional dependency better-sqlite3");
    expect(stderr()).toContain("npm install better-sqlite3");
    expect(stderr()).toContain("--postgres");
  });

  it("the package loads without it, and openSqliteStore throws SqliteUnavailableError", async () => {
    const { code, stdout } = await node(`
      const { openSqliteStore, SqliteUnavailableError } = await import(${JSON.stringify(join(installed, "dist", "index.node.js"))});
      try { openSqliteStore({ path: ":memory:" }); process.stdout.write("opened"); }
      catch (e) { process.stdout.write(JSON.stringify({ typed: e instanceof SqliteUnavailableError, code: e.code, reason: e.reason })); }`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ typed: true, code: "MISSING_DEPENDENCY", reason: "missing" });
  });
});
