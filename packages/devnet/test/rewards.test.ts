/**
 * x/rewards and x/vest over the wire: reward shares per fill and their payment per block (the
 * real chain's `AddRewardSharesForFill` and `ProcessRewardsForBlock`), capped by the treasury, the
 * vester feeding the treasury, `MsgUpdateParams` by governance, and the indexer's reward routes,
 * `totalTradingRewards` and the `tradingReward` socket message. Every expected value is computed
 * here by the chain's formula from the state (fees of the fill event, the fee tiers, the params,
 * the oracle price, the treasury and vester balances, block times), over REST and the socket.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { rewards } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockRecord } from "../src/app/contract.js";
import { GOV_AUTHORITY } from "../src/app/kernel/governance.js";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { startDevnet } from "../src/devnet.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  startIndexedChain,
} from "./support/indexer-chain.js";
import { RecordingClient } from "./support/indexer-ws.js";
import type { Loose } from "./support/loose.js";

const TREASURY = bech32Of(moduleAddress("rewards_treasury"));
const VESTER = bech32Of(moduleAddress("rewards_vester"));
const MILLION = 1_000_000n;
const DAY_MS = 86_400_000;

async function rest(chain: IndexedChain, path: string): Promise<Loose> {
  const response = await fetch(`${chain.devnet.endpoints.nodeRest}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as Loose;
}

async function balance(chain: IndexedChain, address: string, denom: string): Promise<bigint> {
  const body = await rest(chain, `/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${denom}`);
  return BigInt(body.balance.amount);
}

async function indexer(chain: IndexedChain, path: string): Promise<Loose> {
  const answer = await getIndexer(chain, path);
  expect(answer.status, path).toBe(200);
  return answer.body as Loose;
}

/** `floor(value × ppm / 1e6)` toward -infinity, as Go's `big.Int.Div` (`lib.BigMulPpm`). */
function mulPpm(value: bigint, ppm: bigint): bigint {
  const product = value * ppm;
  const quotient = product / MILLION;
  return product % MILLION !== 0n && product < 0n ? quotient - 1n : quotient;
}

/** The fills of a block's proposed operations: each one's fees and notional, from its event. */
function fillsOf(
  block: BlockRecord | undefined,
): Array<{ taker: string; takerFee: bigint; makerFee: bigint; quote: bigint }> {
  return (block?.txResults[0]?.events ?? [])
    .filter((e) => e.type === "perpx.clob.order_fill")
    .map((e) => {
      const get = (key: string) => e.attributes.find((a) => a.key === key)?.value ?? "";
      return {
        taker: get("taker_owner"),
        takerFee: BigInt(get("taker_fee")),
        makerFee: BigInt(get("maker_fee")),
        quote: BigInt(get("quote_quantums")),
      };
    });
}

/**
 * The chain's reward weight of a taker for a fill, with no order router and no net-revenue share:
 * fee + the largest maker rebate on the notional − the largest affiliate share (half the fee: the
 * takers here trade far below $50M in 30 days).
 */
function takerWeight(fill: { takerFee: bigint; quote: bigint }, lowestMakerFeePpm: bigint): bigint {
  const rebate = lowestMakerFeePpm < 0n ? lowestMakerFeePpm : 0n;
  return fill.takerFee + mulPpm(fill.quote, rebate) - mulPpm(fill.takerFee, 500_000n);
}

/** `F`: a weight's worth in reward-denom units at the params' market price (`QuoteToBaseQuantums`). */
function rewardWorth(weight: bigint, params: Loose, price: Loose): bigint {
  let amount = weight * BigInt(params.fee_multiplier_ppm);
  const exponent = Number(price.exponent) + Number(params.denom_exponent) + 6;
  amount = exponent < 0 ? amount * 10n ** BigInt(-exponent) : amount / 10n ** BigInt(exponent);
  return amount / BigInt(price.price) / MILLION;
}

/** An amount as the reference indexer prints a reward: units of 10^-18, with 18 decimals. */
function humanReadable(units: bigint): string {
  const digits = units.toString().padStart(19, "0");
  return `${digits.slice(0, -18)}.${digits.slice(-18)}`;
}

async function lowestMakerFee(chain: IndexedChain): Promise<bigint> {
  const { params } = await rest(chain, "/perpx/feetiers/v1/perpetual_fee_params");
  return (params.tiers as Loose[]).reduce(
    (low, t) => (BigInt(t.maker_fee_ppm) < low ? BigInt(t.maker_fee_ppm) : low),
    0n,
  );
}

/** Alice rests `quantums` of BTC at $65,000 and `taker` buys them: the fill settles in the next block. */
async function trade(chain: IndexedChain, taker: number, quantums: bigint, clientId: number): Promise<void> {
  await placeShortTerm(chain, 0, { clientId, side: "sell", quantums, subticks: BTC_PRICE_SUBTICKS });
  await placeShortTerm(chain, taker, {
    clientId: clientId + 1,
    side: "buy",
    quantums,
    subticks: BTC_PRICE_SUBTICKS,
  });
}

describe("x/rewards with a fee multiplier (startDevnet's rewardsFeeMultiplierPpm)", () => {
  let chain: IndexedChain;
  let alice: string;
  let bob: string;
  let carl: string;
  let socket: RecordingClient;

  beforeAll(async () => {
    chain = await startIndexedChain({ rewardsFeeMultiplierPpm: 990_000 });
    // Noon UTC tomorrow: the test's minutes never straddle a day's end by chance.
    const noon = (Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS + DAY_MS / 2;
    chain.devnet.app.control.advanceTimeTo(noon, new Date());
    [alice, bob, carl] = chain.signers.map((s) => s.address) as [string, string, string];
    for (const [i, address] of [alice, bob, carl].entries()) {
      await deliver(chain, i, [depositMsg(address, 100_000_000_000n)]);
    }
    socket = await RecordingClient.connect(chain.devnet.endpoints.indexerWs);
    socket.send({ type: "subscribe", channel: "v4_subaccounts", id: `${bob}/0` });
    await socket.waitFrames(1);
  });

  afterAll(async () => {
    socket?.close();
    await chain?.devnet.stop();
  });

  it("pays the taker F = multiplier × weight at the market price, from the treasury, in the fill's block", async () => {
    const { params } = await rest(chain, "/perpx/rewards/v1/params");
    expect(params).toEqual({
      treasury_account: "rewards_treasury",
      denom: "aperpx",
      denom_exponent: -18,
      market_id: 1,
      fee_multiplier_ppm: 990_000,
    });
    const { market_price: price } = await rest(chain, `/perpx/prices/v1/market_price/${params.market_id}`);
    const lowest = await lowestMakerFee(chain);
    const before = {
      bob: await balance(chain, bob, "aperpx"),
      alice: await balance(chain, alice, "aperpx"),
      treasury: await balance(chain, TREASURY, "aperpx"),
      vester: await balance(chain, VESTER, "aperpx"),
    };
    await trade(chain, 1, 100_000_000n, 10);
    const [block] = chain.devnet.mine(1);
    const [fill] = fillsOf(block);
    expect(fill?.taker).toBe(bob);
    // The maker's fee is a rebate: no weight for Alice.
    expect(fill!.makerFee).toBeLessThan(0n);
    const weight = takerWeight(fill!, lowest);
    expect(weight).toBeGreaterThan(0n);
    const worth = rewardWorth(weight, params, price);
    expect(worth).toBeGreaterThan(0n);
    expect(worth).toBeLessThan(before.treasury);
    expect(await balance(chain, bob, "aperpx")).toBe(before.bob + worth);
    expect(await balance(chain, alice, "aperpx")).toBe(before.alice);
    // The treasury got this block's vesting and paid the reward.
    const vested = before.vester - (await balance(chain, VESTER, "aperpx"));
    expect(await balance(chain, TREASURY, "aperpx")).toBe(before.treasury + vested - worth);
    const paid = block?.finalizeBlockEvents.find(
      (e) =>
        e.type === "transfer" &&
        e.attributes.some((a) => a.key === "recipient" && a.value === bob) &&
        e.attributes.some((a) => a.key === "mode" && a.value === "EndBlock"),
    );
    expect(paid?.attributes.find((a) => a.key === "amount")?.value).toBe(`${worth}aperpx`);
    expect(paid?.attributes.find((a) => a.key === "sender")?.value).toBe(TREASURY);

    // The indexer: the block's reward, the wallet's total, and the socket message.
    const amount = humanReadable(worth);
    const height = block!.height.toString();
    const createdAt = block!.time.toISOString();
    expect(await indexer(chain, `/v4/historicalBlockTradingRewards/${bob}`)).toEqual({
      rewards: [{ tradingReward: amount, createdAt, createdAtHeight: height }],
    });
    expect(await indexer(chain, `/v4/historicalBlockTradingRewards/${alice}`)).toEqual({ rewards: [] });
    expect(
      await indexer(
        chain,
        `/v4/historicalBlockTradingRewards/${bob}?startingBeforeOrAtHeight=${block!.height - 1n}`,
      ),
    ).toEqual({ rewards: [] });
    expect((await indexer(chain, `/v4/addresses/${bob}`)).totalTradingRewards).toBe(amount);
    expect((await indexer(chain, `/v4/addresses/${alice}`)).totalTradingRewards).toBe(humanReadable(0n));
    const rewardFrame = () =>
      socket.ofType("channel_data").find((f) => (f.contents as Loose).tradingReward !== undefined);
    await expect.poll(rewardFrame, { timeout: 10_000 }).toBeDefined();
    expect(rewardFrame()).toMatchObject({
      channel: "v4_subaccounts",
      id: `${bob}/0`,
      version: "3.0.0",
      contents: {
        tradingReward: { tradingReward: amount, createdAtHeight: height, createdAt },
        blockHeight: height,
      },
    });
  });

  it("aggregates rewards per day, week and month once their minute is past, and closes a period after its end", async () => {
    const [{ tradingReward }] = (await indexer(chain, `/v4/historicalBlockTradingRewards/${bob}`)).rewards;
    const rewardBlock = chain.devnet.app.latestBlock();
    // Not before the start of the next minute (the roundtable aggregates up to the latest block's minute).
    expect(await indexer(chain, `/v4/historicalTradingRewardAggregations/${bob}?period=DAILY`)).toEqual({
      rewards: [],
    });
    chain.devnet.app.control.advanceTime(60_000);
    chain.devnet.mine(1);
    const app = chain.devnet.app;
    const firstBlockAtOrAfter = (timeMs: number): BlockRecord => {
      for (let h = app.info.initialHeight; h <= app.latestBlock().height; h++) {
        const found = app.block(h);
        if (found !== undefined && found.time.getTime() >= timeMs) return found;
      }
      throw new Error(`no block at or after ${new Date(timeMs).toISOString()}`);
    };
    const rewardMs = rewardBlock.time.getTime();
    const day = Math.floor(rewardMs / DAY_MS) * DAY_MS;
    const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
    const month = Date.UTC(new Date(day).getUTCFullYear(), new Date(day).getUTCMonth(), 1);
    const starts = { DAILY: day, WEEKLY: monday, MONTHLY: month };
    for (const [period, start] of Object.entries(starts)) {
      expect(await indexer(chain, `/v4/historicalTradingRewardAggregations/${bob}?period=${period}`)).toEqual(
        {
          rewards: [
            {
              tradingReward,
              startedAt: new Date(start).toISOString(),
              startedAtHeight: firstBlockAtOrAfter(start).height.toString(),
              period,
            },
          ],
        },
      );
    }
    // Past the end of the day: the daily row is closed at the day's end and the last block before it.
    const nextDay = day + DAY_MS;
    app.control.advanceTimeTo(nextDay + 1_000, new Date());
    const [next] = chain.devnet.mine(1);
    expect(next!.time.getTime()).toBeGreaterThanOrEqual(nextDay);
    const [daily] = (await indexer(chain, `/v4/historicalTradingRewardAggregations/${bob}?period=DAILY`))
      .rewards;
    expect(daily).toEqual({
      tradingReward,
      startedAt: new Date(day).toISOString(),
      startedAtHeight: firstBlockAtOrAfter(day).height.toString(),
      endedAt: new Date(nextDay).toISOString(),
      endedAtHeight: (firstBlockAtOrAfter(nextDay).height - 1n).toString(),
      period: "DAILY",
    });
  });

  it("caps a block's rewards by the treasury and splits them pro rata (governance MsgUpdateParams)", async () => {
    const update = create(rewards.MsgUpdateParamsSchema, {
      authority: GOV_AUTHORITY,
      params: {
        treasuryAccount: "rewards_treasury",
        denom: "uusdc",
        denomExponent: -6,
        marketId: 1,
        feeMultiplierPpm: 1_000_000,
      },
    });
    const id = chain.devnet.app.control.submitProposal([
      {
        typeUrl: "/perpx.rewards.v1.MsgUpdateParams",
        value: toBinary(rewards.MsgUpdateParamsSchema, update),
      },
    ]);
    chain.devnet.mine(1);
    expect(chain.devnet.app.control.proposal(id)?.status).toBe("passed");
    const { params } = await rest(chain, "/perpx/rewards/v1/params");
    expect(params).toMatchObject({ denom: "uusdc", denom_exponent: -6, fee_multiplier_ppm: 1_000_000 });
    chain.devnet.app.control.fund(TREASURY, [{ denom: "uusdc", amount: 7n }]);
    const treasury = await balance(chain, TREASURY, "uusdc");
    expect(treasury).toBe(7n);
    const { market_price: price } = await rest(chain, `/perpx/prices/v1/market_price/${params.market_id}`);
    const lowest = await lowestMakerFee(chain);
    const before = { bob: await balance(chain, bob, "uusdc"), carl: await balance(chain, carl, "uusdc") };
    // Bob and Carl each take from Alice in the same block: 0.01 and 0.02 BTC.
    await trade(chain, 1, 100_000_000n, 20);
    await trade(chain, 2, 200_000_000n, 30);
    const [block] = chain.devnet.mine(1);
    const fills = fillsOf(block);
    const weights = new Map([bob, carl].map((who) => [who, 0n]));
    for (const fill of fills)
      weights.set(fill.taker, (weights.get(fill.taker) ?? 0n) + takerWeight(fill, lowest));
    const total = [...weights.values()].reduce((a, b) => a + b, 0n);
    const worth = rewardWorth(total, params, price);
    expect(worth).toBeGreaterThan(treasury);
    const expected = new Map([...weights].map(([who, w]) => [who, (treasury * w) / total]));
    expect(await balance(chain, bob, "uusdc")).toBe(before.bob + (expected.get(bob) ?? 0n));
    expect(await balance(chain, carl, "uusdc")).toBe(before.carl + (expected.get(carl) ?? 0n));
    expect(await balance(chain, TREASURY, "uusdc")).toBe(
      treasury - (expected.get(bob) ?? 0n) - (expected.get(carl) ?? 0n),
    );
    // The reference indexer reads every reward as 18 decimals, whatever the denom.
    const [latest] = (await indexer(chain, `/v4/historicalBlockTradingRewards/${carl}`)).rewards;
    expect(latest).toEqual({
      tradingReward: humanReadable(expected.get(carl) ?? 0n),
      createdAt: block!.time.toISOString(),
      createdAtHeight: block!.height.toString(),
    });
  });

  it("refuses parameters the chain refuses: a multiplier above 100% fails the proposal (rewards 1002)", async () => {
    const update = create(rewards.MsgUpdateParamsSchema, {
      authority: GOV_AUTHORITY,
      params: {
        treasuryAccount: "rewards_treasury",
        denom: "aperpx",
        denomExponent: -18,
        marketId: 1,
        feeMultiplierPpm: 1_000_001,
      },
    });
    const id = chain.devnet.app.control.submitProposal([
      {
        typeUrl: "/perpx.rewards.v1.MsgUpdateParams",
        value: toBinary(rewards.MsgUpdateParamsSchema, update),
      },
    ]);
    chain.devnet.mine(1);
    expect(chain.devnet.app.control.proposal(id)).toMatchObject({
      status: "failed",
      codespace: "rewards",
      code: 1002,
      log: "FeeMultiplierPpm cannot be greater than 1_000_000 (100%): invalid FeeMultiplierPpm",
    });
    expect((await rest(chain, "/perpx/rewards/v1/params")).params.fee_multiplier_ppm).toBe(1_000_000);
  });
});

describe("x/rewards at the reference genesis (multiplier 0)", () => {
  let chain: IndexedChain;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    chain = await startIndexedChain();
    [alice, bob] = chain.signers.map((s) => s.address) as [string, string];
    await deliver(chain, 0, [depositMsg(alice, 100_000_000_000n)]);
    await deliver(chain, 1, [depositMsg(bob, 100_000_000_000n)]);
  });

  afterAll(async () => {
    await chain?.devnet.stop();
  });

  it("has the reference's params and pays nothing: no balance moves, the routes stay empty", async () => {
    const reference = {
      treasury_account: "rewards_treasury",
      denom: "aperpx",
      denom_exponent: -18,
      market_id: 1,
      fee_multiplier_ppm: 0,
    };
    expect((await rest(chain, "/perpx/rewards/v1/params")).params).toEqual(reference);
    const genesis = (await (await fetch(`${chain.devnet.endpoints.nodeRpc}/genesis`)).json()) as Loose;
    const state = genesis.result.genesis.app_state;
    expect(state.rewards).toEqual({ params: reference });
    expect(state.vest.vest_entries).toEqual(
      ["community", "rewards"].map((name) => ({
        vester_account: `${name}_vester`,
        treasury_account: `${name}_treasury`,
        denom: "aperpx",
        start_time: "2001-01-01T00:00:00Z",
        end_time: "2050-01-01T00:00:00Z",
      })),
    );
    // testing/genesis.sh funds the rewards vester with 200,000,000 tokens.
    expect(state.bank.balances.find((b: Loose) => b.address === VESTER)?.coins).toEqual([
      { denom: "aperpx", amount: (200_000_000n * 10n ** 18n).toString() },
    ]);
    const before = await balance(chain, bob, "aperpx");
    await trade(chain, 1, 100_000_000n, 10);
    const [block] = chain.devnet.mine(1);
    expect(fillsOf(block)).toHaveLength(1);
    expect(await balance(chain, bob, "aperpx")).toBe(before);
    expect(block?.indexerEvents?.endBlock.some((e) => e.kind === "trading_reward")).toBe(false);
    chain.devnet.app.control.advanceTime(60_000);
    chain.devnet.mine(1);
    for (const path of [
      `/v4/historicalBlockTradingRewards/${bob}`,
      `/v4/historicalTradingRewardAggregations/${bob}?period=DAILY`,
    ]) {
      expect(await indexer(chain, path)).toEqual({ rewards: [] });
    }
    // A wallet the indexer knows (a deposit made it) totals 0 with the column's 18 decimals.
    expect((await indexer(chain, `/v4/addresses/${bob}`)).totalTradingRewards).toBe("0.000000000000000000");
  });

  it("vests the rewards vester into the treasury each block: balance × elapsed / time left to the end", async () => {
    const end = Date.parse("2050-01-01T00:00:00Z");
    const previous = chain.devnet.app.latestBlock().time.getTime();
    const vester = await balance(chain, VESTER, "aperpx");
    const treasury = await balance(chain, TREASURY, "aperpx");
    const [block] = chain.devnet.mine(1);
    const elapsed = BigInt(block!.time.getTime() - previous);
    const vested = (vester * elapsed) / BigInt(end - previous);
    expect(vested).toBeGreaterThan(0n);
    expect(await balance(chain, VESTER, "aperpx")).toBe(vester - vested);
    expect(await balance(chain, TREASURY, "aperpx")).toBe(treasury + vested);
  });

  it("refuses a genesis multiplier out of 0..1,000,000", async () => {
    await expect(startDevnet({ ports: "free", rewardsFeeMultiplierPpm: 1_000_001 })).rejects.toThrow(
      "rewardsFeeMultiplierPpm must be an integer from 0 to 1000000, got 1000001",
    );
  });
});
