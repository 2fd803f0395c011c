/**
 * The collateral check before signing when the feed trails the chain: a deposit the chain has
 * applied and the indexer has not reported yet (blocks are mined by hand here, so the gap stays
 * open for as long as the test needs it).
 */
import { usdcToQuoteQuantums } from "@perpx/core";
import { describe, expect, it, vi } from "vitest";
import { InsufficientCollateralError } from "../src/index.js";
import { fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet({ blockTimeMs: 0, liquidity: false });

describe("the collateral check", () => {
  it("judges an order the feed would refuse on the chain's balances: a fresh deposit counts, an order beyond it is refused with the chain's figure", async () => {
    const wallet = await fundedWallet(net.devnet);
    net.devnet.mine();
    const { signer, signed } = recordingSigner(wallet);
    const client = await net.connect({ signer });
    const view = () => client.context.feed?.subaccount?.view;
    await vi.waitFor(() => expect(view()?.equity({})).toBeDefined());
    const before = Number(view()?.equity({}));
    expect(before).toBeGreaterThan(0);

    // The chain credits 5,000 USDC at once; its events come out in the next block, not mined yet.
    net.devnet.app.control.fundSubaccount(wallet.address, 0, usdcToQuoteQuantums("5000"));
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const imf = Number(btc.indexer?.initialMarginFraction);
    const price = Math.floor(Number(btc.oraclePrice) * 0.9);
    // Needs more than the feed's balance and less than the chain's.
    const size = Math.floor(((before + 2_500) / (price * imf)) * 1000) / 1000;
    expect(size * price * imf).toBeGreaterThan(before);
    await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: size.toFixed(3),
      price: String(price),
      goodTil: { blocks: 20 },
    });
    expect(signed).toHaveLength(1);
    expect(Number(view()?.equity({}))).toBe(before); // the feed still has not seen the deposit

    const refused = await client
      .placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "10",
        price: String(price),
        goodTil: { blocks: 20 },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientCollateralError);
    // The free collateral named is the chain's (the deposit in, the resting order's margin not out).
    expect(Number((refused as InsufficientCollateralError).free)).toBeCloseTo(before + 5_000, 0);
    expect(signed).toHaveLength(1);
  });
});
