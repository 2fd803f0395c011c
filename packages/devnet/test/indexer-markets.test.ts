/**
 * The indexer's market data over its REST port, fed only by the devnet's block and order streams:
 * perpetual markets, the order book (short-term orders placed at CheckTx), trades and candles from
 * the fills of the next block, height, and the reference's error bodies and headers.
 */
import { Exact } from "@perpx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { ppm } from "../src/indexer/format.js";
import {
  BTC_PRICE_SUBTICKS,
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  startFundedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;

beforeAll(async () => {
  chain = await startFundedChain([10_000_000_000n, 10_000_000_000n]);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

type Body = Record<string, unknown>;

describe("indexer REST: markets", () => {
  it("lists the genesis perpetual markets with their parameters, keyed by ticker", async () => {
    const { status, body, headers } = await getIndexer(chain, "/v4/perpetualMarkets");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("public, max-age=1");
    expect(headers.get("access-control-allow-origin")).toBe("*");
    const markets = (body as { markets: Record<string, Body> }).markets;
    expect(Object.keys(markets)).toEqual(["BTC-USD", "ETH-USD", "SOL-USD"]);
    // BTC-USD's liquidity tier in the genesis: IMF, and MMF = IMF × the maintenance fraction.
    const btcTier =
      perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers[DEFAULT_MARKETS[0]?.liquidityTier ?? -1];
    const imf = BigInt(btcTier?.initialMarginPpm ?? 0);
    const mmf = (imf * BigInt(btcTier?.maintenanceFractionPpm ?? 0)) / 1_000_000n;
    expect(markets["BTC-USD"]).toEqual({
      clobPairId: "0",
      ticker: "BTC-USD",
      status: "ACTIVE",
      oraclePrice: "65000",
      priceChange24H: expect.any(String),
      volume24H: expect.any(String),
      trades24H: expect.any(Number),
      nextFundingRate: expect.any(String),
      initialMarginFraction: ppm(imf),
      maintenanceMarginFraction: ppm(mmf),
      openInterest: expect.any(String),
      atomicResolution: -10,
      quantumConversionExponent: -9,
      tickSize: "1",
      stepSize: "0.0001",
      stepBaseQuantums: 1_000_000,
      subticksPerTick: 100_000,
      marketType: "CROSS",
      openInterestLowerCap: "0",
      openInterestUpperCap: "0",
      baseOpenInterest: expect.any(String),
      defaultFundingRate1H: "0.0000125",
    });
  });

  it("answers one market by ticker or by market, and refuses both or an unknown one", async () => {
    const one = await getIndexer(chain, "/v4/perpetualMarkets?ticker=ETH-USD");
    expect(Object.keys((one.body as { markets: Body }).markets)).toEqual(["ETH-USD"]);
    const alias = await getIndexer(chain, "/v4/perpetualMarkets?market=SOL-USD");
    expect(Object.keys((alias.body as { markets: Body }).markets)).toEqual(["SOL-USD"]);
    const both = await getIndexer(chain, "/v4/perpetualMarkets?ticker=ETH-USD&market=SOL-USD");
    expect(both).toMatchObject({
      status: 400,
      body: { errors: [{ msg: "Only one of ticker or market may be provided" }] },
    });
    const unknown = await getIndexer(chain, "/v4/perpetualMarkets?ticker=NOPE-USD");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      errors: [
        {
          value: "NOPE-USD",
          msg: "ticker must be a valid ticker (BTC-USD, etc)",
          param: "ticker",
          location: "query",
        },
      ],
    });
  });

  it("validates limit with the reference's message and value", async () => {
    for (const [raw, value] of [
      ["0", 0],
      ["1001", 1001],
      ["abc", null],
      ["1.5", 1.5],
    ] as const) {
      const { status, body } = await getIndexer(chain, `/v4/perpetualMarkets?limit=${raw}`);
      expect(status).toBe(400);
      expect(body).toEqual({
        errors: [
          {
            value,
            msg: "limit must be a positive integer that is not greater than max: 1000",
            param: "limit",
            location: "query",
          },
        ],
      });
    }
    const two = await getIndexer(chain, "/v4/perpetualMarkets?limit=2");
    expect(Object.keys((two.body as { markets: Body }).markets)).toEqual(["BTC-USD", "ETH-USD"]);
  });

  it("answers unknown routes and methods with the reference's 404 body, and /health", async () => {
    expect(await getIndexer(chain, "/v4/nope")).toMatchObject({
      status: 404,
      body: { error: "Not Found", errorCode: 404 },
    });
    const post = await fetch(`${chain.devnet.endpoints.indexer}/v4/perpetualMarkets`, { method: "POST" });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ error: "Not Found", errorCode: 404 });
    expect(await getIndexer(chain, "/health")).toMatchObject({ status: 200, body: { ok: true } });
    expect(await getIndexer(chain, "/v4/screen?address=perpx1abc")).toMatchObject({
      status: 200,
      body: { restricted: false },
    });
    expect(await getIndexer(chain, "/v4/compliance/screen/perpx1abc")).toMatchObject({
      status: 200,
      body: { status: "COMPLIANT" },
    });
    const time = await getIndexer(chain, "/v4/time");
    expect(time.headers.get("cache-control")).toBe("no-cache");
    expect(typeof (time.body as { epoch: number }).epoch).toBe("number");
  });

  it("reports the latest block's height and time", async () => {
    const latest = chain.devnet.app.latestBlock();
    expect((await getIndexer(chain, "/v4/height")).body).toEqual({
      height: latest.height.toString(),
      time: latest.time.toISOString(),
    });
  });
});

describe("indexer REST: book, trades, candles", () => {
  it("shows a resting short-term order at CheckTx, then its fill as a trade and candles after the block", async () => {
    await placeShortTerm(chain, 1, {
      clientId: 7,
      side: "sell",
      quantums: 20_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    await placeShortTerm(chain, 1, {
      clientId: 8,
      side: "sell",
      quantums: 10_000_000n,
      subticks: BTC_PRICE_SUBTICKS + 100_000n,
    });
    await placeShortTerm(chain, 0, {
      clientId: 9,
      side: "buy",
      quantums: 5_000_000n,
      subticks: BTC_PRICE_SUBTICKS - 200_000n,
    });
    expect((await getIndexer(chain, "/v4/orderbooks/perpetualMarket/BTC-USD")).body).toEqual({
      bids: [{ price: "64998", size: "0.0005" }],
      asks: [
        { price: "65000", size: "0.002" },
        { price: "65001", size: "0.001" },
      ],
    });
    // roundtable samples the book's mid every 10 s; the candle takes the sampled median.
    chain.devnet.app.control.advanceTime(10_000);
    chain.devnet.mine(1);
    await placeShortTerm(chain, 0, {
      clientId: 10,
      side: "buy",
      quantums: 5_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    expect((await getIndexer(chain, "/v4/orderbooks/perpetualMarket/BTC-USD")).body).toMatchObject({
      asks: [
        { price: "65000", size: "0.0015" },
        { price: "65001", size: "0.001" },
      ],
    });
    const [block] = chain.devnet.mine(1);
    const trades = (await getIndexer(chain, "/v4/trades/perpetualMarket/BTC-USD")).body as { trades: Body[] };
    expect(trades.trades).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        side: "BUY",
        size: "0.0005",
        price: "65000",
        type: "LIMIT",
        createdAt: block?.time.toISOString(),
        createdAtHeight: block?.height.toString(),
      },
    ]);
    const candles = (await getIndexer(chain, "/v4/candles/perpetualMarkets/BTC-USD?resolution=1MIN"))
      .body as {
      candles: Body[];
    };
    expect(candles.candles).toHaveLength(1);
    expect(candles.candles[0]).toMatchObject({
      ticker: "BTC-USD",
      resolution: "1MIN",
      open: "65000",
      high: "65000",
      low: "65000",
      close: "65000",
      baseTokenVolume: "0.0005",
      usdVolume: "32.5",
      trades: 1,
      orderbookMidPriceOpen: "64999",
      // ender reads the open longs committed before the block: none before the market's first trade.
      startingOpenInterest: "0",
    });
    const market = (await getIndexer(chain, "/v4/perpetualMarkets?ticker=BTC-USD")).body as {
      markets: Record<string, Body>;
    };
    expect(market.markets["BTC-USD"]).toMatchObject({
      trades24H: 1,
      volume24H: "32.5",
      openInterest: "0.0005",
    });
  });

  it("candles carry the sampled median mid: open and close at creation, the close again when the period ends", async () => {
    type Candle = {
      startedAt: string;
      orderbookMidPriceOpen: string | null;
      orderbookMidPriceClose: string | null;
    };
    const candles = async () =>
      (
        (await getIndexer(chain, "/v4/candles/perpetualMarkets/BTC-USD?resolution=1MIN")).body as {
          candles: Candle[];
        }
      ).candles;
    const bookMid = async () => {
      const book = (await getIndexer(chain, "/v4/orderbooks/perpetualMarket/BTC-USD")).body as {
        bids: { price: string }[];
        asks: { price: string }[];
      };
      return new Exact(book.bids[0]?.price ?? "NaN")
        .plus(book.asks[0]?.price ?? "NaN")
        .times("0.5")
        .toString();
    };
    // Let the earlier short-term orders expire: an empty book.
    chain.devnet.mine(11);
    expect((await getIndexer(chain, "/v4/orderbooks/perpetualMarket/BTC-USD")).body).toEqual({
      bids: [],
      asks: [],
    });
    await placeShortTerm(chain, 1, {
      clientId: 41,
      side: "sell",
      quantums: 2_000_000n,
      subticks: 6_501_000_000n,
    });
    await placeShortTerm(chain, 0, {
      clientId: 42,
      side: "buy",
      quantums: 1_000_000n,
      subticks: 6_499_000_000n,
    });
    const first = await bookMid();
    // A minute on (older samples leave the 60 s window), the block samples this book.
    chain.devnet.app.control.advanceTime(60_000);
    chain.devnet.mine(1);
    // The taker takes the whole ask: the book is one-sided, the sampled median stays.
    await placeShortTerm(chain, 0, {
      clientId: 43,
      side: "buy",
      quantums: 2_000_000n,
      subticks: 6_501_000_000n,
    });
    expect(
      ((await getIndexer(chain, "/v4/orderbooks/perpetualMarket/BTC-USD")).body as { asks: [] }).asks,
    ).toEqual([]);
    chain.devnet.mine(1);
    const [live] = await candles();
    expect(live).toMatchObject({ orderbookMidPriceOpen: first, orderbookMidPriceClose: first });
    // A new ask, a minute on: the period ends with the new median as the old candle's close and the
    // new candle's open and close.
    await placeShortTerm(chain, 1, {
      clientId: 44,
      side: "sell",
      quantums: 1_000_000n,
      subticks: 6_502_000_000n,
    });
    const second = await bookMid();
    chain.devnet.app.control.advanceTime(60_000);
    chain.devnet.mine(1);
    const [next, previous] = await candles();
    expect(previous).toMatchObject({
      startedAt: live?.startedAt,
      orderbookMidPriceOpen: first,
      orderbookMidPriceClose: second,
    });
    expect(next).toMatchObject({ orderbookMidPriceOpen: second, orderbookMidPriceClose: second });
    expect(new Exact(first).equals(second)).toBe(false);
  });

  it("answers the reference's errors for unknown tickers and bad candle parameters", async () => {
    expect(await getIndexer(chain, "/v4/orderbooks/perpetualMarket/NOPE")).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "NOPE not found in markets of type PERPETUAL" }] },
    });
    expect((await getIndexer(chain, "/v4/trades/perpetualMarket/NOPE")).body).toEqual({
      errors: [
        {
          value: "NOPE",
          msg: "ticker must be a valid ticker (BTC-USD, etc)",
          param: "ticker",
          location: "params",
        },
      ],
    });
    const message =
      "resolution must be a valid Candle Resolution, one of 1MIN,5MINS,15MINS,30MINS,1HOUR,4HOURS,1DAY";
    expect((await getIndexer(chain, "/v4/candles/perpetualMarkets/BTC-USD")).body).toEqual({
      errors: [
        { msg: message, param: "resolution", location: "query" },
        { msg: message, param: "resolution", location: "query" },
      ],
    });
    expect(
      (await getIndexer(chain, "/v4/candles/perpetualMarkets/BTC-USD?resolution=2MINS&fromISO=yesterday"))
        .body,
    ).toEqual({
      errors: [
        { value: "2MINS", msg: message, param: "resolution", location: "query" },
        { value: "yesterday", msg: "Invalid value", param: "fromISO", location: "query" },
      ],
    });
  });
});
