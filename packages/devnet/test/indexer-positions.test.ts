/**
 * What the indexer computes for positions and orders, against the reference indexer's ender
 * (`dydx_subaccount_update_handler`, `dydx_update_perpetual_position_aggregate_fields`,
 * `dydx_apply_fill_realized_effects`, `dydx_get_order_status`), over REST after signed orders
 * matched in blocks: a fill that flips a position's side (the chain emits the subaccount update
 * first, so the fill books on the new position), weighted entry prices as `numeric(256, 20)`
 * divides, exact realized PnL, a short's max size, and a partly filled IOC order's status.
 */
import { Exact } from "@perpx/core";
import { clob } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  signerAddresses,
  startFundedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let carol: string;

type Body = Record<string, unknown>;

async function positions(address: string): Promise<Body[]> {
  const answer = await getIndexer(chain, `/v4/perpetualPositions?address=${address}&subaccountNumber=0`);
  expect(answer.status).toBe(200);
  return (answer.body as { positions: Body[] }).positions;
}

async function fills(address: string): Promise<Body[]> {
  const answer = await getIndexer(chain, `/v4/fills?address=${address}&subaccountNumber=0`);
  expect(answer.status).toBe(200);
  return (answer.body as { fills: Body[] }).fills;
}

/** Signer `maker` rests an order, signer `taker` crosses it, and a block is mined. */
async function trade(
  maker: number,
  taker: number,
  clientId: number,
  takerSide: "buy" | "sell",
  quantums: bigint,
  subticks: bigint,
) {
  await placeShortTerm(chain, maker, {
    clientId,
    side: takerSide === "buy" ? "sell" : "buy",
    quantums,
    subticks,
  });
  await placeShortTerm(chain, taker, { clientId: clientId + 1, side: takerSide, quantums, subticks });
  const [block] = chain.devnet.mine(1);
  return block as NonNullable<typeof block>;
}

beforeAll(async () => {
  chain = await startFundedChain([10_000_000_000n, 10_000_000_000n, 10_000_000_000n]);
  [alice, , carol] = signerAddresses(chain);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

describe("indexer positions as ender keeps them", () => {
  it("closes a flipped position as it was and books the whole crossing fill on the new side", async () => {
    const opened = await trade(1, 0, 1, "buy", 100_000_000n, 6_500_000_000n);
    // Alice sells 0.03 at $66,000 holding 0.01 long: the chain's subaccount update closes the long
    // and opens a 0.02 short before the fill event, so the fill finds the new short (nothing open
    // on it yet) and books all of its 0.03 and its fee there; the long keeps its sums.
    const flipped = await trade(1, 0, 3, "sell", 300_000_000n, 6_600_000_000n);
    const [flip, open] = await fills(alice);
    expect(open).toMatchObject({ fee: "0.325", positionSizeBefore: "0", positionSideBefore: "LONG" });
    expect(open?.entryPriceBefore).toBeUndefined();
    expect(flip).toMatchObject({ fee: "0.99", positionSizeBefore: "0", positionSideBefore: "SHORT" });
    expect(flip?.entryPriceBefore).toBeUndefined();
    expect(await positions(alice)).toEqual([
      {
        market: "BTC-USD",
        status: "OPEN",
        side: "SHORT",
        size: "-0.02",
        maxSize: "-0.02",
        entryPrice: "66000",
        exitPrice: null,
        realizedPnl: "-0.99",
        unrealizedPnl: "20",
        createdAt: flipped.time.toISOString(),
        createdAtHeight: flipped.height.toString(),
        closedAt: null,
        sumOpen: "0.03",
        sumClose: "0",
        netFunding: "0",
        subaccountNumber: 0,
      },
      {
        market: "BTC-USD",
        status: "CLOSED",
        side: "LONG",
        size: "0",
        maxSize: "0.01",
        entryPrice: "65000",
        exitPrice: null,
        realizedPnl: "-0.325",
        unrealizedPnl: "0",
        createdAt: opened.time.toISOString(),
        createdAtHeight: opened.height.toString(),
        closedAt: flipped.time.toISOString(),
        sumOpen: "0.01",
        sumClose: "0",
        netFunding: "0",
        subaccountNumber: 0,
      },
    ]);
    // Buying 0.01 back at $65,500 reduces the short it found (0.03 open to ender): $5 realized
    // less the fee; a short's max size is its greatest signed size, -0.01 now.
    await trade(1, 0, 5, "buy", 100_000_000n, 6_550_000_000n);
    const [close] = await fills(alice);
    expect(close).toMatchObject({
      positionSizeBefore: "0.03",
      entryPriceBefore: "66000",
      positionSideBefore: "SHORT",
    });
    const [short] = await positions(alice);
    expect(short).toMatchObject({
      status: "OPEN",
      size: "-0.01",
      maxSize: "-0.01",
      sumOpen: "0.03",
      sumClose: "0.01",
      exitPrice: "65500",
      realizedPnl: new Exact("-0.99")
        .plus("5")
        .minus(close?.fee as string)
        .toString(),
    });
  });

  it("averages entry prices to 20 decimals and realizes PnL exactly", async () => {
    await trade(1, 2, 7, "buy", 100_000_000n, 6_500_000_000n);
    await trade(1, 2, 9, "buy", 200_000_000n, 6_500_100_000n);
    await trade(1, 2, 11, "sell", 100_000_000n, 6_600_000_000n);
    const all = await fills(carol);
    const fees = all.reduce((sum, f) => sum.plus(f.fee as string), new Exact(0));
    // (0.01 × 65000 + 0.02 × 65001) / 0.03, rounded half up at 20 decimals.
    const entry = "65000.66666666666666666667";
    expect(all[0]).toMatchObject({ positionSizeBefore: "0.03", entryPriceBefore: entry });
    const [position] = await positions(carol);
    expect(position).toMatchObject({
      size: "0.02",
      entryPrice: entry,
      exitPrice: "66000",
      realizedPnl: new Exact("66000").minus(entry).times("0.01").minus(fees).toString(),
    });
    // $9.99333… less the fees $0.325, $0.65001 and $0.33, to the last digit.
    expect(position?.realizedPnl).toBe("8.6883233333333333333333");
  });
});

describe("indexer order status after a fill", () => {
  it("cancels a partly filled short-term IOC order in the block that fills it", async () => {
    await placeShortTerm(chain, 1, {
      clientId: 13,
      side: "sell",
      quantums: 100_000_000n,
      subticks: 6_600_000_000n,
    });
    await placeShortTerm(chain, 2, {
      clientId: 14,
      side: "buy",
      quantums: 200_000_000n,
      subticks: 6_600_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    const [block] = chain.devnet.mine(1);
    const answer = await getIndexer(chain, `/v4/orders?address=${carol}&subaccountNumber=0&status=CANCELED`);
    expect(answer.body).toMatchObject([
      {
        clientId: "14",
        timeInForce: "IOC",
        status: "CANCELED",
        totalFilled: "0.01",
        updatedAtHeight: block?.height.toString(),
      },
    ]);
  });
});
