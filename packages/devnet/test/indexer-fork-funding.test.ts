/**
 * A fork whose perpetual carries the live network's funding index, and a position that last settled
 * at an older index: the chain counts the difference as unsettled funding when the subaccount is
 * next touched, and the indexer must too. The genesis block's stream carries each forked index (a
 * funding event of phase `genesis`), so the indexer's equity, `netFunding` and USDC asset position
 * equal the chain's own figures before anything touches the subaccount, and `/v4/historicalFunding`
 * shows no funding-rate row for it (no tick happened on the live network at the fork). (Before,
 * the indexer counted from index 0 until the first premium sample carried the live index.)
 */
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { decodeSerializableInt, perpetuals, prices, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { netNotional } from "../src/app/modules/subaccounts/margin.js";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "../src/index.js";
import { queryApp } from "./support/app-query.js";
import { btcForkMarket, forkAccount, localFork } from "./support/fork-state.js";

const [longOwner, shortOwner] = [GENESIS_ACCOUNTS[0]?.address, GENESIS_ACCOUNTS[1]?.address] as [
  string,
  string,
];
/** The live perpetual's funding index (1e-6 quote quantums per base quantum). */
const LIVE_INDEX = 123_457n;
const market = btcForkMarket(LIVE_INDEX);
const fork = localFork("fork funding test", 77n, {
  markets: [market],
  accounts: [
    // 0.01 BTC long that last settled at index 0: it owes 0.01 BTC × 123,457 (rounded down).
    forkAccount(longOwner, 0n, 1_000_000_000n, [
      { perpetualId: 0, quantums: 100_000_000n, fundingIndex: 0n },
    ]),
    // 0.0123 BTC short that last settled at 1,000 below the live index: it is owed.
    forkAccount(shortOwner, 1n, 1_000_000_000n, [
      { perpetualId: 0, quantums: -123_000_000n, fundingIndex: LIVE_INDEX - 1_000n },
    ]),
  ],
});

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fork });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function indexer(path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${devnet.endpoints.indexer}${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function query<Req extends DescMessage, Res extends DescMessage>(
  path: string,
  request: Req,
  init: MessageInitShape<Req>,
  response: Res,
) {
  return queryApp(devnet.app, path, request, init, response);
}

/** 1e-6 quote quantums as USDC text (quote quantums are 1e-6 USDC). */
const usdcText = (quantums: bigint) => (Number(quantums) / 1e6).toString();

/** The chain's own figures of a subaccount: USDC with its funding settled, and equity at the oracle price. */
function chainFigures(owner: string): { usdc: bigint; equity: bigint; fundingPpm: bigint } {
  const sub = query(
    "/perpx.subaccounts.v1.Query/Subaccount",
    subaccounts.QueryGetSubaccountRequestSchema,
    { owner, number: 0 },
    subaccounts.QuerySubaccountResponseSchema,
  ).subaccount;
  const perpetual = query(
    "/perpx.perpetuals.v1.Query/Perpetual",
    perpetuals.QueryPerpetualRequestSchema,
    { id: 0 },
    perpetuals.QueryPerpetualResponseSchema,
  ).perpetual;
  const price = query(
    "/perpx.prices.v1.Query/MarketPrice",
    prices.QueryMarketPriceRequestSchema,
    { id: 0 },
    prices.QueryMarketPriceResponseSchema,
  ).marketPrice;
  const position = sub?.perpetualPositions[0];
  if (sub === undefined || perpetual === undefined || price === undefined || position === undefined)
    throw new Error("the chain lost the forked subaccount");
  const perpetualIndex = decodeSerializableInt(perpetual.fundingIndex);
  expect(perpetualIndex).toBe(LIVE_INDEX);
  const quantums = decodeSerializableInt(position.quantums);
  const fundingPpm = (decodeSerializableInt(position.fundingIndex) - perpetualIndex) * quantums;
  const stored = decodeSerializableInt(sub.assetPositions[0]?.quantums ?? new Uint8Array());
  // The chain settles the funding into USDC rounded down (keeper's settle).
  const floor = fundingPpm >= 0n ? fundingPpm / 1_000_000n : -((-fundingPpm + 999_999n) / 1_000_000n);
  const usdc = stored + floor;
  const notional = netNotional(quantums, {
    atomicResolution: market.atomicResolution,
    price: price.price,
    exponent: price.exponent,
  });
  return { usdc, equity: usdc + notional, fundingPpm };
}

describe("a forked perpetual's funding index in the indexer", () => {
  for (const [side, owner] of [
    ["long", longOwner],
    ["short", shortOwner],
  ] as const) {
    it(`gives the ${side}'s equity, netFunding and USDC the chain's figures`, async () => {
      const chain = chainFigures(owner);
      expect(chain.fundingPpm).not.toBe(0n);
      const body = await indexer(`/v4/addresses/${owner}/subaccountNumber/0`);
      const sub = body.subaccount as {
        equity: string;
        assetPositions: Record<string, { size: string; side: string }>;
        openPerpetualPositions: Record<string, { netFunding: string }>;
      };
      expect(sub.equity).toBe(usdcText(chain.equity));
      expect(sub.assetPositions.USDC).toMatchObject({ size: usdcText(chain.usdc), side: "LONG" });
      expect(Number(sub.openPerpetualPositions["BTC-USD"]?.netFunding)).toBe(Number(chain.fundingPpm) / 1e12);
    });
  }

  it("adds no funding-rate row to /v4/historicalFunding", async () => {
    const body = await indexer("/v4/historicalFunding/BTC-USD");
    expect(body.historicalFunding).toEqual([]);
  });
});
