/**
 * The liquidity tiers of the reference genesis over the wire (`sample_pregenesis.json`): the seven
 * tiers as `all_liquidity_tiers` lists them, BTC-USD and ETH-USD on Large-Cap, and what follows
 * from a tier: the initial margin a stateful order must meet (clob 3007 just above it, accepted
 * just below it, both computed from the tier the chain answers) and the indexer's margin fractions.
 */
import { create } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, signWire } from "./support/wire.js";

let devnet: Devnet;
let clientId = 1;
const who = () => devnet.accounts[2] as { address: string; mnemonic: string };
const COLLATERAL = 1_000_000_000n; // $1,000
const BTC_SUBTICKS_PER_USD = 100_000n; // BTC-USD: quantum conversion exponent -9, atomic resolution -10

/** Broadcasts, mines a block, and answers CheckTx's refusal or the delivery result. */
async function deliver(msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who().address);
  const tx = await signWire(who().mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  if (answer.code !== 0) return answer;
  const [block] = devnet.mine(1);
  const result = block?.txResults.at(-1);
  return { code: result?.code ?? -1, codespace: result?.codespace ?? "", log: result?.log ?? "" };
}

/** A long-term BTC-USD buy of `quantums` at `usd` per BTC. */
function longTermBuy(quantums: bigint, usd: bigint): TestMsg {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who().address, number: 0 },
          clientId: clientId++,
          orderFlags: 64,
          clobPairId: 0,
        },
        side: clob.Order_Side.BUY,
        quantums,
        subticks: usd * BTC_SUBTICKS_PER_USD,
        goodTilOneof: {
          case: "goodTilBlockTime",
          value: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 600,
        },
      },
    }),
  );
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  const funded = await deliver(
    [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: who().address,
          recipient: { owner: who().address, number: 0 },
          assetId: 0,
          quantums: COLLATERAL,
        }),
      ),
    ],
    25_000n,
  );
  expect(funded.code, funded.log).toBe(0);
});

afterAll(async () => {
  await devnet?.stop();
});

const rest = (path: string) => restGet(devnet.endpoints.nodeRest, path);

/** The tiers as the chain lists them. */
async function tiers(): Promise<Loose[]> {
  const answer = await rest("/perpx/perpetuals/v1/all_liquidity_tiers");
  expect(answer.status).toBe(200);
  return answer.body.liquidity_tiers as Loose[];
}

describe("liquidity tiers", () => {
  it("are the reference genesis's seven tiers, BTC-USD and ETH-USD on Large-Cap", async () => {
    const listed = (await tiers()).map((t) => [
      t.id,
      t.name,
      t.initial_margin_ppm,
      t.maintenance_fraction_ppm,
      t.open_interest_lower_cap,
      t.open_interest_upper_cap,
    ]);
    expect(listed).toEqual([
      [0, "Large-Cap", 20_000, 600_000, "0", "0"],
      [1, "Small-Cap", 100_000, 500_000, "20000000000000", "50000000000000"],
      [2, "Long-Tail", 200_000, 500_000, "5000000000000", "10000000000000"],
      [3, "Safety", 1_000_000, 200_000, "2000000000000", "5000000000000"],
      [4, "Isolated", 50_000, 600_000, "500000000000", "1000000000000"],
      [5, "Mid-Cap", 50_000, 600_000, "40000000000000", "100000000000000"],
      [6, "FX", 10_000, 500_000, "500000000000", "1000000000000"],
    ]);
    const perpetuals = (await rest("/perpx/perpetuals/v1/all_perpetuals")).body.perpetual as Loose[];
    const tierOf = Object.fromEntries(perpetuals.map((p) => [p.params.ticker, p.params.liquidity_tier]));
    expect([tierOf["BTC-USD"], tierOf["ETH-USD"]]).toEqual([0, 0]);
  });

  it("holds a stateful order to the tier's initial margin, and the indexer shows the tier's fractions", async () => {
    const largeCap = (await tiers())[0] as Loose;
    const imfPpm = BigInt(largeCap.initial_margin_ppm as number);
    const mmfPpm = (imfPpm * BigInt(largeCap.maintenance_fraction_ppm as number)) / 1_000_000n;
    // The most notional $1,000 carries at the tier's initial margin, at $65,000 per BTC: one
    // order 2% above it is refused, one 2% below it fits.
    const price = 65_000n;
    const maxNotional = (COLLATERAL * 1_000_000n) / imfPpm; // quote quantums
    const quantumsFor = (notional: bigint) => ((notional * 10_000n) / price / 1_000_000n) * 1_000_000n; // 1 BTC = 1e10
    const refused = await deliver([longTermBuy(quantumsFor((maxNotional * 102n) / 100n), price)]);
    expect([refused.codespace, refused.code]).toEqual(["clob", 3007]);
    const placed = await deliver([longTermBuy(quantumsFor((maxNotional * 98n) / 100n), price)]);
    expect(placed.code, placed.log).toBe(0);
    const fraction = (ppm: bigint) => (Number(ppm) / 1_000_000).toString();
    await expect
      .poll(async () => {
        const res = await fetch(`${devnet.endpoints.indexer}/v4/perpetualMarkets?ticker=BTC-USD`);
        const body = (await res.json()) as { markets: Record<string, Loose> };
        const btc = body.markets["BTC-USD"] as Loose;
        return [btc.initialMarginFraction, btc.maintenanceMarginFraction];
      })
      .toEqual([fraction(imfPpm), fraction(mmfPpm)]);
  });
});
