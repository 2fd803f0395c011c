/**
 * The indexer's account routes over REST, after signed deposits, short-term orders matched at
 * CheckTx and settled by the next block, and an oracle move: subaccounts with equity and free
 * collateral, positions with entry price and PnL, orders in their statuses, fills, transfers, and
 * the reference's error bodies. Expected figures follow the chain's margin math by hand, at the
 * genesis's liquidity tier; realized PnL is the real indexer's (closing PnL minus every order
 * fill's fee, funding apart), and each fill carries the position it found.
 */
import { Exact } from "@perpx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { usdc } from "../src/indexer/format.js";
import {
  BTC_PRICE_SUBTICKS,
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  signerAddresses,
  startFundedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let bob: string;

beforeAll(async () => {
  chain = await startFundedChain([10_000_000_000n, 10_000_000_000n]);
  [alice, bob] = signerAddresses(chain);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

type Body = Record<string, unknown>;

/** BTC-USD's initial margin fraction in the genesis (ppm). */
const IMF_PPM = BigInt(
  perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers[DEFAULT_MARKETS[0]?.liquidityTier ?? -1]
    ?.initialMarginPpm ?? 0,
);
/** The initial margin of `notional` quote quantums. */
const initialOf = (notional: bigint) => (notional * IMF_PPM) / 1_000_000n;
/** Decimal USDC text as quote quantums. */
const quantumsOf = (text: string) => {
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  return text.startsWith("-") ? -value : value;
};

describe("indexer REST: accounts", () => {
  it("shows a funded subaccount, its deposit, and refuses bad parameters with the reference's bodies", async () => {
    const { status, body } = await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/0`);
    expect(status).toBe(200);
    expect((body as { subaccount: Body }).subaccount).toEqual({
      address: alice,
      subaccountNumber: 0,
      equity: "10000",
      freeCollateral: "10000",
      openPerpetualPositions: {},
      assetPositions: {
        USDC: { symbol: "USDC", side: "LONG", size: "10000", assetId: "0", subaccountNumber: 0 },
      },
      marginEnabled: true,
      updatedAtHeight: expect.any(String),
      latestProcessedBlockHeight: chain.devnet.app.latestBlock().height.toString(),
    });
    const transfers = (await getIndexer(chain, `/v4/transfers?address=${alice}&subaccountNumber=0`)).body as {
      transfers: Body[];
    };
    expect(transfers.transfers).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sender: { address: alice },
        recipient: { address: alice, subaccountNumber: 0 },
        size: "10000",
        createdAt: expect.any(String),
        createdAtHeight: expect.any(String),
        symbol: "USDC",
        type: "DEPOSIT",
        transactionHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      },
    ]);
    expect(await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/128001`)).toMatchObject({
      status: 400,
      body: {
        errors: [
          {
            value: "128001",
            msg: "subaccountNumber must be a non-negative integer less than 128001",
            param: "subaccountNumber",
            location: "params",
          },
        ],
      },
    });
    expect(await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/7`)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `No subaccount found with address ${alice} and subaccountNumber 7` }] },
    });
    expect((await getIndexer(chain, "/v4/perpetualPositions?address=bad!&subaccountNumber=x")).body).toEqual({
      errors: [
        { value: "bad!", msg: "address must be a valid dydx address", param: "address", location: "query" },
        {
          value: "x",
          msg: "subaccountNumber must be a non-negative integer less than 128001",
          param: "subaccountNumber",
          location: "query",
        },
      ],
    });
    expect(await getIndexer(chain, "/v4/addresses/perpx1nobody")).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "No subaccounts found for address perpx1nobody" }] },
    });
    expect((await getIndexer(chain, "/v4/orders/not-a-uuid")).body).toEqual({
      errors: [{ value: "not-a-uuid", msg: "Invalid value", param: "orderId", location: "params" }],
    });
    const missing = "00000000-0000-5000-8000-000000000000";
    expect(await getIndexer(chain, `/v4/orders/${missing}`)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `Unable to find order id ${missing}` }] },
    });
  });

  it("books a fill: positions, USDC, equity and free collateral at the oracle price, fills and orders", async () => {
    await placeShortTerm(chain, 1, {
      clientId: 1,
      side: "sell",
      quantums: 200_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    const resting = (await getIndexer(chain, `/v4/orders?address=${bob}&subaccountNumber=0`)).body as Body[];
    expect(resting).toMatchObject([
      { status: "BEST_EFFORT_OPENED", size: "0.02", totalFilled: "0", price: "65000", side: "SELL" },
    ]);
    await placeShortTerm(chain, 0, {
      clientId: 2,
      side: "buy",
      quantums: 100_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    const [block] = chain.devnet.mine(1);
    const height = block?.height.toString();
    // Alice paid $650 and a 500 ppm taker fee ($0.325); her 0.01 BTC is worth $650 at the tier's IMF.
    const sub = (
      (await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/0`)).body as { subaccount: Body }
    ).subaccount;
    expect(sub).toMatchObject({
      equity: "9999.675",
      freeCollateral: usdc(9_999_675_000n - initialOf(650_000_000n)),
      updatedAtHeight: height,
    });
    expect(sub.assetPositions).toEqual({
      USDC: { symbol: "USDC", side: "LONG", size: "9349.675", assetId: "0", subaccountNumber: 0 },
    });
    expect(sub.openPerpetualPositions).toEqual({
      "BTC-USD": {
        market: "BTC-USD",
        status: "OPEN",
        side: "LONG",
        size: "0.01",
        maxSize: "0.01",
        entryPrice: "65000",
        exitPrice: null,
        realizedPnl: "-0.325", // the opening fill's fee
        unrealizedPnl: "0",
        createdAt: block?.time.toISOString(),
        createdAtHeight: height,
        closedAt: null,
        sumOpen: "0.01",
        sumClose: "0",
        netFunding: "0",
        subaccountNumber: 0,
      },
    });
    const fills = (
      (await getIndexer(chain, `/v4/fills?address=${alice}&subaccountNumber=0`)).body as { fills: Body[] }
    ).fills;
    expect(fills).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        side: "BUY",
        liquidity: "TAKER",
        type: "LIMIT",
        market: "BTC-USD",
        marketType: "PERPETUAL",
        price: "65000",
        size: "0.01",
        fee: "0.325",
        affiliateRevShare: "0",
        createdAt: block?.time.toISOString(),
        createdAtHeight: height,
        orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        clientMetadata: "0",
        subaccountNumber: 0,
        // The fill's subaccount update opened the position first (size 0 to the fill, entry 0):
        // no entry price, the new side.
        positionSizeBefore: "0",
        positionSideBefore: "LONG",
      },
    ]);
    const bobFills = (
      (await getIndexer(chain, `/v4/fills?address=${bob}&subaccountNumber=0`)).body as { fills: Body[] }
    ).fills;
    expect(bobFills).toMatchObject([{ side: "SELL", liquidity: "MAKER", fee: "-0.0715" }]);
    const aliceOrders = (await getIndexer(chain, `/v4/orders?address=${alice}&subaccountNumber=0`))
      .body as Body[];
    expect(aliceOrders).toMatchObject([
      { status: "FILLED", totalFilled: "0.01", clientId: "2", orderFlags: "0", ticker: "BTC-USD" },
    ]);
    expect((await getIndexer(chain, `/v4/orders/${aliceOrders[0]?.id}`)).body).toEqual(aliceOrders[0]);
    expect(fills[0]?.orderId).toBe(aliceOrders[0]?.id);
    const bobOrders = (await getIndexer(chain, `/v4/orders?address=${bob}&subaccountNumber=0&status=OPEN`))
      .body as Body[];
    expect(bobOrders).toMatchObject([{ status: "OPEN", totalFilled: "0.01", size: "0.02" }]);
    const shorts = (
      (await getIndexer(chain, `/v4/perpetualPositions?address=${bob}&subaccountNumber=0`)).body as {
        positions: Body[];
      }
    ).positions;
    expect(shorts).toMatchObject([{ side: "SHORT", size: "-0.01", entryPrice: "65000", status: "OPEN" }]);
  });

  it("values positions at the new oracle price, and closes them with realized PnL", async () => {
    // A price whose notional has digits below a quote quantum (0.01 × 66000.00003 = 660.0000003).
    chain.devnet.app.control.setOraclePrice("BTC-USD", "66000.00003");
    chain.devnet.mine(1);
    const oracle = (
      (await getIndexer(chain, "/v4/perpetualMarkets?ticker=BTC-USD")).body as {
        markets: Record<string, { oraclePrice: string }>;
      }
    ).markets["BTC-USD"]?.oraclePrice as string;
    const imf = Exact.fromUnits(IMF_PPM, 6);
    // comlink's calculateEquityAndFreeCollateral and getUnrealizedPnl, exact: nothing rounded.
    for (const who of [alice, bob]) {
      const sub = (
        (await getIndexer(chain, `/v4/addresses/${who}/subaccountNumber/0`)).body as { subaccount: Body }
      ).subaccount;
      const usdcSize = (sub.assetPositions as Record<string, { size: string; side: string }>).USDC;
      const position = (sub.openPerpetualPositions as Record<string, Body>)["BTC-USD"] as Body;
      const notional = new Exact(position.size as string).times(oracle);
      const balance = new Exact(usdcSize?.size ?? "0").times(usdcSize?.side === "SHORT" ? -1 : 1);
      const equity = balance.plus(notional);
      expect(sub).toMatchObject({
        equity: equity.toString(),
        freeCollateral: equity.minus(notional.abs().times(imf)).toString(),
      });
      expect(position.unrealizedPnl).toBe(
        new Exact(position.size as string)
          .times(new Exact(oracle).minus(position.entryPrice as string))
          .toString(),
      );
    }
    const aliceSub = (
      (await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/0`)).body as { subaccount: Body }
    ).subaccount;
    // The figures by hand: 9349.675 + 660.0000003, less 660.0000003 × the initial margin fraction.
    expect(aliceSub.equity).toBe("10009.6750003");
    expect((aliceSub.openPerpetualPositions as Record<string, Body>)["BTC-USD"]?.unrealizedPnl).toBe(
      "10.0000003",
    );
    // Bob bids 65500 to buy back his short; alice sells her 0.01 BTC into it: she realizes $5.
    await placeShortTerm(chain, 1, {
      clientId: 3,
      side: "buy",
      quantums: 100_000_000n,
      subticks: 6_550_000_000n,
    });
    await placeShortTerm(chain, 0, {
      clientId: 4,
      side: "sell",
      quantums: 100_000_000n,
      subticks: 6_550_000_000n,
    });
    chain.devnet.mine(1);
    const aliceFills = (
      (await getIndexer(chain, `/v4/fills?address=${alice}&subaccountNumber=0`)).body as { fills: Body[] }
    ).fills;
    // The closing fill found the 0.01 BTC long opened at $65,000; bob's, his short.
    expect(aliceFills[0]).toMatchObject({
      side: "SELL",
      price: "65500",
      positionSizeBefore: "0.01",
      entryPriceBefore: "65000",
      positionSideBefore: "LONG",
    });
    const bobClose = (
      (await getIndexer(chain, `/v4/fills?address=${bob}&subaccountNumber=0`)).body as { fills: Body[] }
    ).fills[0];
    expect(bobClose).toMatchObject({
      side: "BUY",
      positionSizeBefore: "0.01",
      entryPriceBefore: "65000",
      positionSideBefore: "SHORT",
    });
    // Realized: (65,500 - 65,000) × 0.01 = $5, minus both fills' fees.
    const fees = aliceFills.reduce((sum, f) => sum + quantumsOf(f.fee as string), 0n);
    const positions = (
      (await getIndexer(chain, `/v4/perpetualPositions?address=${alice}&subaccountNumber=0`)).body as {
        positions: Body[];
      }
    ).positions;
    expect(positions).toMatchObject([
      {
        status: "CLOSED",
        side: "LONG",
        size: "0",
        sumOpen: "0.01",
        sumClose: "0.01",
        entryPrice: "65000",
        exitPrice: "65500",
        realizedPnl: usdc(5_000_000n - fees),
        unrealizedPnl: "0",
      },
    ]);
    expect(positions[0]?.closedAt).toEqual(expect.any(String));
    const open = await getIndexer(
      chain,
      `/v4/perpetualPositions?address=${alice}&subaccountNumber=0&status=OPEN`,
    );
    expect((open.body as { positions: Body[] }).positions).toEqual([]);
    const sub2 = (
      (await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/0`)).body as { subaccount: Body }
    ).subaccount;
    expect(sub2.openPerpetualPositions).toEqual({});
  });

  it("ticks historical PnL at the first block of every hour: equity, net transfers, total PnL", async () => {
    const path = `/v4/historical-pnl?address=${alice}&subaccountNumber=0`;
    expect((await getIndexer(chain, path)).body).toEqual({ historicalPnl: [] });
    chain.devnet.app.control.advanceTime(3_600_000);
    const [block] = chain.devnet.mine(1);
    const sub = (
      (await getIndexer(chain, `/v4/addresses/${alice}/subaccountNumber/0`)).body as { subaccount: Body }
    ).subaccount;
    // roundtable writes big.js toFixed(6) into an unconstrained numeric: six decimals, always.
    const equity = new Exact(sub.equity as string).toFixed(6, "halfExpand");
    const hour = Math.floor((block?.time.getTime() ?? 0) / 3_600_000) * 3_600_000;
    expect((await getIndexer(chain, path)).body).toEqual({
      historicalPnl: [
        {
          equity,
          totalPnl: "4.347500",
          netTransfers: "10000.000000",
          createdAt: new Date(hour).toISOString(),
          blockHeight: block?.height.toString(),
          blockTime: block?.time.toISOString(),
        },
      ],
    });
    const paged = (await getIndexer(chain, `${path}&page=1&limit=1`)).body as Body;
    expect(paged).toMatchObject({ pageSize: 1, offset: 0, totalResults: 1 });
    expect(await getIndexer(chain, `/v4/historical-pnl?address=${alice}&subaccountNumber=3`)).toMatchObject({
      status: 404,
    });
  });
});
