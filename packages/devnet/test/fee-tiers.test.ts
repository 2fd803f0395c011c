/**
 * Fee tiers over the wire: the real chain's 9 default tiers (with their volume-share requirements)
 * over REST, the affiliates' referee floor lifting a referred taker to tier 3, and a per-market fee
 * discount set by governance halving the fees of a fill. Txs are signed with cosmjs and broadcast
 * with RPC `broadcast_tx_sync`; subaccounts are read over `abci_query`.
 */
import { create } from "@bufbuild/protobuf";
import { affiliates, clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, signWire, subaccountOverAbci } from "./support/wire.js";

const USDC = 1_000_000n;
const PRICE = 6_500_000_000n;
let devnet: Devnet;
let clientId = 1;

const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };

async function broadcast(i: number, msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

async function deliver(i: number, msgs: TestMsg[]): Promise<void> {
  const answer = await broadcast(i, msgs, 25_000n);
  expect(answer.code, answer.log).toBe(0);
  const [block] = devnet.mine(1);
  const result = block?.txResults.at(-1);
  expect(result?.code, result?.log).toBe(0);
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

/** A fill of `quantums` (maker `maker` sells, taker `taker` buys); the taker's USDC change. */
async function fill(maker: number, taker: number, quantums: bigint): Promise<bigint> {
  const before = (await subaccountOverAbci(devnet.endpoints.nodeRpc, who(taker).address)).usdc;
  expect((await broadcast(maker, [order(maker, "sell", quantums, false)])).code).toBe(0);
  expect((await broadcast(taker, [order(taker, "buy", quantums, true)])).code).toBe(0);
  devnet.mine(1);
  return (await subaccountOverAbci(devnet.endpoints.nodeRpc, who(taker).address)).usdc - before;
}

async function control(path: string, body: unknown): Promise<Loose> {
  const res = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return res.json();
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [0, 1, 2]) {
    await deliver(i, [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: who(i).address,
          recipient: { owner: who(i).address, number: 0 },
          assetId: 0,
          quantums: 10_000n * USDC,
        }),
      ),
    ]);
  }
});

afterAll(async () => {
  await devnet?.stop();
});

describe("fee tiers", () => {
  it("has the real chain's 9 default tiers with their volume-share requirements", async () => {
    const { body } = await restGet(devnet.endpoints.nodeRest, "/perpx/feetiers/v1/perpetual_fee_params");
    const tiers = body.params.tiers as Loose[];
    expect(tiers.map((t) => t.name)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(tiers.map((t) => Number(t.taker_fee_ppm))).toEqual([500, 450, 400, 350, 300, 250, 250, 250, 250]);
    expect(tiers.every((t) => Number(t.maker_fee_ppm) === -110)).toBe(true);
    expect(tiers.map((t) => Number(t.total_volume_share_requirement_ppm))).toEqual([
      0, 0, 0, 0, 0, 5_000, 5_000, 5_000, 5_000,
    ]);
    expect(tiers.map((t) => Number(t.maker_volume_share_requirement_ppm))).toEqual([
      0, 0, 0, 0, 0, 0, 10_000, 20_000, 40_000,
    ]);
  });

  it("lifts a referred user to the referee floor (tier 3) in the query and at a fill", async () => {
    const quote = (PRICE * 10_000_000n) / 1_000_000_000n;
    // Unreferred: tier 1, taker 500 ppm.
    expect(await fill(0, 1, 10_000_000n)).toBe(-quote - (quote * 500n) / 1_000_000n);
    await deliver(1, [
      msg(
        affiliates.MsgRegisterAffiliateSchema,
        create(affiliates.MsgRegisterAffiliateSchema, { referee: who(1).address, affiliate: who(2).address }),
      ),
    ]);
    const { body } = await restGet(
      devnet.endpoints.nodeRest,
      `/perpx/feetiers/v1/user_fee_tier?user=${who(1).address}`,
    );
    expect([body.index, body.tier.name]).toEqual([2, "3"]);
    // Referred: tier 3, taker 400 ppm.
    expect(await fill(0, 1, 10_000_000n)).toBe(-quote - (quote * 400n) / 1_000_000n);
  });

  it("charges a share of the fee on a market with a running discount (governance)", async () => {
    const now = Math.floor(devnet.app.latestBlock().time.getTime() / 1000);
    const iso = (s: number) => new Date(s * 1000).toISOString().replace(".000Z", "Z");
    const authority = (await (
      await fetch(`${devnet.endpoints.devnetControl}/devnet/gov/authority`)
    ).json()) as Loose;
    const proposal = await control("/gov/proposals", {
      messages: [
        {
          "@type": "/perpx.feetiers.v1.MsgSetMarketFeeDiscountParams",
          authority: authority.authority,
          params: [
            { clob_pair_id: 0, start_time: iso(now - 60), end_time: iso(now + 86_400), charge_ppm: 500_000 },
          ],
        },
      ],
    });
    expect(proposal.result).toMatchObject({ status: "passed" });
    const { body } = await restGet(
      devnet.endpoints.nodeRest,
      "/perpx/feetiers/v1/all_market_fee_discount_params",
    );
    expect(body.params).toEqual([expect.objectContaining({ clob_pair_id: 0, charge_ppm: 500_000 })]);
    const quote = (PRICE * 10_000_000n) / 1_000_000_000n;
    // Account 2 is unreferred (tier 1): half of 500 ppm.
    expect(await fill(0, 2, 10_000_000n)).toBe(-quote - (quote * 250n) / 1_000_000n);
    // A discount ending in the past is refused (feetiers 406).
    const refused = await control("/gov/proposals", {
      messages: [
        {
          "@type": "/perpx.feetiers.v1.MsgSetMarketFeeDiscountParams",
          authority: authority.authority,
          params: [
            { clob_pair_id: 1, start_time: iso(now - 7_200), end_time: iso(now - 3_600), charge_ppm: 0 },
          ],
        },
      ],
    });
    expect(refused.result).toMatchObject({ status: "failed", codespace: "feetiers", code: 406 });
  });
});
