/**
 * The indexer's 400 bodies for the query parameters whose texts come from the reference's comlink
 * validators (`market`, `status`, `side`, `type`, `timePeriod`, `marketType`, the fill and order
 * type lists, the order id's UUID rule, the goodTilBlock pair), byte for byte: each entry's
 * `value`, `msg`, `param` and `location`, in the order the reference's validator chains run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIndexer, type IndexedChain, signerAddresses, startFundedChain } from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;

beforeAll(async () => {
  chain = await startFundedChain([1_000_000_000n]);
  [alice] = signerAddresses(chain);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

const ORDER_TYPES =
  "LIMIT,MARKET,STOP_LIMIT,STOP_MARKET,TRAILING_STOP,TAKE_PROFIT,TAKE_PROFIT_MARKET,TWAP,TWAP_SUBORDER";
const ORDER_STATUSES = "OPEN,FILLED,CANCELED,BEST_EFFORT_CANCELED,UNTRIGGERED,ERROR,BEST_EFFORT_OPENED";
const FILL_TYPES = "LIMIT,LIQUIDATED,LIQUIDATION,DELEVERAGED,OFFSETTING,TWAP_SUBORDER";

async function errorsOf(path: string): Promise<unknown> {
  const { status, body } = await getIndexer(chain, path);
  expect(status, path).toBe(400);
  return (body as { errors: unknown }).errors;
}

describe("indexer REST: the reference's validation texts", () => {
  it("checks `market` on /perpetualMarkets with the ticker rule's message", async () => {
    expect(await errorsOf("/v4/perpetualMarkets?market=NOPE-USD")).toEqual([
      {
        value: "NOPE-USD",
        msg: "ticker must be a valid ticker (BTC-USD, etc)",
        param: "market",
        location: "query",
      },
    ]);
    const both = await getIndexer(chain, "/v4/perpetualMarkets?market=BTC-USD&ticker=BTC-USD");
    expect(both).toMatchObject({
      status: 400,
      body: { errors: [{ msg: "Only one of ticker or market may be provided" }] },
    });
    const one = await getIndexer(chain, "/v4/perpetualMarkets?market=ETH-USD");
    expect(Object.keys((one.body as { markets: object }).markets)).toEqual(["ETH-USD"]);
  });

  it("answers a bad `timePeriod` (or none) on /sparklines", async () => {
    const msg = "timePeriod must be a valid Time Period, one of ONE_DAY,SEVEN_DAYS";
    expect(await errorsOf("/v4/sparklines?timePeriod=ONE_WEEK")).toEqual([
      { value: "ONE_WEEK", msg, param: "timePeriod", location: "query" },
    ]);
    expect(await errorsOf("/v4/sparklines")).toEqual([{ msg, param: "timePeriod", location: "query" }]);
  });

  it("answers bad `side`, `type`, `status` and type lists on /orders, in the reference's order", async () => {
    const base = `/v4/orders?address=${alice}&subaccountNumber=0`;
    expect(await errorsOf(`${base}&side=buy&type=LIMITED&status=OPEN,NOPE&includeTypes=limit,x`)).toEqual([
      { value: "buy", msg: "side must be one of BUY,SELL", param: "side", location: "query" },
      { value: "LIMITED", msg: `type must be one of ${ORDER_TYPES}`, param: "type", location: "query" },
      {
        value: ["OPEN", "NOPE"],
        msg: `status must be one of ${ORDER_STATUSES}`,
        param: "status",
        location: "query",
      },
      {
        value: ["LIMIT", "X"],
        msg: `includeTypes must be one of ${ORDER_TYPES}`,
        param: "includeTypes",
        location: "query",
      },
    ]);
    // Repeated keys are upper-cased each and not split; a lone value is split at commas, untrimmed.
    expect(await errorsOf(`${base}&status=open,filled&status=CANCELED`)).toEqual([
      {
        value: ["OPEN,FILLED", "CANCELED"],
        msg: `status must be one of ${ORDER_STATUSES}`,
        param: "status",
        location: "query",
      },
    ]);
    expect(await errorsOf(`${base}&excludeTypes=LIMIT,%20MARKET`)).toEqual([
      {
        value: ["LIMIT", " MARKET"],
        msg: `excludeTypes must be one of ${ORDER_TYPES}`,
        param: "excludeTypes",
        location: "query",
      },
    ]);
    const fine = await getIndexer(chain, `${base}&status=open&status=filled&side=BUY&type=LIMIT`);
    expect(fine).toMatchObject({ status: 200, body: [] });
  });

  it("answers the goodTilBlock pair and the bounds' bare rules on /orders", async () => {
    const base = `/v4/orders?address=${alice}&subaccountNumber=0`;
    expect(await errorsOf(`${base}&goodTilBlock=5&goodTilBlockTime=2026-01-01T00:00:00Z`)).toEqual([
      {
        value: "5",
        msg: "Cannot provide both goodTilBlock and goodTilBlockTime",
        param: "goodTilBlock",
        location: "query",
      },
    ]);
    expect(await errorsOf(`${base}&goodTilBlockBeforeOrAt=0&returnLatestOrders=yes`)).toEqual([
      { value: "0", msg: "Invalid value", param: "goodTilBlockBeforeOrAt", location: "query" },
      { value: "yes", msg: "Invalid value", param: "returnLatestOrders", location: "query" },
    ]);
  });

  it("answers a bad position `status` with the Position Status message", async () => {
    expect(
      await errorsOf(`/v4/perpetualPositions?address=${alice}&subaccountNumber=0&status=OPEN,GONE`),
    ).toEqual([
      {
        value: ["OPEN", "GONE"],
        msg: "status must be a valid Position Status (OPEN, etc)",
        param: "status",
        location: "query",
      },
    ]);
  });

  it("answers `market` without `marketType` (and back), a bad `marketType` and bad fill types on /fills", async () => {
    const base = `/v4/fills?address=${alice}&subaccountNumber=0`;
    expect(await errorsOf(`${base}&market=BTC-USD`)).toEqual([
      { msg: "marketType must be provided if market is provided", param: "marketType", location: "query" },
    ]);
    expect(await errorsOf(`${base}&marketType=FUTURES`)).toEqual([
      { msg: "market must be provided if marketType is provided", param: "market", location: "query" },
      {
        value: "FUTURES",
        msg: "marketType must be a valid market type (PERPETUAL/SPOT)",
        param: "marketType",
        location: "query",
      },
    ]);
    expect(await errorsOf(`${base}&includeTypes=LIMIT&excludeTypes=MAKER`)).toEqual([
      {
        value: ["MAKER"],
        msg: `excludeTypes must be one of ${FILL_TYPES}`,
        param: "excludeTypes",
        location: "query",
      },
    ]);
    const unknown = await getIndexer(chain, `${base}&market=NOPE-USD&marketType=PERPETUAL`);
    expect(unknown).toEqual({
      status: 404,
      body: { errors: [{ msg: "NOPE-USD not found in markets of type PERPETUAL" }] },
      headers: expect.anything(),
    });
  });

  it("refuses an order id that is not a UUID with the bare `Invalid value`", async () => {
    for (const id of [
      "not-a-uuid",
      "0123456789abcdef0123456789abcdef",
      "g1234567-89ab-cdef-0123-456789abcdef",
    ]) {
      expect(await errorsOf(`/v4/orders/${id}`)).toEqual([
        { value: id, msg: "Invalid value", param: "orderId", location: "params" },
      ]);
    }
    const missing = await getIndexer(chain, "/v4/orders/01234567-89AB-cdef-0123-456789abcdef");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      errors: [{ msg: "Unable to find order id 01234567-89AB-cdef-0123-456789abcdef" }],
    });
  });
});
