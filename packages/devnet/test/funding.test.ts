/**
 * Funding over the wire, on the real chain's epochs: a long and a short (signed long-term orders),
 * a resting bid above the oracle price, premium votes every block, a sample every `funding-sample`
 * epoch and a payment every `funding-tick` epoch, reached with `POST /devnet/advance-epoch`. The
 * funding index after two ticks equals the figure computed here from the real chain's formula
 * (impact bid of the tier's impact notional, median of votes padded to 15, mean of samples padded
 * to 60, default rate, clamp 6 × (IMF − MMF), 8-hour rate over 3,600 s), and the long settles it
 * when its subaccount is next touched.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clob, decodeSerializableInt, epochs, perpetuals, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis-markets.js";
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

/** The impact bid of one resting bid level (big enough for the notional), and its premium in ppm. */
function expectedVote(): bigint {
  const full = (BID * BID_QUANTUMS) / 10n ** BigInt(-QCE); // quote quantums of the whole level
  // Base quantums to sell for the impact notional, rounded up; average price = notional / base.
  const base = (IMPACT_NOTIONAL * BID_QUANTUMS + full - 1n) / full;
  const impactNum = IMPACT_NOTIONAL * 10n ** BigInt(-QCE);
  // impact / index − 1, in ppm, toward zero.
  return (impactNum * 1_000_000n - base * ORACLE * 1_000_000n) / (base * ORACLE);
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
