import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { addressToHex } from "@perpx/address";
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
    expect(evmForm).toBe(addressToHex(account.address));
    expect(output).not.toContain(account.mnemonic);
  });

  it("trades on an embedded devnet: a resting sell taken by an IOC buy, a batch-cancelled ladder, a transfer", () => {
    const output = demo([]);
    expect(field(output, "chain")[0]).toMatch(/^perpx-local-1 at height \d+/);
    expect(field(output, "deposited")).toEqual(["10000 USDC into subaccount 0 of each"]);
    const [market] = field(output, "market");
    expect(market).toMatch(/^BTC-USD, oracle [\d.]+, order price \d+$/);
    // Matched at CheckTx; the fill lands in a block's proposed operations, not in the order's own tx.
    expect(field(output, "taker buys")[0]).toMatch(
      /short-term IOC, accepted at CheckTx; 1 fill\(s\) in block \d+ \(proposed operations\)$/,
    );
    // The maker sold 0.01 at the order price and earned the maker rebate (-110 ppm, rounded toward
    // zero); the taker paid the taker fee (500 ppm, rounded up). Both land in USDC, as on the chain.
    const price = Number(/order price ([\d.]+)/.exec(market ?? "")?.[1]);
    const position = (line: string | undefined) => {
      const match = /^(-?[\d.]+) BTC-USD, USDC ([\d.]+)$/.exec(line ?? "");
      if (!match) throw new Error(`not a position line: ${line}`);
      return { size: match[1], usdc: Number(match[2]) };
    };
    const maker = position(field(output, "maker position")[0]);
    const taker = position(field(output, "taker position")[0]);
    expect([maker.size, taker.size]).toEqual(["-0.01", "0.01"]);
    const quote = Math.round(price * 0.01 * 1e6); // quote quantums
    const [takerFee, makerRebate] = [Math.ceil((quote * 500) / 1e6), Math.trunc((quote * 110) / 1e6)];
    expect(maker.usdc).toBeCloseTo(10_000 + (quote + makerRebate) / 1e6, 6);
    expect(taker.usdc).toBeCloseTo(10_000 - (quote + takerFee) / 1e6, 6);
    expect(field(output, "ladder")[0]).toBe("3 bids placed, batch-cancelled at CheckTx (memclob)");
    expect(field(output, "transfer")).toEqual([
      "250 USDC to the maker's subaccount 1, which now holds 250 USDC",
    ]);
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
