import { describe, expect, it } from "vitest";
import {
  MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE,
  NO_REV_SHARES,
  type RevShareInputs,
  revSharesForFill,
} from "./shares.js";

const base: RevShareInputs = {
  takerFee: 260_000n, // 400 ppm of $650
  makerFee: -71_500n, // a 110 ppm rebate
  takerVolume30d: 0n,
  takerAffiliateRevenue30d: 0n,
  revenueCap: 10_000_000_000n,
  affiliate: { address: "affiliate", ppm: 50_000 },
  takerRouter: { address: "taker-router", ppm: 500_000 },
  makerRouter: { address: "maker-router", ppm: 500_000 },
  unconditional: [],
  marketMapper: undefined,
};

const amounts = (inputs: Partial<RevShareInputs>) =>
  revSharesForFill({ ...base, ...inputs }).all.map((s) => [s.type, s.recipient, s.quoteQuantums]);

describe("revSharesForFill (the real chain's GetAllRevShares)", () => {
  it("gives the affiliate its share of the taker fee and the routers nothing", () => {
    const shares = revSharesForFill(base);
    expect(shares.affiliate).toMatchObject({
      recipient: "affiliate",
      quoteQuantums: 13_000n,
      source: "taker_fee",
    });
    expect(amounts({})).toEqual([["affiliate", "affiliate", 13_000n]]);
    expect(shares.quoteQuantumsBySource).toEqual({
      taker_fee: 13_000n,
      maker_fee: 0n,
      net_protocol_revenue: 0n,
    });
  });

  it("caps the affiliate at what is left of the 30-day revenue, and drops it at the cap (routers then)", () => {
    expect(amounts({ takerAffiliateRevenue30d: 10_000_000_000n - 1_000n })).toEqual([
      ["affiliate", "affiliate", 1_000n],
    ]);
    // At the cap the affiliate is out; the taker's router gets half of min(taker, taker + maker), the
    // maker's router half of max(0, maker).
    expect(amounts({ takerAffiliateRevenue30d: 10_000_000_000n })).toEqual([
      ["order_router", "taker-router", 94_250n],
      ["order_router", "maker-router", 0n],
    ]);
    // A cap of 0 is no cap.
    expect(amounts({ revenueCap: 0n, takerAffiliateRevenue30d: 10n ** 15n })).toEqual([
      ["affiliate", "affiliate", 13_000n],
    ]);
  });

  it("pays no affiliate of a taker with 50M of 30-day taker volume, nor on a zero taker fee", () => {
    expect(amounts({ takerVolume30d: MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE })[0]?.[0]).toBe(
      "order_router",
    );
    expect(amounts({ takerVolume30d: MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE - 1n })[0]?.[0]).toBe(
      "affiliate",
    );
    expect(amounts({ takerFee: 0n, makerFee: 1_000n, takerRouter: undefined })).toEqual([
      ["order_router", "maker-router", 500n],
    ]);
  });

  it("shares the net fee less the affiliate (or routers) with the unconditional recipients and the market mapper", () => {
    const inputs = {
      unconditional: [{ address: "treasury", ppm: 100_000 }],
      marketMapper: { address: "mapper", ppm: 200_000 },
    };
    const net = 260_000n - 71_500n - 13_000n;
    const shares = revSharesForFill({ ...base, ...inputs });
    expect(amounts(inputs)).toEqual([
      ["affiliate", "affiliate", 13_000n],
      ["unconditional", "treasury", (net * 100_000n) / 1_000_000n],
      ["market_mapper", "mapper", (net * 200_000n) / 1_000_000n],
    ]);
    expect(shares.ppmBySource).toEqual({ taker_fee: 50_000, maker_fee: 0, net_protocol_revenue: 300_000 });
    expect(amounts({ ...inputs, marketMapper: undefined }).map((s) => s[0])).toEqual([
      "affiliate",
      "unconditional",
    ]);
  });

  it("shares nothing on a zero net fee, a missing market mapper record or a non-positive remainder", () => {
    expect(revSharesForFill({ ...base, makerFee: -260_000n })).toBe(NO_REV_SHARES);
    expect(revSharesForFill({ ...base, marketMapper: "missing" })).toBe(NO_REV_SHARES);
    expect(revSharesForFill({ ...base, affiliate: { address: "a", ppm: 1_000_000 }, makerFee: 0n })).toBe(
      NO_REV_SHARES,
    );
  });
});
