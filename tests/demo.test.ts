import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { toHex } from "@perpx/address";
import { GENESIS_ACCOUNTS } from "@perpx/devnet";
import { describe, expect, it } from "vitest";

const examples = join(import.meta.dirname, "..", "examples");

/** Runs the README's demo (on the built packages, as `npm run demo` does) and returns its output. */
function demo(args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "src/demo.ts", ...args], {
    cwd: examples,
    encoding: "utf8",
    env: { ...process.env, PERPX_MNEMONIC: "" },
  });
}

function field(output: string, label: string): string[] {
  return [...output.matchAll(new RegExp(`^\\s*${label}:\\s+(.+)$`, "gm"))].map((m) => m[1]!.trim());
}

describe("the demo", () => {
  it("prints both address forms of a given mnemonic's wallet", () => {
    const account = GENESIS_ACCOUNTS[0]!;
    const output = demo(["--mnemonic", account.mnemonic]);
    const [native] = field(output, "native");
    const [evmForm] = field(output, "EVM form");
    expect(native).toBe(account.address);
    expect(evmForm).toBe(toHex(account.address));
    expect(output).not.toContain(account.mnemonic);
  });

  it("generates a fresh wallet each run and prints the constants of all three presets", () => {
    const first = demo([]);
    const second = demo([]);
    expect(field(first, "native")[0]).not.toBe(field(second, "native")[0]);
    expect(field(first, "chain id")).toEqual(["perpx-mainnet-1", "perpx-testnet-1", "perpx-local-1"]);
    expect(field(first, "EVM chain id")).toEqual(["111984 (0x1b570)", "202006 (0x31516)", "31337 (0x7a69)"]);
    expect(field(first, "min gas prices")).toEqual(Array(3).fill("25000000000aperpx, 0.025uusdc"));
    expect(field(first, "upgrades")[0]).toMatch(/^v26\.9@509260 .* v27\.5@12960191$/);
    expect(field(first, "upgrades")[1]).toMatch(/^v26\.12@776500 .* v27\.5@5016944$/);
  });
});
