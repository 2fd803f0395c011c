/**
 * The indexer's history routes over REST after signed deposits, transfers and a matched trade,
 * then an hour of block time (a funding tick and an hourly PnL tick): `/v4/transfers/between`,
 * `/v4/fundingPayments` and its parent route, `/v4/pnl` and its parent route, and the parent
 * `/v4/historical-pnl`, field by field, with their validation and the reference's quirks.
 */
import { Exact } from "@perpx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockRecord } from "../src/app/contract.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  signerAddresses,
  startFundedChain,
  transferMsg,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let bob: string;
let tradeHeight: string;
let tick: BlockRecord;

type Body = Record<string, unknown>;

/** A decimal string as an integer of 10^-dp units (exact). */
function units(text: string, dp: number): bigint {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const value = BigInt(whole + fraction.padEnd(dp, "0").slice(0, dp));
  expect(fraction.length).toBeLessThanOrEqual(dp);
  return negative ? -value : value;
}

/** Integer units of 10^-dp as trimmed decimal text. */
function decimal(value: bigint, dp: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(dp + 1, "0");
  const fraction = digits.slice(-dp).replace(/0+$/, "");
  const text = fraction === "" ? digits.slice(0, -dp) : `${digits.slice(0, -dp)}.${fraction}`;
  return negative ? `-${text}` : text;
}

async function body<T = Body>(path: string): Promise<T> {
  const answer = await getIndexer(chain, path);
  expect(answer.status, path).toBe(200);
  return answer.body as T;
}

beforeAll(async () => {
  chain = await startFundedChain([10_000_000_000n, 10_000_000_000n]);
  [alice, bob] = signerAddresses(chain);
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: bob, number: 0 }, 100n)]);
  await deliver(chain, 1, [transferMsg({ owner: bob, number: 0 }, { owner: alice, number: 0 }, 30n)]);
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: alice, number: 128 }, 50n)]);
  await placeShortTerm(chain, 1, {
    clientId: 1,
    side: "sell",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  await placeShortTerm(chain, 0, {
    clientId: 2,
    side: "buy",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  tradeHeight = chain.devnet.mine(1)[0]?.height.toString() as string;
  // An hour of block time: the next block pays funding and takes the hourly PnL ticks.
  chain.devnet.app.control.advanceTime(3_600_000);
  tick = chain.devnet.mine(1)[0] as BlockRecord;
});

afterAll(async () => {
  await chain?.devnet.stop();
});

describe("GET /v4/transfers/between", () => {
  it("lists the transfers both ways, newest first, seen from the source, and the net sent", async () => {
    const q = `sourceAddress=${alice}&sourceSubaccountNumber=0&recipientAddress=${bob}&recipientSubaccountNumber=0`;
    const between = await body<{ transfersSubset: Body[]; totalNetTransfers: string }>(
      `/v4/transfers/between?${q}`,
    );
    expect(between.totalNetTransfers).toBe("70");
    expect(between.transfersSubset).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sender: { address: bob, subaccountNumber: 0 },
        recipient: { address: alice, subaccountNumber: 0 },
        size: "30",
        createdAt: expect.any(String),
        createdAtHeight: expect.any(String),
        symbol: "USDC",
        type: "TRANSFER_IN",
        transactionHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sender: { address: alice, subaccountNumber: 0 },
        recipient: { address: bob, subaccountNumber: 0 },
        size: "100",
        createdAt: expect.any(String),
        createdAtHeight: expect.any(String),
        symbol: "USDC",
        type: "TRANSFER_OUT",
        transactionHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      },
    ]);
    const [newer, older] = between.transfersSubset as [Body, Body];
    expect(BigInt(newer.createdAtHeight as string)).toBeGreaterThan(BigInt(older.createdAtHeight as string));
    // The same transfers from the other side: types flip, the net changes sign.
    const back = `sourceAddress=${bob}&sourceSubaccountNumber=0&recipientAddress=${alice}&recipientSubaccountNumber=0`;
    const reverse = await body<{ transfersSubset: Body[]; totalNetTransfers: string }>(
      `/v4/transfers/between?${back}`,
    );
    expect(reverse.totalNetTransfers).toBe("-70");
    expect(reverse.transfersSubset.map((t) => t.type)).toEqual(["TRANSFER_OUT", "TRANSFER_IN"]);
    // The upper bound cuts the list but not the all-time net.
    const cut = await body<{ transfersSubset: Body[]; totalNetTransfers: string }>(
      `/v4/transfers/between?${q}&createdBeforeOrAtHeight=${older.createdAtHeight}`,
    );
    expect(cut).toEqual({ transfersSubset: [older], totalNetTransfers: "70" });
    const none = await body(
      `/v4/transfers/between?sourceAddress=${alice}&sourceSubaccountNumber=0&recipientAddress=${bob}&recipientSubaccountNumber=7`,
    );
    expect(none).toEqual({ transfersSubset: [], totalNetTransfers: "0" });
  });

  it("refuses missing and bad parameters with the reference's entries", async () => {
    const answer = await getIndexer(
      chain,
      `/v4/transfers/between?sourceSubaccountNumber=-1&recipientAddress=${bob}&createdBeforeOrAtHeight=x`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: [
        {
          value: "x",
          msg: "createdBeforeOrAtHeight must be a non-negative integer",
          param: "createdBeforeOrAtHeight",
          location: "query",
        },
        { msg: "Invalid value", param: "sourceAddress", location: "query" },
        {
          value: "-1",
          msg: "subaccountNumber must be a non-negative integer less than 128001",
          param: "sourceSubaccountNumber",
          location: "query",
        },
        {
          msg: "subaccountNumber must be a non-negative integer less than 128001",
          param: "recipientSubaccountNumber",
          location: "query",
        },
      ],
    });
  });
});

describe("GET /v4/fundingPayments", () => {
  it("gives each position's payment at the funding tick, field by field", async () => {
    const { fundingPayments } = await body<{ fundingPayments: Body[] }>(
      `/v4/fundingPayments?address=${alice}&subaccountNumber=0`,
    );
    expect(fundingPayments).toHaveLength(1);
    const [payment] = fundingPayments as [Body];
    expect(payment).toEqual({
      subaccountNumber: "0",
      createdAt: tick.time.toISOString(),
      createdAtHeight: tick.height.toString(),
      perpetualId: "0",
      ticker: "BTC-USD",
      oraclePrice: "65000",
      size: "0.01",
      side: "LONG",
      // The default 100 ppm per 8 hours as a 1-hour rate.
      rate: "0.0000125",
      payment: expect.stringMatching(/^-\d+\.\d+$/),
      fundingIndex: expect.stringMatching(/^\d+(\.\d+)?$/),
    });
    // The first tick since genesis: the index moved from 0, so the payment is −size × index.
    expect(units(payment.payment as string, 24)).toBe(
      -units("0.01", 2) * units(payment.fundingIndex as string, 22),
    );
    // The indexer's position view settles the same funding from the chain's position index.
    const { positions } = await body<{ positions: Body[] }>(
      `/v4/perpetualPositions?address=${alice}&subaccountNumber=0&status=OPEN`,
    );
    expect(positions[0]?.netFunding).toBe(payment.payment);
    expect(positions[0]?.createdAtHeight).toBe(tradeHeight);
    const bobs = await body<{ fundingPayments: Body[] }>(
      `/v4/fundingPayments?address=${bob}&subaccountNumber=0`,
    );
    expect(bobs.fundingPayments).toEqual([
      { ...payment, size: "-0.01", side: "SHORT", payment: (payment.payment as string).slice(1) },
    ]);
  });

  it("filters by ticker and start time, pages, and shows the parent's children", async () => {
    const base = `/v4/fundingPayments?address=${alice}&subaccountNumber=0`;
    expect(await body(`${base}&ticker=ETH-USD`)).toEqual({ fundingPayments: [] });
    const after = new Date(tick.time.getTime() + 1).toISOString();
    expect(await body(`${base}&createdOnOrAfter=${after}`)).toEqual({ fundingPayments: [] });
    // The upper bounds are validated but not applied, as in the reference.
    const all = await body<{ fundingPayments: Body[] }>(base);
    expect(await body(`${base}&createdBeforeOrAtHeight=1`)).toEqual(all);
    expect(await body(`${base}&page=1&limit=1`)).toEqual({ ...all, pageSize: 1, offset: 0, totalResults: 1 });
    expect(await body(`${base}&page=2&limit=1`)).toEqual({
      fundingPayments: [],
      pageSize: 1,
      offset: 1,
      totalResults: 1,
    });
    // The parent route takes a ticker but does not filter by it.
    const parent = await body(
      `/v4/fundingPayments/parentSubaccount?address=${alice}&parentSubaccountNumber=0&ticker=ETH-USD`,
    );
    expect(parent).toEqual(all);
    expect(await body(`/v4/fundingPayments?address=${alice}&subaccountNumber=5`)).toEqual({
      fundingPayments: [],
    });
  });

  it("refuses bad parameters with the reference's entries", async () => {
    const answer = await getIndexer(
      chain,
      `/v4/fundingPayments?address=${alice}&subaccountNumber=0&ticker=NOPE&showZeroPayments=maybe&createdOnOrAfter=soon`,
    );
    expect(answer.body).toEqual({
      errors: [
        { value: "soon", msg: "Invalid value", param: "createdOnOrAfter", location: "query" },
        {
          value: "NOPE",
          msg: "ticker must be a valid ticker (BTC-USD, etc)",
          param: "ticker",
          location: "query",
        },
        { value: "maybe", msg: "Invalid value", param: "showZeroPayments", location: "query" },
      ],
    });
    const parent = await getIndexer(
      chain,
      `/v4/fundingPayments/parentSubaccount?address=${alice}&parentSubaccountNumber=128`,
    );
    expect(parent.body).toEqual({
      errors: [
        {
          value: "128",
          msg: "parentSubaccountNumber must be a non-negative integer less than 128",
          param: "parentSubaccountNumber",
          location: "query",
        },
      ],
    });
    expect(answer.headers.get("cache-control")).toBe("public, max-age=10");
  });
});

describe("GET /v4/pnl and the parent PnL routes", () => {
  it("gives the hourly tick of a subaccount, per hour and per day", async () => {
    const { historicalPnl } = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl?address=${alice}&subaccountNumber=0`,
    );
    const [latest] = historicalPnl as [Body];
    expect(latest.blockHeight).toBe(tick.height.toString());
    // 10,000 deposited, 100 sent to bob, 30 back, 50 to subaccount 128.
    // pnl_ticks stores big.js toFixed(6) in an unconstrained numeric: six decimals.
    expect(latest.netTransfers).toBe("9880.000000");
    const hour = new Date(Math.floor(tick.time.getTime() / 3_600_000) * 3_600_000).toISOString();
    const { pnl } = await body<{ pnl: Body[] }>(`/v4/pnl?address=${alice}&subaccountNumber=0`);
    // The pnl table's numbers come from update_pnl.sql's sums, not from toFixed(6) text.
    expect(pnl[0]).toEqual({
      equity: decimal(units(latest.equity as string, 6), 6),
      netTransfers: "9880",
      totalPnl: decimal(units(latest.totalPnl as string, 6), 6),
      createdAt: hour,
      createdAtHeight: tick.height.toString(),
    });
    expect(pnl).toHaveLength(historicalPnl.length);
    const day = new Date(Math.floor(tick.time.getTime() / 86_400_000) * 86_400_000).toISOString();
    const daily = await body<{ pnl: Body[] }>(`/v4/pnl?address=${alice}&subaccountNumber=0&daily=true`);
    expect(daily.pnl[0]?.createdAt).toBe(day);
    expect(await body(`/v4/pnl?address=${alice}&subaccountNumber=0&page=1&limit=1`)).toEqual({
      pnl: [pnl[0]],
      pageSize: 1,
      offset: 0,
      totalResults: pnl.length,
    });
  });

  it("sums a parent's children per hour", async () => {
    const child = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl?address=${alice}&subaccountNumber=128`,
    );
    const own = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl?address=${alice}&subaccountNumber=0`,
    );
    const [c, o] = [child.historicalPnl[0] as Body, own.historicalPnl[0] as Body];
    expect(c.netTransfers).toBe("50.000000");
    const sum = (k: string) => decimal(units(c[k] as string, 6) + units(o[k] as string, 6), 6);
    const parent = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=0`,
    );
    expect(parent.historicalPnl[0]).toEqual({
      equity: sum("equity"),
      totalPnl: sum("totalPnl"),
      netTransfers: "9930",
      createdAt: o.createdAt,
      blockHeight: tick.height.toString(),
      blockTime: tick.time.toISOString(),
    });
    const pnl = await body<{ pnl: Body[] }>(
      `/v4/pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=0`,
    );
    expect(pnl.pnl[0]).toMatchObject({
      equity: sum("equity"),
      netTransfers: "9930",
      createdAtHeight: tick.height.toString(),
    });
    const missing = await getIndexer(
      chain,
      `/v4/historical-pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=3`,
    );
    expect(missing).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `No subaccounts found with address ${alice} and parentSubaccountNumber 3` }] },
    });
  });

  it("drops invalid /v4/pnl parameters instead of answering 400, as the reference does", async () => {
    const all = await body(`/v4/pnl?address=${alice}&subaccountNumber=0`);
    expect(await body(`/v4/pnl?address=${alice}&subaccountNumber=0&limit=0&page=x&daily=maybe`)).toEqual(all);
    const badAddress = await getIndexer(chain, "/v4/pnl?address=not!valid&subaccountNumber=0");
    expect(badAddress).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "No subaccount found with address undefined and subaccountNumber 0" }] },
    });
    const noParent = await getIndexer(
      chain,
      `/v4/pnl/parentSubaccountNumber?address=${bob}&parentSubaccountNumber=4`,
    );
    expect(noParent).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `No subaccount found with address ${bob} and parentSubaccountNumber 4` }] },
    });
  });
});

describe("GET /v4/tradeHistory", () => {
  it("opens, then closes and reopens across zero, with fees and realized PnL, for a subaccount and its parent", async () => {
    const base = `/v4/tradeHistory?address=${alice}&subaccountNumber=0`;
    const before = await body<{ tradeHistory: Body[] }>(base);
    const opened = {
      id: expect.stringMatching(new RegExp(`^[0-9a-f-]{36}:${tradeHeight}$`)),
      subaccountNumber: 0,
      action: "OPEN",
      executionPrice: "65000",
      entryPrice: "65000",
      side: "BUY",
      positionSide: "LONG",
      prevSize: "0",
      additionalSize: "0.01",
      value: "650",
      orderType: "LIMIT",
      netFee: "0.325",
      netRealizedPnl: "0",
      netRealizedPnlPercent: null,
      time: expect.any(String),
      orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      marketId: "BTC-USD",
      marginMode: "CROSS",
    };
    expect(before).toEqual({ tradeHistory: [opened], pageSize: 1000, totalResults: 1, offset: 0 });
    // Bob bids 0.03 at $66,000; Alice sells 0.03 into it: her 0.01 long closes, a 0.02 short opens.
    await placeShortTerm(chain, 1, {
      clientId: 3,
      side: "buy",
      quantums: 300_000_000n,
      subticks: 6_600_000_000n,
    });
    await placeShortTerm(chain, 0, {
      clientId: 4,
      side: "sell",
      quantums: 300_000_000n,
      subticks: 6_600_000_000n,
    });
    const [block] = chain.devnet.mine(1);
    const after = await body<{ tradeHistory: Body[]; totalResults: number }>(base);
    const crossing = {
      orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      executionPrice: "66000",
      side: "SELL",
      orderType: "LIMIT",
      time: block?.time.toISOString(),
      subaccountNumber: 0,
      marketId: "BTC-USD",
      marginMode: "CROSS",
    };
    // Taker fee 500 ppm of $1,980 = $0.99, split a third to the close and two thirds to the open.
    expect(after.tradeHistory).toEqual([
      {
        ...crossing,
        id: expect.stringMatching(new RegExp(`:${block?.height}:open$`)),
        action: "OPEN",
        entryPrice: "66000",
        positionSide: "SHORT",
        prevSize: "0",
        additionalSize: "-0.02",
        value: "1320",
        netFee: "0.66",
        netRealizedPnl: "0",
        netRealizedPnlPercent: null,
      },
      {
        ...crossing,
        id: expect.stringMatching(new RegExp(`:${block?.height}:close$`)),
        action: "CLOSE",
        entryPrice: "65000",
        positionSide: null,
        prevSize: "0.01",
        additionalSize: "-0.01",
        value: "660",
        netFee: "0.655",
        netRealizedPnl: "10",
        netRealizedPnlPercent: "0.01538461538461538462",
      },
      opened,
    ]);
    expect(await body(`${base}&page=2&limit=2`)).toEqual({
      tradeHistory: [opened],
      pageSize: 2,
      totalResults: 3,
      offset: 2,
    });
    expect(await body(`${base}&market=ETH-USD&marketType=PERPETUAL`)).toEqual({
      tradeHistory: [],
      pageSize: 1000,
      totalResults: 0,
      offset: 0,
    });
    const parent = await body(
      `/v4/tradeHistory/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=0`,
    );
    expect(parent).toEqual(after);
    const spot = await getIndexer(chain, `${base}&market=BTC-USD&marketType=SPOT`);
    expect(spot).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "BTC-USD not found in markets of type SPOT" }] },
    });
    const bad = await getIndexer(chain, `${base}&marketType=PERP`);
    expect(bad.body).toEqual({
      errors: [
        { msg: "market must be provided if marketType is provided", param: "market", location: "query" },
        {
          value: "PERP",
          msg: "marketType must be a valid market type (PERPETUAL/SPOT)",
          param: "marketType",
          location: "query",
        },
      ],
    });
  });
});

describe("GET /v4/historical-pnl over a second tick", () => {
  it("gives each tick the net transfers since the previous tick, as pnl_ticks stores them", async () => {
    // Past the transfer block that follows the hour's jump (as after an outage), Alice sends 20
    // more to bob; an hour of block time later her second tick is taken.
    chain.devnet.mine(60);
    // An oracle price whose notionals fall between quote quantums: Alice's 0.02 BTC short at
    // $65,000.00003 is worth −$1,300.0000006.
    chain.devnet.app.control.setOraclePrice("BTC-USD", "65000.00003");
    const sent = await deliver(chain, 0, [
      transferMsg({ owner: alice, number: 0 }, { owner: bob, number: 0 }, 20n),
    ]);
    expect(sent.code, sent.log).toBe(0);
    chain.devnet.app.control.advanceTime(3_600_000);
    const second = chain.devnet.mine(1)[0] as BlockRecord;
    const { historicalPnl } = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl?address=${alice}&subaccountNumber=0`,
    );
    const [latest, first] = historicalPnl as [Body, Body];
    expect(latest.blockHeight).toBe(second.height.toString());
    expect(first.blockHeight).toBe(tick.height.toString());
    // roundtable's getUsdcTransfersSinceLastPnlTick: only what moved after the first tick.
    expect(first.netTransfers).toBe("9880.000000");
    expect(latest.netTransfers).toBe("-20.000000");
    // roundtable's calculateEquity: comlink's exact equity, big.js toFixed(6) (half away from zero).
    const { subaccount } = await body<{ subaccount: Body }>(`/v4/addresses/${alice}/subaccountNumber/0`);
    expect(subaccount.latestProcessedBlockHeight).toBe(second.height.toString());
    const exact = new Exact(subaccount.equity as string);
    expect(exact.toFixed()).not.toBe(exact.toFixed(6, "trunc").replace(/\.?0+$/, ""));
    expect(units(latest.equity as string, 6)).toBe(BigInt(exact.toFixed(6, "halfExpand").replace(".", "")));
    // totalPnl is equity less every transfer since genesis (9,860).
    expect(units(latest.totalPnl as string, 6)).toBe(units(latest.equity as string, 6) - 9_860_000_000n);
    const parent = await body<{ historicalPnl: Body[] }>(
      `/v4/historical-pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=0`,
    );
    // Subaccount 128 moved nothing since its first tick.
    expect(parent.historicalPnl[0]?.netTransfers).toBe("-20");
    // The newer pnl table (/v4/pnl) keeps the running total.
    const { pnl } = await body<{ pnl: Body[] }>(`/v4/pnl?address=${alice}&subaccountNumber=0`);
    expect(pnl[0]?.netTransfers).toBe("9860");
  });
});
