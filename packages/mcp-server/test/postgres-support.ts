import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/** Runs a Postgres tool; as root through the `postgres` user (initdb refuses to run as root). */
function pgTool(tool: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? "runuser" : tool, root ? ["-u", "postgres", "--", tool, ...args] : args, {
    stdio: "pipe",
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
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
    const port = await freePort();
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
