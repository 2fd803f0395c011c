/**
 * The README's first command, `npm run demo` (examples/src/demo.ts, on the built packages): it
 * runs to the end and prints each step of the trading round, in order, with true values.
 */
import { describe, expect, it } from "vitest";
import { missingLine, runExamplesScript, type ScriptRun } from "./support/examples.js";

/** Runs the demo with no `PERPX_*` variable set, as a first-time user would. */
function demo(): Promise<ScriptRun> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PERPX_")));
  // A hang guard, never a claim on speed: on a loaded machine the demo takes minutes.
  return runExamplesScript("src/demo.ts", env, 300_000);
}

/** A progress line: `[ 1.2s] ` then `text`. */
const step = (text: string) => new RegExp(`^\\[\\s*\\d+\\.\\ds\\] ${text}$`);
const num = "-?\\d+(?:\\.\\d+)?";
const addr = "perpx1[02-9ac-hj-np-z]{38}";

describe("the demo", () => {
  it("trades a round on its own devnet: live book, resting sell, market buy, fill on the feed and the handles, positions, stop, cancel, close", async () => {
    const { code, stdout, stderr } = await demo();
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const expected = [
      step("devnet up: perpx-local-1 at height \\d+, a market maker quoting every market"),
      step(
        "explorer: http://127\\.0\\.0\\.1:\\d+/ \\(open it to watch the book, the blocks and the accounts live\\)",
      ),
      step(`alice ${addr}: funded by the faucet, 1000 USDC`),
      step(`bob   ${addr}: funded by the faucet, 1000 USDC`),
      step(`BTC-USD: oracle ${num} USD, tick 1 USD, step 0\\.0001 BTC`),
      step(`book BTC-USD: bid ${num} @ ${num} \\| ask ${num} @ ${num}`),
      step(`book BTC-USD: bid ${num} @ ${num} \\| ask 0\\.01 @ ${num}`),
      step(`alice rests a limit sell: 0\\.01 BTC @ (${num}) \\(long-term, post-only\\): RESTING`),
      step("bob buys at market: 0\\.01 BTC, at most 0\\.5% over the oracle price"),
      step("bob's order \\(handle\\): FILLED, 0\\.01 BTC in block \\d+"),
      step(`bob's feed: fill BUY 0\\.01 BTC @ ${num} \\(taker\\), fee ${num} USDC`),
      step("alice's order \\(handle\\): FILLED"),
      step(
        `alice: SHORT 0\\.0100 BTC-USD, entry ${num}, oracle ${num}, unrealized PnL ${num} USD; equity ${num} USDC`,
      ),
      step(
        `bob  : LONG 0\\.0100 BTC-USD, entry ${num}, oracle ${num}, unrealized PnL ${num} USD; equity ${num} USDC`,
      ),
      step(`bob places a stop: sell 0\\.01 BTC if the oracle falls to ${num} \\(conditional\\): RESTING`),
      step("bob cancels the stop: CANCELED"),
      step("bob closes his position \\(reduce-only market sell, slippage 1%\\): FILLED, 0\\.01 BTC"),
      step(`bob: 0 position\\(s\\), equity ${num} USDC \\(PnL ${num} USDC: spread and fees\\)`),
      new RegExp(`^done in ${num} s$`),
    ];
    expect(missingLine(stdout, expected), stdout).toBeUndefined();

    // The market buy filled at alice's resting price, the price the feed reports; both entries agree.
    const rested = /alice rests a limit sell: 0\.01 BTC @ (\S+) /.exec(stdout)?.[1];
    expect(stdout).toContain(`bob's feed: fill BUY 0.01 BTC @ ${rested} (taker)`);
    expect(stdout).toMatch(new RegExp(`alice: SHORT 0\\.0100 BTC-USD, entry ${rested},`));
    expect(stdout).toMatch(new RegExp(`bob  : LONG 0\\.0100 BTC-USD, entry ${rested},`));
    // Bob paid the taker fee and crossed the spread twice: he ends below his 1000 USDC.
    // Figures shown to people are rounded: equity and PnL to cents.
    expect(stdout).toMatch(/bob: 0 position\(s\), equity -?\d+\.\d{2} USDC \(PnL -?\d+\.\d{2} USDC/);
    const equity = Number(/bob: 0 position\(s\), equity (\S+) USDC/.exec(stdout)?.[1]);
    expect(equity).toBeLessThan(1000);
    expect(equity).toBeGreaterThan(990);
  }, 330_000);
});
