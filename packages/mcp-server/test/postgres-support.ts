import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { sparePorts } from "../../../tests/support/spare-ports.js";

/** Runs a Postgres tool; as root through the `postgres` user (initdb refuses to run as root). */
function pgTool(tool: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? "runuser" : tool, root ? ["-u", "postgres", "--", tool, ...args] : args, {
    stdio: "pipe",
  });
}

/**
 * A throwaway Postgres for the file's tests (a fresh cluster on a free port, started before them
 * and removed after): `url()` is its connection string once started.
 */
export function usePostgres(): { url(): string } {
  const dir = mkdtempSync(join(tmpdir(), "perpx-mcp-pg-"));
  const data = join(dir, "data");
  let url = "";
  beforeAll(async () => {
    if (process.getuid?.() === 0) {
      chmodSync(dir, 0o755);
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
      chownSync(dir, uid, gid);
    }
    // A spare port (below the kernel's ephemeral range): Postgres binds it only after initdb, seconds
    // later, and a port released by a `listen(0)` could be taken by then by a parallel test's
    // `listen(0)` or outgoing connection ("could not bind IPv4 address").
    const [port] = await sparePorts(1);
    pgTool("initdb", ["-D", data, "-A", "trust", "-U", "perpx"]);
    pgTool("pg_ctl", [
      "-D",
      data,
      "-w",
      "-l",
      join(dir, "log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      "start",
    ]);
    url = `postgres://perpx@127.0.0.1:${port}/postgres`;
  }, 60_000);
  afterAll(() => {
    try {
      pgTool("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return { url: () => url };
}
