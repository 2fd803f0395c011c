/**
 * Governance changes of liquidity tiers and perpetuals reach the indexer, as the reference's
 * keepers emit them (`LiquidityTierUpsertEventV2` from SetLiquidityTier, `UpdatePerpetualEventV3`
 * from ModifyPerpetual): a proposal run through the control server shows in `/v4/perpetualMarkets`
 * and as a `v4_markets` trading update.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { ppm, usdc } from "../src/indexer/format.js";
import { getIndexer, type IndexedChain, startIndexedChain } from "./support/indexer-chain.js";
import { RecordingClient } from "./support/indexer-ws.js";
import type { Loose } from "./support/loose.js";

let chain: IndexedChain;
let client: RecordingClient | undefined;

beforeAll(async () => {
  chain = await startIndexedChain();
});

afterAll(async () => {
  client?.close();
  await chain?.devnet.stop();
});

async function propose(messages: Loose[]): Promise<Loose> {
  const control = chain.devnet.endpoints.devnetControl;
  const { authority } = (await (await fetch(`${control}/devnet/gov/authority`)).json()) as Loose;
  const response = await fetch(`${control}/devnet/gov/proposals`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: messages.map((m) => ({ authority, ...m })) }),
  });
  return (await response.json()) as Loose;
}

type Market = Record<string, unknown>;
const market = async (ticker: string): Promise<Market> => {
  const { body } = await getIndexer(chain, `/v4/perpetualMarkets?ticker=${ticker}`);
  return (body as { markets: Record<string, Market> }).markets[ticker] as Market;
};
type Trading = { trading?: Record<string, Market> };
const tradingUpdates = () =>
  (client?.ofType("channel_data") ?? [])
    .filter((f) => f.channel === "v4_markets")
    .map((f) => (f.contents as Trading).trading)
    .filter((t): t is Record<string, Market> => t !== undefined);

describe("governance changes reach the indexer", () => {
  it("MsgSetLiquidityTier: new open-interest caps and margins in /v4/perpetualMarkets and v4_markets", async () => {
    client = await RecordingClient.connect(chain.devnet.endpoints.indexerWs);
    client.send({ type: "subscribe", channel: "v4_markets" });
    await client.waitFrames(1);
    const btc = DEFAULT_MARKETS[0];
    const tier = perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers[btc?.liquidityTier ?? -1];
    expect(tier).toBeDefined();
    const before = await market("BTC-USD");
    expect(before).toMatchObject({ openInterestLowerCap: "0", openInterestUpperCap: "0" });

    const lower = 1_000_000_000_000n; // $1,000,000
    const upper = 2_000_000_000_000n;
    const initialMarginPpm = 50_000;
    const result = await propose([
      {
        "@type": "/perpx.perpetuals.v1.MsgSetLiquidityTier",
        liquidity_tier: {
          id: tier?.id,
          name: tier?.name,
          initial_margin_ppm: initialMarginPpm,
          maintenance_fraction_ppm: tier?.maintenanceFractionPpm,
          impact_notional: String(tier?.impactNotional ?? 0n),
          open_interest_lower_cap: lower.toString(),
          open_interest_upper_cap: upper.toString(),
        },
      },
    ]);
    expect(result.result).toMatchObject({ status: "passed" });

    const mmf = (BigInt(initialMarginPpm) * BigInt(tier?.maintenanceFractionPpm ?? 0)) / 1_000_000n;
    const expected = {
      initialMarginFraction: ppm(initialMarginPpm),
      maintenanceMarginFraction: ppm(mmf),
      openInterestLowerCap: usdc(lower),
      openInterestUpperCap: usdc(upper),
    };
    await expect.poll(() => market("BTC-USD")).toMatchObject(expected);
    await expect
      .poll(() => tradingUpdates().find((t) => t["BTC-USD"]?.openInterestUpperCap !== undefined))
      .toMatchObject({ "BTC-USD": { ...expected, ticker: "BTC-USD" } });
  });

  it("MsgUpdatePerpetualParams: a perpetual moved to another tier and funding rate shows", async () => {
    const eth = DEFAULT_MARKETS[1];
    const tiers = perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers;
    const other = tiers.find((t) => t.id !== eth?.liquidityTier && t.initialMarginPpm !== 0);
    expect(other).toBeDefined();
    const { body } = await fetch(`${chain.devnet.endpoints.nodeRest}/perpx/perpetuals/v1/perpetual/1`).then(
      async (r) => ({ body: (await r.json()) as Loose }),
    );
    const params = body.perpetual.params as Loose;
    expect(params.ticker).toBe("ETH-USD");
    const result = await propose([
      {
        "@type": "/perpx.perpetuals.v1.MsgUpdatePerpetualParams",
        perpetual_params: { ...params, liquidity_tier: other?.id, default_funding_ppm: 200 },
      },
    ]);
    expect(result.result).toMatchObject({ status: "passed" });
    await expect
      .poll(() => market("ETH-USD"))
      .toMatchObject({ initialMarginFraction: ppm(other?.initialMarginPpm ?? 0) });
    await expect
      .poll(() => tradingUpdates().findLast((t) => t["ETH-USD"]?.initialMarginFraction !== undefined))
      .toMatchObject({ "ETH-USD": { initialMarginFraction: ppm(other?.initialMarginPpm ?? 0) } });
  });
});
