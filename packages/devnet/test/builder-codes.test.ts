/**
 * Builder codes over the wire (signed long-term orders, RPC `broadcast_tx_sync`): a builder fee of
 * `fee_ppm` of each fill's quote amount, rounded up, is taken from the trader's USDC on top of the
 * trading fee and paid to the builder's address, for the maker and the taker; the fill event
 * carries both; a fee above 10,000 ppm or a bad builder address is clob 50.
 */
import { create } from "@bufbuild/protobuf";
import { addressBytesToBech32 } from "@perpx/address";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, bankUusdc, broadcastSync, signWire, subaccountOverGrpc } from "./support/wire.js";

let devnet: Devnet;
let clientId = 1;
const [MAKER, TAKER] = [2, 3];
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };
// Two addresses with no other business on the chain.
const MAKER_BUILDER = addressBytesToBech32(new Uint8Array(20).fill(7));
const TAKER_BUILDER = addressBytesToBech32(new Uint8Array(20).fill(9));
const ROUTER = addressBytesToBech32(new Uint8Array(20).fill(11));
const PRICE = 6_500_000_000n; // $65,000
const QUANTUMS = 100_000_000n; // 0.01 BTC: $650, 650,000,000 quote quantums

async function broadcast(i: number, msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

function order(
  i: number,
  side: clob.Order_Side,
  builderAddress: string,
  feePpm: number,
  orderRouterAddress = "",
): TestMsg {
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
        quantums: QUANTUMS,
        subticks: PRICE,
        goodTilOneof: {
          case: "goodTilBlockTime",
          value: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 600,
        },
        builderCodeParameters: { builderAddress, feePpm },
        orderRouterAddress,
      },
    }),
  );
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [MAKER, TAKER]) {
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
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("builder codes", () => {
  it("refuses a fee above 10,000 ppm and a bad builder address with clob 50", async () => {
    const tooHigh = await broadcast(MAKER, [order(MAKER, clob.Order_Side.SELL, MAKER_BUILDER, 10_001)]);
    expect([tooHigh.codespace, tooHigh.code]).toEqual(["clob", 50]);
    expect(tooHigh.log).toContain("Invalid builder code");
    const badAddress = await broadcast(MAKER, [order(MAKER, clob.Order_Side.SELL, "perpx1nope", 10)]);
    expect([badAddress.codespace, badAddress.code]).toEqual(["clob", 50]);
  });

  it("pays each side's builder its fee from the trader's USDC at the fill", async () => {
    const before = {
      maker: await subaccountOverGrpc(devnet.endpoints.grpc, who(MAKER).address),
      taker: await subaccountOverGrpc(devnet.endpoints.grpc, who(TAKER).address),
      makerBuilder: await bankUusdc(devnet.endpoints.nodeRest, MAKER_BUILDER),
      takerBuilder: await bankUusdc(devnet.endpoints.nodeRest, TAKER_BUILDER),
    };
    expect((await broadcast(MAKER, [order(MAKER, clob.Order_Side.SELL, MAKER_BUILDER, 1_000)])).code).toBe(0);
    devnet.mine(1);
    expect((await broadcast(TAKER, [order(TAKER, clob.Order_Side.BUY, TAKER_BUILDER, 333)])).code).toBe(0);
    devnet.mine(1);
    // The match of the resting orders travels in the next block's operations.
    const [block] = devnet.mine(1);
    const fill = block?.txResults[0]?.events.find((e) => e.type === "perpx.clob.order_fill");
    const attrs = Object.fromEntries((fill?.attributes ?? []).map((a) => [a.key, a.value]));
    const quote = 650_000_000n;
    const makerBuilderFee = 650_000n; // 1,000 ppm
    const takerBuilderFee = (quote * 333n + 999_999n) / 1_000_000n; // 216,450 (exact), rounded up
    expect(attrs).toMatchObject({
      quote_quantums: quote.toString(),
      maker_builder_fee_quantums: makerBuilderFee.toString(),
      taker_builder_fee_quantums: takerBuilderFee.toString(),
    });
    const takerFee = BigInt(attrs.taker_fee ?? "0");
    const makerFee = BigInt(attrs.maker_fee ?? "0");
    const maker = await subaccountOverGrpc(devnet.endpoints.grpc, who(MAKER).address);
    const taker = await subaccountOverGrpc(devnet.endpoints.grpc, who(TAKER).address);
    expect(maker.usdc - before.maker.usdc).toBe(quote - makerFee - makerBuilderFee);
    expect(taker.usdc - before.taker.usdc).toBe(-quote - takerFee - takerBuilderFee);
    expect((await bankUusdc(devnet.endpoints.nodeRest, MAKER_BUILDER)) - before.makerBuilder).toBe(
      makerBuilderFee,
    );
    expect((await bankUusdc(devnet.endpoints.nodeRest, TAKER_BUILDER)) - before.takerBuilder).toBe(
      takerBuilderFee,
    );
  });

  it("refuses a stateful order routed by a router without a share (revshare 8) and pays a registered router its share", async () => {
    const unknown = await broadcast(TAKER, [order(TAKER, clob.Order_Side.BUY, TAKER_BUILDER, 10, ROUTER)]);
    expect([unknown.codespace, unknown.code]).toEqual(["revshare", 8]);
    expect(unknown.log).toContain("order router rev share not found");
    const control = devnet.endpoints.devnetControl;
    const { authority } = (await (await fetch(`${control}/devnet/gov/authority`)).json()) as {
      authority: string;
    };
    const proposal = await fetch(`${control}/devnet/gov/proposals`, {
      method: "POST",
      body: JSON.stringify({
        messages: [
          {
            "@type": "/perpx.revshare.v1.MsgSetOrderRouterRevShare",
            authority,
            order_router_rev_share: { address: ROUTER, share_ppm: 500_000 },
          },
        ],
      }),
    });
    expect(proposal.status).toBe(200);
    expect(((await proposal.json()) as { result?: { status?: string } }).result?.status).toBe("passed");
    const before = await bankUusdc(devnet.endpoints.nodeRest, ROUTER);
    expect((await broadcast(MAKER, [order(MAKER, clob.Order_Side.SELL, MAKER_BUILDER, 10)])).code).toBe(0);
    devnet.mine(1);
    const routed = await broadcast(TAKER, [order(TAKER, clob.Order_Side.BUY, TAKER_BUILDER, 10, ROUTER)]);
    expect(routed.code, routed.log).toBe(0);
    devnet.mine(1);
    const [block] = devnet.mine(1);
    const fill = block?.txResults[0]?.events.find((e) => e.type === "perpx.clob.order_fill");
    const attrs = Object.fromEntries((fill?.attributes ?? []).map((a) => [a.key, a.value]));
    const takerFee = BigInt(attrs.taker_fee ?? "0");
    const makerFee = BigInt(attrs.maker_fee ?? "0");
    // Half of min(taker fee, taker fee + maker fee), rounded down: the maker's rebate comes off first.
    const side = takerFee + makerFee < takerFee ? takerFee + makerFee : takerFee;
    const expected = (500_000n * side) / 1_000_000n;
    expect(expected).toBeGreaterThan(0n);
    expect(attrs.taker_order_router_fee_quantums).toBe(expected.toString());
    expect(attrs.maker_order_router_fee_quantums).toBe("0");
    expect((await bankUusdc(devnet.endpoints.nodeRest, ROUTER)) - before).toBe(expected);
  });
});
