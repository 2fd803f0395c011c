/**
 * TWAP orders over the wire (signed txs, RPC `broadcast_tx_sync`, the clock moved with
 * `POST /devnet/advance-time`): a market TWAP buy of 0.005 BTC over 5 minutes in 1-minute legs
 * produces one suborder (order flags 256) per interval, priced at the oracle plus the price
 * tolerance rounded up to a tick, sized a fifth of the order; each fills against a resting ask in
 * the next block's operations, and the TWAP is done after its fifth leg. Bad parameters are clob 12.
 */
import { create } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AbciEvent, BlockRecord } from "../src/app/contract.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, signWire, subaccountOverGrpc } from "./support/wire.js";

let devnet: Devnet;
const [MAKER, TRADER] = [2, 3];
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };
const TWAP_QUANTUMS = 5_000_000n * 10n; // 0.005 BTC, 5 legs of 10,000,000 (10 steps each)

async function broadcast(i: number, msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

const gtbt = () => Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3600;

function twap(clientId: number, parameters: { duration: number; interval: number; priceTolerance: number }) {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who(TRADER).address, number: 0 },
          clientId,
          orderFlags: 128,
          clobPairId: 0,
        },
        side: clob.Order_Side.BUY,
        quantums: TWAP_QUANTUMS,
        subticks: 0n,
        goodTilOneof: { case: "goodTilBlockTime", value: gtbt() },
        twapParameters: parameters,
      },
    }),
  );
}

const attrs = (e: AbciEvent) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value]));
const eventsOf = (blocks: readonly BlockRecord[], type: string) =>
  blocks
    .flatMap((b) => [...b.finalizeBlockEvents, ...b.txResults.flatMap((r) => r.events)])
    .filter((e) => e.type === type)
    .map(attrs);

async function advance(seconds: number): Promise<BlockRecord[]> {
  const response = await fetch(`${devnet.endpoints.devnetControl}/devnet/advance-time`, {
    method: "POST",
    body: JSON.stringify({ seconds, mine: false }),
  });
  expect(response.status).toBe(200);
  // The block that places the suborder, and the one whose operations carry its fill.
  return devnet.mine(2);
}

async function position(): Promise<bigint> {
  const sub = await subaccountOverGrpc(devnet.endpoints.grpc, who(TRADER).address);
  return sub.positions.find((p) => p.perpetualId === 0)?.quantums ?? 0n;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [MAKER, TRADER]) {
    const deposit = msg(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: who(i).address,
        recipient: { owner: who(i).address, number: 0 },
        assetId: 0,
        quantums: 5_000_000_000n,
      }),
    );
    expect((await broadcast(i, [deposit], 25_000n)).code).toBe(0);
  }
  // An ask at the oracle price, big enough for the whole TWAP.
  const ask = msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who(MAKER).address, number: 0 },
          clientId: 1,
          orderFlags: 64,
          clobPairId: 0,
        },
        side: clob.Order_Side.SELL,
        quantums: 100_000_000n,
        subticks: 6_500_000_000n,
        goodTilOneof: { case: "goodTilBlockTime", value: gtbt() },
      },
    }),
  );
  devnet.mine(1);
  expect((await broadcast(MAKER, [ask])).code).toBe(0);
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("TWAP orders", () => {
  it("refuses parameters out of the chain's bounds with clob 12", async () => {
    const short = await broadcast(TRADER, [twap(9, { duration: 300, interval: 20, priceTolerance: 0 })]);
    expect([short.codespace, short.code]).toEqual(["clob", 12]);
    expect(short.log).toContain("TWAP order interval must be in the range [30 seconds, 3600 seconds]");
    const uneven = await broadcast(TRADER, [twap(9, { duration: 310, interval: 60, priceTolerance: 0 })]);
    expect([uneven.codespace, uneven.code]).toEqual(["clob", 12]);
    expect(uneven.log).toContain("TWAP order duration must be a multiple of the interval");
    const tolerance = await broadcast(TRADER, [
      twap(9, { duration: 300, interval: 60, priceTolerance: 1_000_000 }),
    ]);
    expect(tolerance.log).toContain("TWAP order price tolerance must be in the range [0, 1000000)");
  });

  it("places a suborder every interval until its legs are done, each filling a fifth", async () => {
    expect(
      (await broadcast(TRADER, [twap(7, { duration: 300, interval: 60, priceTolerance: 10_000 })])).code,
    ).toBe(0);
    // The TWAP's block places the first suborder; the next block's operations fill it.
    const first = devnet.mine(2);
    const placed = [first];
    for (let leg = 1; leg < 5; leg++) placed.push(await advance(60));
    const suborders = placed.map((blocks) =>
      eventsOf(blocks, "perpx.clob.order_place").filter((e) => e.order_flags === "256"),
    );
    for (const subs of suborders) {
      expect(subs).toHaveLength(1);
      // The oracle ($65,000) plus 1% tolerance, rounded up to a tick: $65,650.
      expect(subs[0]).toMatchObject({ client_id: "7", quantums: "10000000", subticks: "6565000000" });
    }
    const fills = placed.flatMap((blocks) => eventsOf(blocks, "perpx.clob.order_fill"));
    expect(fills.map((f) => [f.taker_order_flags, f.quantums, f.subticks])).toEqual(
      Array(5).fill(["256", "10000000", "6500000000"]),
    );
    expect(await position()).toBe(TWAP_QUANTUMS);
    // The next interval finds no legs left: the TWAP is done, no sixth suborder.
    const done = await advance(60);
    expect(eventsOf(done, "perpx.clob.order_place").filter((e) => e.order_flags === "256")).toEqual([]);
    expect(eventsOf(done, "perpx.clob.order_cancel")).toContainEqual(
      expect.objectContaining({ order_flags: "128", reason: "twap_completed", remaining_quantums: "0" }),
    );
  });
});
