/**
 * Funding over the wire, on the real chain's epochs: a long and a short (signed long-term orders),
 * a resting bid above the oracle price, premium votes every block, a sample every `funding-sample`
 * epoch and a payment every `funding-tick` epoch, reached with `POST /devnet/advance-epoch`. The
 * funding index after two ticks equals the figure computed here from the real chain's formula
 * (impact bid of the tier's impact notional, median of votes padded to 15, mean of samples padded
 * to 60, default rate, clamp 6 × (IMF − MMF), 8-hour rate over 3,600 s), and the long settles it
 * when its subaccount is next touched. The indexer shows funding as the real one: `nextFundingRate`
 * is the unclamped mean of the samples since the tick plus the default (1-hour rates), refreshed
 * by a market updater every 30 s and kept through a tick; payments appear on the payments task's
 * next run (every minute); a clock jump over many sample epochs leaves no empty samples.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clob, decodeSerializableInt, epochs, perpetuals, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, signWire, subaccountOverGrpc } from "./support/wire.js";

let devnet: Devnet;
let clientId = 1;
const [LONG, SHORT] = [2, 3];
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };

const ORACLE = 6_500_000_000n; // $65,000 in subticks (quantum conversion exponent -9)
const QCE = -9;
const BID = 6_565_000_000n; // $65,650: 1% over the oracle
const BID_QUANTUMS = 2_000_000_000n; // 0.2 BTC, $13,130: more than the $10,000 impact notional
const GENESIS = perpetualsGenesis(DEFAULT_MARKETS);
/** BTC-USD's liquidity tier (Large-Cap) in the genesis. */
const TIER = GENESIS.liquidityTiers[DEFAULT_MARKETS[0]?.liquidityTier ?? -1] as perpetuals.LiquidityTier;
const IMPACT_NOTIONAL = TIER.impactNotional;
const DEFAULT_FUNDING_PPM = 100n;
/** funding_rate_clamp_factor × (IMF − MMF) of the tier. */
const RATE_CLAMP_PPM =
  (BigInt(GENESIS.params.fundingRateClampFactorPpm) *
    (BigInt(TIER.initialMarginPpm) -
      (BigInt(TIER.initialMarginPpm) * BigInt(TIER.maintenanceFractionPpm)) / 1_000_000n)) /
  1_000_000n;

async function control(path: string, body: Record<string, unknown>): Promise<Record<string, string>> {
  const response = await fetch(`${devnet.endpoints.devnetControl}/devnet/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, string>;
}

async function deliver(i: number, msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  expect(answer.code, answer.log).toBe(0);
  await control("blocks", { count: 1 });
}

function deposit(i: number, quantums: bigint): TestMsg {
  return msg(
    sending.MsgDepositToSubaccountSchema,
    create(sending.MsgDepositToSubaccountSchema, {
      sender: who(i).address,
      recipient: { owner: who(i).address, number: 0 },
      assetId: 0,
      quantums,
    }),
  );
}

function longTerm(i: number, side: clob.Order_Side, quantums: bigint, subticks: bigint): TestMsg {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who(i).address, number: 0 },
          clientId: clientId++,
          orderFlags: 64,
          clobPairId: 0,
        },
        side,
        quantums,
        subticks,
        goodTilOneof: {
          case: "goodTilBlockTime",
          value: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 80 * 86_400,
        },
      },
    }),
  );
}

const grpc = () => createGrpcTransport({ baseUrl: devnet.endpoints.grpc });
const perpetualsQuery = () => createClient(perpetuals.Query, grpc());
const epochsQuery = () => createClient(epochs.Query, grpc());

async function btcPremiums(which: "votes" | "samples"): Promise<{ premiums: bigint[]; rounds: number }> {
  const store =
    which === "votes"
      ? (await perpetualsQuery().premiumVotes({})).premiumVotes
      : (await perpetualsQuery().premiumSamples({})).premiumSamples;
  const market = store?.allMarketPremiums.find((m) => m.perpetualId === 0);
  return { premiums: (market?.premiums ?? []).map(BigInt), rounds: store?.numPremiums ?? 0 };
}

async function fundingIndex(): Promise<bigint> {
  const { perpetual } = await perpetualsQuery().perpetual({ id: 0 });
  return decodeSerializableInt(perpetual?.fundingIndex ?? new Uint8Array());
}

// ---- the real chain's formulas, written out for the expected figures ----

/**
 * The impact bid of one resting bid level (big enough for the notional), and its premium in ppm
 * against an oracle (index) price in subticks.
 */
function expectedVote(oracle = ORACLE): bigint {
  const full = (BID * BID_QUANTUMS) / 10n ** BigInt(-QCE); // quote quantums of the whole level
  // Base quantums to sell for the impact notional, rounded up; average price = notional / base.
  const base = (IMPACT_NOTIONAL * BID_QUANTUMS + full - 1n) / full;
  const impactNum = IMPACT_NOTIONAL * 10n ** BigInt(-QCE);
  // impact / index − 1, in ppm, toward zero.
  return (impactNum * 1_000_000n - base * oracle * 1_000_000n) / (base * oracle);
}

function padded(values: bigint[], rounds: number, minimum: number): bigint[] {
  return [...values, ...Array<bigint>(Math.max(rounds, minimum) - values.length).fill(0n)];
}

function median(values: bigint[]): bigint {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(s.length / 2);
  if (s.length % 2 === 1) return s[mid] as bigint;
  const sum = (s[mid - 1] as bigint) + (s[mid] as bigint);
  return sum % 2n === 0n ? sum / 2n : sum > 0n ? sum / 2n + 1n : sum / 2n - 1n;
}

/** Mines until the sample timer caught up with a clock jump (it starts one epoch per block until it has). */
async function catchUpSamples(): Promise<void> {
  for (;;) {
    const sample = (await epochsQuery().epochInfo({ name: "funding-sample" })).epochInfo;
    const status = (await (await fetch(`${devnet.endpoints.devnetControl}/devnet/status`)).json()) as {
      blockTime: string;
    };
    if ((sample?.nextTick ?? 0) * 1000 > Date.parse(status.blockTime)) break;
    await control("blocks", { count: 10 });
  }
}

/**
 * Two sample epochs of 16 votes each (15 blocks, then the block that starts the next epoch), after
 * the sample timer caught up.
 */
async function twoFullSamples(): Promise<void> {
  await catchUpSamples();
  await control("advance-epoch", { epoch: "funding-sample" });
  for (let i = 0; i < 2; i++) {
    await control("blocks", { count: 15 });
    await control("advance-epoch", { epoch: "funding-sample" });
  }
}

/** Runs a funding tick; answers the index delta expected from the state before it, and the one seen. */
async function tick(): Promise<{ expected: bigint; seen: bigint }> {
  const votes = await btcPremiums("votes");
  const samples = await btcPremiums("samples");
  const before = await fundingIndex();
  const moved = await control("advance-epoch", { epoch: "funding-tick" });
  const height = Number(moved.height);
  // The tick block votes too; if it also starts a sample epoch, its votes become one more sample.
  const sampleEpoch = (await epochsQuery().epochInfo({ name: "funding-sample" })).epochInfo;
  let allSamples = samples;
  if (sampleEpoch?.currentEpochStartBlock === height) {
    const sample = median(padded([...votes.premiums, expectedVote()], votes.rounds + 1, 15));
    allSamples = {
      premiums: sample === 0n ? samples.premiums : [...samples.premiums, sample],
      rounds: samples.rounds + 1,
    };
  }
  const values = padded(allSamples.premiums, allSamples.rounds, 3600 / 60);
  const premium = values.reduce((a, b) => a + b, 0n) / BigInt(values.length);
  let rate = premium + DEFAULT_FUNDING_PPM;
  rate = rate > RATE_CLAMP_PPM ? RATE_CLAMP_PPM : rate < -RATE_CLAMP_PPM ? -RATE_CLAMP_PPM : rate;
  // 8-hour rate over the 3,600 s tick: seconds × rate × price (6,500,000,000 × 10^-5) in quote
  // quantums per base quantum (atomic resolution -10): × 10^(-5 - 10 + 6), then / 28,800.
  const expected = (3600n * rate * 6_500_000_000n) / 10n ** 9n / 28_800n;
  return { expected, seen: (await fundingIndex()) - before };
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  await control("blocks", { count: 2 });
  // The block clock follows the wall clock: start just past an hour boundary, so no `funding-tick`
  // epoch starts by itself (emptying the samples) in the minutes the tests take.
  await control("advance-epoch", { epoch: "funding-tick" });
  await catchUpSamples();
  for (const i of [LONG, SHORT]) await deliver(i, [deposit(i, 50_000_000_000n)], 25_000n);
  // 0.1 BTC changes hands at the oracle price: the long and the short.
  await deliver(SHORT, [longTerm(SHORT, clob.Order_Side.SELL, 1_000_000_000n, ORACLE)]);
  await deliver(LONG, [longTerm(LONG, clob.Order_Side.BUY, 1_000_000_000n, ORACLE)]);
  // A bid 1% over the oracle, and an ask above it: the book votes a positive premium.
  await deliver(LONG, [longTerm(LONG, clob.Order_Side.BUY, BID_QUANTUMS, BID)]);
  await deliver(SHORT, [longTerm(SHORT, clob.Order_Side.SELL, BID_QUANTUMS, 6_570_000_000n)]);
  await control("blocks", { count: 2 });
}, 60_000);

afterAll(async () => {
  await devnet?.stop();
});

describe("funding on epochs", () => {
  it("exposes the real chain's timers: samples every minute on the half minute, ticks every hour", async () => {
    const { epochInfo } = await epochsQuery().epochInfoAll({});
    const byName = Object.fromEntries(epochInfo.map((e) => [e.name, e]));
    expect(byName["funding-sample"]).toMatchObject({ duration: 60, isInitialized: true });
    expect((byName["funding-sample"]?.nextTick ?? 0) % 60).toBe(30);
    expect(byName["funding-tick"]).toMatchObject({ duration: 3600, isInitialized: true });
    expect((byName["funding-tick"]?.nextTick ?? 1) % 3600).toBe(0);
    expect(byName["stats-epoch"]).toMatchObject({ duration: 3600 });
  });

  it("votes the impact-bid premium every block and samples their median every minute", async () => {
    const long = await subaccountOverGrpc(devnet.endpoints.grpc, who(LONG).address);
    expect(long.positions).toMatchObject([{ perpetualId: 0, quantums: 1_000_000_000n }]);
    await control("advance-epoch", { epoch: "funding-sample" });
    await control("blocks", { count: 3 });
    const votes = await btcPremiums("votes");
    expect(votes.premiums).toEqual([expectedVote(), expectedVote(), expectedVote()]);
    expect(votes.rounds).toBe(3);
    expect(expectedVote()).toBeGreaterThan(9_000n);
  });

  it("pays two hourly ticks at the rate and index the real formula gives, settled into the long", async () => {
    const start = await subaccountOverGrpc(devnet.endpoints.grpc, who(LONG).address);
    const positionIndex = start.positions[0]?.fundingIndex ?? 0n;
    let total = 0n;
    for (let epoch = 0; epoch < 2; epoch++) {
      await twoFullSamples();
      const samples = await btcPremiums("samples");
      expect(samples.premiums.slice(-2)).toEqual([expectedVote(), expectedVote()]);
      const { expected, seen } = await tick();
      expect(seen).toBe(expected);
      expect(seen).toBeGreaterThan(0n);
      total += seen;
      // The tick empties the samples.
      expect((await btcPremiums("samples")).rounds).toBe(0);
    }
    expect((await fundingIndex()) - positionIndex).toBe(total);
    // Touching the subaccount settles: the long pays (index moved) × 0.1 BTC, rounded down.
    const before = await subaccountOverGrpc(devnet.endpoints.grpc, who(LONG).address);
    await deliver(LONG, [deposit(LONG, 1_000_000n)], 25_000n);
    const after = await subaccountOverGrpc(devnet.endpoints.grpc, who(LONG).address);
    const owed = total * 1_000_000_000n;
    const paid = owed / 1_000_000n + (owed % 1_000_000n === 0n ? 0n : 1n);
    expect(after.usdc - before.usdc).toBe(1_000_000n - paid);
    expect(after.positions[0]?.fundingIndex).toBe(await fundingIndex());
    // The indexer keeps the funding apart: the position's realized PnL is minus its fills' fees
    // (nothing closed), its net funding what the long paid.
    const indexer = `${devnet.endpoints.indexer}/v4`;
    const query = `address=${who(LONG).address}&subaccountNumber=0`;
    const fills = (await (await fetch(`${indexer}/fills?${query}`)).json()) as { fills: { fee: string }[] };
    const micros = (text: string) => {
      const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
      const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
      return text.startsWith("-") ? -value : value;
    };
    const fees = fills.fills.reduce((sum, f) => sum + micros(f.fee), 0n);
    expect(fees).toBeGreaterThan(0n);
    await expect
      .poll(async () => {
        const res = await fetch(`${indexer}/perpetualPositions?${query}&status=OPEN`);
        const body = (await res.json()) as { positions: { realizedPnl: string; netFunding: string }[] };
        const position = body.positions[0];
        return position === undefined
          ? undefined
          : [micros(position.realizedPnl), micros(position.netFunding)];
      })
      .toEqual([-fees, -paid]);
  });
});

// ---- the real indexer's next funding rate and funding payments ----

/**
 * The real indexer's `nextFundingRate` from the premium samples since the last tick (the chain
 * stores the non-zero ones and counts every round; the indexer gets each, zeros too): the mean of
 * the samples as 1-hour rates (sample / 8 × 1e-6, big.js dividing to 20 decimals, half away from
 * zero) plus the default 1-hour rate, unclamped.
 */
function indexerNextRate(samples: { premiums: bigint[]; rounds: number }): string {
  const values = padded(samples.premiums, samples.rounds, 0);
  const sum = values.reduce((a, b) => a + b, 0n) * 10n ** 20n;
  const den = 8_000_000n * BigInt(values.length);
  const abs = sum < 0n ? -sum : sum;
  const mean = ((abs * 2n + den) / (2n * den)) * (sum < 0n ? -1n : 1n);
  const scaled = mean + (DEFAULT_FUNDING_PPM * 10n ** 20n) / 8_000_000n;
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(21, "0");
  const fraction = digits.slice(-20).replace(/0+$/, "");
  const text = fraction === "" ? digits.slice(0, -20) : `${digits.slice(0, -20)}.${fraction}`;
  return scaled < 0n ? `-${text}` : text;
}

async function indexerGet<T>(path: string): Promise<T> {
  const response = await fetch(`${devnet.endpoints.indexer}/v4/${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const nextFundingRate = async () =>
  (await indexerGet<{ markets: Record<string, { nextFundingRate: string }> }>("perpetualMarkets")).markets[
    "BTC-USD"
  ]?.nextFundingRate;

const longPayments = async () =>
  (
    await indexerGet<{ fundingPayments: { createdAtHeight: string; rate: string }[] }>(
      `fundingPayments?address=${who(LONG).address}&subaccountNumber=0`,
    )
  ).fundingPayments;

/** Moves the clock `ms` on and mines a block there (at least `ms` after the latest block). */
async function mineAfter(ms: number): Promise<void> {
  await control("advance-time", { ms, mine: true });
}

/** 15 blocks of votes, then the block that starts the next sample epoch (16 votes: their median is the vote). */
async function fullSample(): Promise<void> {
  await control("blocks", { count: 15 });
  await control("advance-epoch", { epoch: "funding-sample" });
}

describe("funding as the real indexer shows it", () => {
  it("keeps nextFundingRate through a tick, shows the tick's payments on the payments task's next run, and refreshes the rate every 30 s from the samples since the tick, unclamped", async () => {
    // The oracle (the index) 6% under the resting bid: votes over the funding clamp (4.8%).
    devnet.app.control.setOraclePrice("BTC-USD", "61000");
    const vote = expectedVote(6_100_000_000n);
    expect(vote).toBeGreaterThan(RATE_CLAMP_PPM);
    await fullSample();
    // A block at least a minute after the latest (the indexer's tasks both run there), 45 s
    // before the next funding tick.
    let tick = (await epochsQuery().epochInfo({ name: "funding-tick" })).epochInfo?.nextTick ?? 0;
    if (tick * 1000 - devnet.app.latestBlock().time.getTime() < 120_000) {
      await control("advance-epoch", { epoch: "funding-tick" });
      tick += 3600;
    }
    await mineAfter(tick * 1000 - 45_000 - devnet.app.latestBlock().time.getTime());
    const before = await nextFundingRate();
    expect(before).toBe(indexerNextRate(await btcPremiums("samples")));
    const paid = (await longPayments()).length;

    // The tick: the rate shown stays (the samples are gone until the next one), no payment yet.
    const tickHeight = (await control("advance-epoch", { epoch: "funding-tick" })).height;
    expect((await btcPremiums("samples")).rounds).toBe(0);
    expect(await nextFundingRate()).toBe(before);
    expect(await longPayments()).toHaveLength(paid);

    // The first sample after the tick; a block 31 s later runs both tasks.
    await fullSample();
    const samples = await btcPremiums("samples");
    expect(samples).toEqual({ premiums: [vote], rounds: 1 });
    await mineAfter(31_000);
    const afterTick = await nextFundingRate();
    expect(afterTick).toBe(indexerNextRate(samples));
    // Unclamped: over the funding clamp's 1-hour rate.
    expect(Number(afterTick)).toBeGreaterThan(Number(RATE_CLAMP_PPM) / 8e6);
    const payments = await longPayments();
    expect(payments).toHaveLength(paid + 1);
    expect(payments[0]?.createdAtHeight).toBe(tickHeight);

    // A sample less than 30 s after the last run: not shown until the next run.
    devnet.app.control.setOraclePrice("BTC-USD", "62000");
    await fullSample();
    const two = await btcPremiums("samples");
    expect(two).toEqual({ premiums: [vote, expectedVote(6_200_000_000n)], rounds: 2 });
    expect(await nextFundingRate()).toBe(afterTick);
    await mineAfter(31_000);
    expect(await nextFundingRate()).toBe(indexerNextRate(two));
  });

  it("does not dilute the next rate with empty samples after a clock jump across many sample epochs", async () => {
    const moved = await control("advance-epoch", { epoch: "funding-tick" });
    expect(Number(moved.advancedMs)).toBeGreaterThan(10 * 60_000);
    await fullSample();
    const samples = await btcPremiums("samples");
    // One sample since the tick, the vote itself: the minutes the jump skipped left none.
    expect(samples).toEqual({ premiums: [expectedVote(6_200_000_000n)], rounds: 1 });
    await mineAfter(31_000);
    expect(await nextFundingRate()).toBe(indexerNextRate(samples));
  });
});
