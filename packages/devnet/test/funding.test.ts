/**
 * Funding (chain-protocol.md): one premium sample per block for every perpetual, paid once an hour
 * of block time has passed at the mean premium plus the default rate. A two-sided book off the
 * oracle on BTC-USD gives a non-zero premium; the 249 other markets of a 250-market chain have
 * empty books and pay the default rate, with as many samples as blocks.
 */
import { describe, expect, it } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { AbciEvent, PersistentChainApp } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/index.js";
import { fundedSigner, signOrderTx } from "./support/fast-order.js";

const genesisTime = new Date("2026-01-01T00:00:00Z");
const STEP_MS = 10 * 60_000;

function mine(app: PersistentChainApp) {
  return app.produceBlock(new Date(app.latestBlock().time.getTime() + STEP_MS));
}

const attributes = (event: AbciEvent) => Object.fromEntries(event.attributes.map((a) => [a.key, a.value]));

describe("funding over 250 markets", () => {
  it("pays every perpetual once an hour: the mean premium of a two-sided book, the default rate elsewhere", () => {
    const app = createChainApp({ profile: "local", genesisTime, markets: 250, fundedSubaccounts: 2 });
    app.control.setOracleWalk(false);
    const [maker, taker] = [0, 1].map((i) => fundedSigner(i, GENESIS_ACCOUNTS.length));
    const goodTilBlockTime = Math.floor(genesisTime.getTime() / 1000) + 86_400;
    // BTC-USD's oracle is about 6,500,000,000 subticks: a mid of 6,515,000,000 is a premium of about 2,300 ppm.
    for (const [signer, side, subticks, clientId] of [
      [maker, "buy", 6_500_000_000n, 1],
      [taker, "sell", 6_530_000_000n, 2],
    ] as const) {
      const tx = signOrderTx(signer!, app.info.chainId, {
        owner: signer!.address,
        clientId,
        side,
        quantums: 1_000_000n,
        subticks,
        flags: 64,
        goodTilBlockTime,
      });
      expect(app.checkTx(tx).code).toBe(0);
    }
    const blocks = [mine(app)];
    while (!blocks.at(-1)?.finalizeBlockEvents.some((e) => e.type === "perpx.clob.funding")) {
      expect(blocks.length).toBeLessThan(10);
      blocks.push(mine(app));
    }
    const paid = (blocks.at(-1)?.finalizeBlockEvents ?? [])
      .filter((e) => e.type === "perpx.clob.funding")
      .map(attributes);
    expect(paid).toHaveLength(250);
    const btc = paid.find((p) => p.perpetual_id === "0");
    // Genesis samples too. The long-term orders enter the book once block 1 commits, so genesis and
    // block 1 sample an empty book and every later block the two-sided one.
    const samples = BigInt(blocks.length + 1);
    const oracle = BigInt(btc?.oracle_subticks ?? "0");
    const premium = ((6_515_000_000n - oracle) * 1_000_000n) / oracle;
    expect(premium).toBeGreaterThan(2_000n);
    expect(btc?.premium_samples).toBe(samples.toString());
    expect(btc?.funding_rate_ppm).toBe(((premium * (samples - 2n)) / samples + 100n).toString());
    for (const other of paid.filter((p) => p.perpetual_id !== "0")) {
      expect(other).toMatchObject({ premium_samples: samples.toString(), funding_rate_ppm: "100" });
    }
    // The next hour starts from zero samples.
    const next: AbciEvent[] = [];
    for (let i = 0; i < 6 && next.length === 0; i++) {
      next.push(...mine(app).finalizeBlockEvents.filter((e) => e.type === "perpx.clob.funding"));
    }
    expect(attributes(next.find((e) => attributes(e).perpetual_id === "1") as AbciEvent)).toMatchObject({
      premium_samples: "6",
      funding_rate_ppm: "100",
    });
  });
});
