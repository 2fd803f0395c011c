/**
 * A devnet start builds no protobuf descriptor: genesis, the first block and the indexer's genesis
 * make their messages through the wire tables (`src/app/lib/wire-codec.ts`), so the command line's
 * bundle never even loads protobuf-es before its ready line. Checked in a fresh process (a
 * descriptor built once stays built).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describe("a devnet start", () => {
  it("reads no @perpx/proto schema and builds no descriptor file before it is ready", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "test/support/start-schema-reads.ts"],
      { cwd: packageDir },
    );
    expect(JSON.parse(stdout.trim())).toEqual([]);
  }, 120_000);
});
