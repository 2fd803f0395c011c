/**
 * Hostile command lines for the built `perpx-devnet` (`pnpm --filter @perpx/devnet build` first): each
 * is refused before anything starts, with exit status 2, a message naming the flag and no stack
 * trace on stderr, and with `--json` exactly one `{"ready":false,"error"}` line on stdout, as the
 * README promises a failed start prints.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killChildren, runCli } from "./support/cli-child.js";

// Run away from the package: a command line taken for a start must leave nothing behind.
const cwd = mkdtempSync(join(tmpdir(), "perpx-devnet-cwd-"));
const built = { built: true, cwd };

afterAll(() => {
  killChildren();
  rmSync(cwd, { recursive: true, force: true });
});

describe("perpx-devnet start with a bad command line", () => {
  it.each([
    [["--markets", "501"], '--markets must be an integer from 3 to 500, got "501"'],
    [["--markets", "2"], '--markets must be an integer from 3 to 500, got "2"'],
    [["--block-time-ms", "1e309"], '--block-time-ms must be an integer from 0 to 2147483647, got "1e309"'],
    // Node would fire a longer timer after 1 ms: a block every millisecond.
    [["--block-time-ms", "2147483648"], "--block-time-ms must be an integer from 0 to 2147483647"],
    [["--block-time-ms=-5"], '--block-time-ms must be an integer from 0 to 2147483647, got "-5"'],
    [["--port-rpc", "65536"], '--port-rpc must be an integer from 0 to 65535, got "65536"'],
    [["--subaccounts", "x"], "--subaccounts must be an integer"],
    // `--state "$UNSET"`: the working directory would become the state directory.
    [["--state", ""], '--state must be a directory, got ""'],
    // `--host "$UNSET"`: every interface would be bound, and the endpoints read `http://:port`.
    [["--host", ""], '--host must be an interface name or address, got ""'],
    [["--bogus"], "Unknown option '--bogus'"],
    [["--liquidity=yes"], "Option '--liquidity' does not take an argument"],
    [["--state"], "Option '--state <value>' argument missing"],
    [["extra"], 'unknown command "start extra"'],
  ])(
    "refuses %j: exit 2, one --json failure line, no stack trace",
    async (args, message) => {
      const run = await runCli(["start", "--json", ...args], built);
      expect(readdirSync(cwd)).toEqual([]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      const lines = run.stdout.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toEqual({
        ready: false,
        error: expect.stringContaining(message),
      });
    },
    60_000,
  );

  it("without a command: exit 2 and the usage on stderr, never a devnet", async () => {
    const run = await runCli(["--json"], built);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("perpx-devnet start [options]");
    expect(JSON.parse(run.stdout.trim())).toEqual({ ready: false, error: expect.any(String) });
  }, 60_000);
});
