/**
 * The client id search finds an order wherever it is among a subaccount's orders, not only among
 * the 100 of highest good-til, over an indexer that lists them as the reference does: highest
 * good-til first (good til a time above good til a block), a good-til bound dropping the orders
 * that lack that field, at most `limit` an answer.
 */
import type { OrderResponseObject } from "@perpx/core/indexer";
import type { GetOrdersParams } from "@perpx/indexer-client";
import { describe, expect, it } from "vitest";
import { clientIdOf, findByClientId } from "../src/app/client-id.js";

const owner = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";

const order = (i: number, goodTil: { block: number } | { time: string }): OrderResponseObject =>
  ({
    id: `order-${i}`,
    subaccountId: "s",
    clientId: String(1000 + i),
    clobPairId: "0",
    side: "BUY",
    size: "0.001",
    totalFilled: "0",
    price: "60000",
    type: "LIMIT",
    status: "OPEN",
    timeInForce: "GTT",
    postOnly: false,
    reduceOnly: false,
    orderFlags: "block" in goodTil ? "0" : "64",
    ...("block" in goodTil ? { goodTilBlock: String(goodTil.block) } : { goodTilBlockTime: goodTil.time }),
    ticker: "BTC-USD",
    subaccountNumber: 0,
  }) as OrderResponseObject;

/** An indexer's `GET /v4/orders` over `orders`, counting its calls. */
function indexerOf(orders: readonly OrderResponseObject[]) {
  const calls: GetOrdersParams[] = [];
  const key = (o: OrderResponseObject) =>
    o.goodTilBlockTime !== undefined ? 1e15 + Date.parse(o.goodTilBlockTime) : Number(o.goodTilBlock);
  const getOrders = async (params: GetOrdersParams) => {
    calls.push(params);
    let list = [...orders];
    if (params.goodTilBlockBeforeOrAt !== undefined)
      list = list.filter(
        (o) =>
          o.goodTilBlock !== undefined && Number(o.goodTilBlock) <= Number(params.goodTilBlockBeforeOrAt),
      );
    if (params.goodTilBlockTimeBeforeOrAt !== undefined)
      list = list.filter(
        (o) =>
          o.goodTilBlockTime !== undefined &&
          Date.parse(o.goodTilBlockTime) <= Date.parse(String(params.goodTilBlockTimeBeforeOrAt)),
      );
    return list.sort((a, b) => key(b) - key(a)).slice(0, params.limit ?? 1000);
  };
  return { getOrders, calls };
}

// 150 long-term orders (good til a time) and 150 short-term ones (good til a block), 300 in all.
const many = [
  ...Array.from({ length: 150 }, (_, i) =>
    order(i, { time: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString() }),
  ),
  ...Array.from({ length: 150 }, (_, i) => order(150 + i, { block: 100 + i })),
];

describe("the client id search", () => {
  it("finds the order of lowest good-til among more than 100", async () => {
    const { getOrders } = indexerOf(many);
    // order-150: good til block 100, the lowest of all.
    const result = await findByClientId(getOrders, { owner, number: 0, clientId: "1150" });
    expect(result.found.map((o) => o.id)).toEqual(["order-150"]);
    expect(result.complete).toBe(true);
    // The long-term order of earliest good-til too.
    expect(
      (await findByClientId(getOrders, { owner, number: 0, clientId: "1000" })).found.map((o) => o.id),
    ).toEqual(["order-0"]);
  });

  it("pages through both kinds of good-til, each order read", async () => {
    const { getOrders, calls } = indexerOf(many);
    const result = await findByClientId(
      getOrders,
      { owner, number: 0, clientId: "1150" },
      { pageSize: 40, maxPages: 50 },
    );
    expect(result.found.map((o) => o.id)).toEqual(["order-150"]);
    expect(result.searched).toBe(300);
    expect(result.complete).toBe(true);
    expect(calls.some((c) => c.goodTilBlockTimeBeforeOrAt !== undefined)).toBe(true);
    expect(calls.some((c) => c.goodTilBlockBeforeOrAt !== undefined)).toBe(true);
  });

  it("says when its page bound kept it from reading every order", async () => {
    const { getOrders, calls } = indexerOf(many);
    const result = await findByClientId(
      getOrders,
      { owner, number: 0, clientId: "1150" },
      { pageSize: 40, maxPages: 3 },
    );
    expect(calls.length).toBe(3);
    expect(result.found).toEqual([]);
    expect(result.complete).toBe(false);
    expect(result.searched).toBeLessThan(300);
  });

  it("steps past a full page of orders sharing one good-til block, and says some were not read", async () => {
    const same = Array.from({ length: 30 }, (_, i) => order(i, { block: 500 }));
    const { getOrders } = indexerOf([...same, order(99, { block: 7 })]);
    const result = await findByClientId(getOrders, { owner, number: 0, clientId: "1099" }, { pageSize: 10 });
    expect(result.found.map((o) => o.id)).toEqual(["order-99"]);
    expect(result.complete).toBe(false);
  });

  it("reads client ids strictly as decimal uint32 digits", () => {
    expect(clientIdOf("16")).toBe(16n);
    expect(clientIdOf("007")).toBe(7n);
    for (const bad of ["0x10", "1.5", "", " 1", "-1", "4294967296", "1e3", 16, null]) {
      expect(clientIdOf(bad), String(bad)).toBeUndefined();
    }
  });
});
