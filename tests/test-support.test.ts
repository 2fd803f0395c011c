/**
 * The test suite's own plumbing: the order vitest starts files in, the folder listing that never
 * enters `node_modules`, the one mapping of `@perpx/*` imports to source, the lines that name a
 * file whose worker died, and the spare ports each worker picks from.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { filesUnder } from "./support/files.js";
import { LONG_FILES, missingLongFiles, rankOf } from "./support/sequencer.js";
import { packageNames, sourceOf } from "./support/source-alias.js";
import { sparePorts } from "./support/spare-ports.js";
import { unfinishedLines } from "./support/unfinished-reporter.js";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the long-first order", () => {
  it("names only files that exist (a renamed long file must be renamed in the list)", () => {
    expect(LONG_FILES.length).toBeGreaterThan(0);
    expect(missingLongFiles()).toEqual([]);
  });

  it("ranks the listed files in their order, before every other file", () => {
    const ranks = LONG_FILES.map((file) => rankOf(join(root, file)));
    expect(ranks).toEqual(LONG_FILES.map((_, index) => index));
    expect(rankOf(join(root, "tests/layering.test.ts"))).toBe(LONG_FILES.length);
  });
});

describe("filesUnder", () => {
  it("lists a folder's files but nothing under node_modules (bench links the clients there)", () => {
    expect(existsSync(join(root, "bench/node_modules"))).toBe(true);
    const files = filesUnder(join(root, "bench"));
    expect(files).toContain("package.json");
    expect(files.filter((file) => file.split("/").includes("node_modules"))).toEqual([]);
    expect(files.some((file) => file.includes("/"))).toBe(true);
  });
});

describe("the @perpx source aliases", () => {
  it("map a package to its index.ts and a subpath to its file, and nothing else", () => {
    expect(packageNames).toContain("core");
    expect(sourceOf("@perpx/core")).toBe(join(root, "packages/core/src/index.ts"));
    expect(sourceOf("@perpx/core/evm")).toBe(join(root, "packages/core/src/evm.ts"));
    expect(sourceOf("@perpx/core/evm/tx")).toBeUndefined();
    expect(sourceOf("@perpx/not-a-package")).toBeUndefined();
    expect(sourceOf("ws")).toBeUndefined();
  });
});

describe("unfinishedLines", () => {
  it("names each file that never finished and the tests it had begun, and nothing when all ended", () => {
    expect(unfinishedLines([])).toEqual([]);
    const lines = unfinishedLines([
      { file: "packages/devnet/test/a.test.ts", project: "devnet", running: ["a > dies"] },
      { file: "tests/b.test.ts", project: "workspace", running: [] },
    ]);
    expect(lines).toEqual([
      "",
      "Test files that started and never finished (2):",
      "  devnet packages/devnet/test/a.test.ts",
      "    running: a > dies",
      "  workspace tests/b.test.ts",
    ]);
  });
});

describe("sparePorts", () => {
  it("picks below the ephemeral range, from a slice of its own in each vitest worker", async () => {
    const worker = process.env.VITEST_POOL_ID;
    const picked = async (id: string) => {
      process.env.VITEST_POOL_ID = id;
      try {
        return await sparePorts(20);
      } finally {
        process.env.VITEST_POOL_ID = worker;
      }
    };
    const [one, two, seventeen] = [await picked("1"), await picked("2"), await picked("17")];
    expect(new Set([...one, ...two, ...seventeen]).size).toBe(60);
    expect(Math.max(...one, ...seventeen)).toBeLessThan(Math.min(...two));
    expect(Math.min(...one, ...two, ...seventeen)).toBeGreaterThanOrEqual(20_000);
  });
});
