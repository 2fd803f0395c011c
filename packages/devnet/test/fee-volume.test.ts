/**
 * The fee tiers' 30-day volume over the wire, as the real chain's x/stats keeps it: a fill counts
 * from the next block (two fills of one block both pay the tier of the volume before it), and it
 * leaves the window on the hour its stats epoch ended, 30 days on (not at a UTC day's start). The
 * expected tier is the real chain's walk over the tiers the chain serves, with the volumes the
 * test traded; fees are the real chain's (tier fee ppm of the notional, rounded up). Txs are signed
 * with cosmjs and broadcast with RPC `broadcast_tx_sync`; the clock moves with the control API.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clob, epochs } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, signWire, subaccountOverAbci } from "./support/wire.js";

const PRICE = 6_500_000_000n; // $65,000 in subticks (quantum conversion exponent -9)
const BTC = 10_000_000_000n; // base quantums (atomic resolution -10)
const WINDOW_SECONDS = 30 * 86_400;
const [MAKER, TAKER] = [0, 1];
let devnet: Devnet;
let clientId = 1;

const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };
const quoteOf = (quantums: bigint) => (PRICE * quantums) / 1_000_000_000n;
/** The real chain's fee: notional × ppm / 1e6, rounded up. */
const feeOf = (quote: bigint, ppm: bigint) => {
  const product = quote * ppm;
  return product / 1_000_000n + (product % 1_000_000n > 0n ? 1n : 0n);
};

interface Tier {
  readonly takerFeePpm: bigint;
  readonly absolute: bigint;
  readonly totalShare: bigint;
  readonly makerShare: bigint;
}

async function tiers(): Promise<Tier[]> {
  const { body } = await restGet(devnet.endpoints.nodeRest, "/perpx/feetiers/v1/perpetual_fee_params");
  return (body.params.tiers as Loose[]).map((t) => ({
    takerFeePpm: BigInt(t.taker_fee_ppm),
    absolute: BigInt(t.absolute_volume_requirement),
    totalShare: BigInt(t.total_volume_share_requirement_ppm),
    makerShare: BigInt(t.maker_volume_share_requirement_ppm),
  }));
}

/** The real chain's walk: the last tier before the first one whose requirements the user misses. */
function tierIndex(all: Tier[], volume: { total: bigint; maker: bigint; global: bigint }): number {
  let index = 0;
  for (const [i, tier] of all.entries()) {
    if (
      volume.total < tier.absolute ||
      volume.total < (volume.global * tier.totalShare) / 1_000_000n ||
      volume.maker < (volume.global * tier.makerShare) / 1_000_000n
    )
      break;
    index = i;
  }
  return index;
}

async function userTier(i: number): Promise<number> {
  const { body } = await restGet(
    devnet.endpoints.nodeRest,
    `/perpx/feetiers/v1/user_fee_tier?user=${who(i).address}`,
  );
  return Number(body.index ?? 0);
}

async function control(path: string, body: unknown): Promise<Loose> {
  const res = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

function order(i: number, side: "buy" | "sell", quantums: bigint, ioc: boolean): TestMsg {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: { subaccountId: { owner: who(i).address, number: 0 }, clientId: clientId++, clobPairId: 0 },
        side: side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
        quantums,
        subticks: PRICE,
        goodTilOneof: { case: "goodTilBlock", value: Number(devnet.app.latestBlock().height) + 10 },
        timeInForce: ioc ? clob.Order_TimeInForce.IOC : clob.Order_TimeInForce.UNSPECIFIED,
      },
    }),
  );
}

/** Places short-term orders (matched at CheckTx; their fills settle in the next block). */
async function place(i: number, ...msgs: TestMsg[]): Promise<void> {
  for (const m of msgs) {
    const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
    const tx = await signWire(who(i).mnemonic, [m], { chainId: devnet.chainId, ...account });
    const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
    expect(answer.code, answer.log).toBe(0);
  }
}

const usdc = async (i: number) => (await subaccountOverAbci(devnet.endpoints.nodeRpc, who(i).address)).usdc;

async function statsEpoch(): Promise<epochs.EpochInfo> {
  const query = createClient(epochs.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
  return (await query.epochInfo({ name: "stats-epoch" })).epochInfo as epochs.EpochInfo;
}

/** Moves the clock to `seconds` (unix) and mines the block there. */
async function mineAt(seconds: number): Promise<void> {
  const ms = seconds * 1000 - devnet.app.latestBlock().time.getTime();
  expect(ms).toBeGreaterThan(0);
  await control("/advance-time", { ms, mine: true });
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(2);
  for (const i of [MAKER, TAKER]) {
    await control("/fund-subaccount", { owner: who(i).address, number: 0, quantums: "100000000000" });
  }
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("the fee tiers' 30-day volume (x/stats)", () => {
  let epochEnd = 0;
  let traded = { total: 0n, maker: 0n, global: 0n };

  it("counts a fill from the next block: two fills of one block pay the tier of the volume before it", async () => {
    // A stats epoch starts on the hour; the fills below are in it.
    await control("/advance-epoch", { epoch: "stats-epoch" });
    const epoch = (await statsEpoch()).currentEpoch;
    const all = await tiers();
    const big = 16n * BTC; // $1,040,000: past tier 2's $1M on its own
    const small = BTC / 10n;
    await place(MAKER, order(MAKER, "sell", big + 2n * small, false));
    await place(TAKER, order(TAKER, "buy", big, true), order(TAKER, "buy", small, true));
    const before = await usdc(TAKER);
    devnet.mine(1);
    const tierBefore = all[tierIndex(all, traded)] as Tier;
    const [q1, q2] = [quoteOf(big), quoteOf(small)];
    traded = { total: q1 + q2, maker: 0n, global: q1 + q2 };
    epochEnd = (await statsEpoch()).nextTick;
    // Both fills at the tier of the volume before the block (none): the first did not lift the second.
    expect((await usdc(TAKER)) - before).toBe(
      -q1 - q2 - feeOf(q1, tierBefore.takerFeePpm) - feeOf(q2, tierBefore.takerFeePpm),
    );
    const lifted = tierIndex(all, traded);
    expect(lifted).toBeGreaterThan(0);
    expect(await userTier(TAKER)).toBe(lifted);
    // The next block's fill pays the lifted tier.
    await place(TAKER, order(TAKER, "buy", small, true));
    const next = await usdc(TAKER);
    devnet.mine(1);
    const q3 = quoteOf(small);
    expect((await usdc(TAKER)) - next).toBe(-q3 - feeOf(q3, (all[lifted] as Tier).takerFeePpm));
    traded = { total: traded.total + q3, maker: 0n, global: traded.global + q3 };
    const info = await statsEpoch();
    expect(info.currentEpoch).toBe(epoch);
    expect(info.nextTick).toBe(epochEnd);
  });

  it("forgets the volume on the hour its stats epoch ended, 30 days on, and the tier falls back", async () => {
    const all = await tiers();
    const lifted = tierIndex(all, traded);
    // Ten minutes before the epoch's end plus 30 days (a later UTC day than the fills'): still counted.
    await mineAt(epochEnd + WINDOW_SECONDS - 600);
    expect(await userTier(TAKER)).toBe(lifted);
    // Past it: gone, at the first block after the hour.
    await mineAt(epochEnd + WINDOW_SECONDS + 1);
    expect(await userTier(TAKER)).toBe(tierIndex(all, { total: 0n, maker: 0n, global: 0n }));
    expect(await userTier(TAKER)).toBeLessThan(lifted);
  });
});
