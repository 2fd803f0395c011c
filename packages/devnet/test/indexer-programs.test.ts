/**
 * The indexer's routes for trading rewards at the reference genesis (a zero multiplier: nothing is
 * paid) and for the vaults the devnet's chain does not run: the reference's answers for a chain
 * with no such data, after its validation, over REST. Rewards that are paid: `rewards.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIndexer, type IndexedChain, signerAddresses, startFundedChain } from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;

beforeAll(async () => {
  chain = await startFundedChain([1_000_000_000n]);
  [alice] = signerAddresses(chain);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

const PERIOD_MESSAGE =
  "period must be a valid Trading Reward Aggregation Period, one of DAILY,WEEKLY,MONTHLY";

describe("indexer REST: rewards and vaults on a chain that pays none", () => {
  it("lists no trading rewards, and refuses bad parameters with the reference's entries", async () => {
    for (const path of [
      `/v4/historicalBlockTradingRewards/${alice}?limit=5`,
      `/v4/historicalTradingRewardAggregations/${alice}?period=DAILY&startingBeforeOrAtHeight=9`,
    ]) {
      const answer = await getIndexer(chain, path);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ rewards: [] });
      expect(answer.headers.get("cache-control")).toBe("public, max-age=10");
    }
    const bad = await getIndexer(
      chain,
      "/v4/historicalBlockTradingRewards/not-an-address?limit=0&startingBeforeOrAt=later&startingBeforeOrAtHeight=-2",
    );
    expect(bad).toMatchObject({
      status: 400,
      body: {
        errors: [
          {
            value: "not-an-address",
            msg: "address must be a valid address",
            param: "address",
            location: "params",
          },
          {
            value: 0,
            msg: "limit must be a positive integer that is not greater than max: 1000",
            param: "limit",
            location: "query",
          },
          { value: "later", msg: "Invalid value", param: "startingBeforeOrAt", location: "query" },
          {
            value: "-2",
            msg: "startingBeforeOrAtHeight must be a non-negative integer",
            param: "startingBeforeOrAtHeight",
            location: "query",
          },
        ],
      },
    });
    const noPeriod = await getIndexer(chain, `/v4/historicalTradingRewardAggregations/${alice}`);
    expect(noPeriod.body).toEqual({
      errors: [
        { msg: PERIOD_MESSAGE, param: "period", location: "query" },
        { msg: PERIOD_MESSAGE, param: "period", location: "query" },
      ],
    });
    const badPeriod = await getIndexer(
      chain,
      `/v4/historicalTradingRewardAggregations/${alice}?period=daily`,
    );
    expect(badPeriod.body).toEqual({
      errors: [{ value: "daily", msg: PERIOD_MESSAGE, param: "period", location: "query" }],
    });
  });

  it("has no megavault or vault PnL and no megavault positions", async () => {
    expect((await getIndexer(chain, "/v4/vault/v1/megavault/historicalPnl?resolution=day")).body).toEqual({
      megavaultPnl: [],
    });
    expect((await getIndexer(chain, "/v4/vault/v1/vaults/historicalPnl")).body).toEqual({ vaultsPnl: [] });
    expect((await getIndexer(chain, "/v4/vault/v1/megavault/positions")).body).toEqual({ positions: [] });
    for (const route of ["megavault", "vaults"]) {
      const bad = await getIndexer(chain, `/v4/vault/v1/${route}/historicalPnl?resolution=HOUR`);
      expect(bad).toMatchObject({
        status: 400,
        body: {
          errors: [
            { value: "HOUR", msg: "type must be one of hour,day", param: "resolution", location: "query" },
          ],
        },
      });
    }
  });
});
