/**
 * The order view and the account lists read the integers they are given strictly, as the chain and
 * the indexer write them (decimal digits): hex is not read as a number, a fraction does not throw
 * the page, and a bad value is shown as bad.
 */
import type { PerpetualMarketResponseObject } from "@perpx/core/indexer";
import { describe, expect, it } from "vitest";
import { type OrderRow, ordersOf, unsignedOf } from "../src/app/orders.js";
import { newestFirst } from "../src/app/pages/account.js";

const btc = {
  ticker: "BTC-USD",
  clobPairId: "0",
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000,
  subticksPerTick: 100_000,
} as PerpetualMarketResponseObject;
const markets = { "BTC-USD": btc };
const place = (quantums: unknown, subticks: unknown) =>
  ordersOf(
    "/perpx.clob.v1.MsgPlaceOrder",
    {
      order: {
        order_id: { subaccount_id: { owner: "perpx1x", number: 0 }, client_id: 7, clob_pair_id: 0 },
        side: "SIDE_BUY",
        quantums,
        subticks,
      },
    },
    markets,
  )[0] as OrderRow;

describe("the order view", () => {
  it("reads quantums and subticks as decimal digits", () => {
    expect(place("10000000", "6000000000")).toMatchObject({ size: "0.001 BTC", price: "60000 USD" });
  });

  it("shows hex, fractions, signs and blanks as bad, without throwing", () => {
    expect(place("0x10", "6000000000").size).toBe('bad quantums "0x10"');
    expect(place("1.5", "6000000000").size).toBe('bad quantums "1.5"');
    expect(place("", "6000000000").size).toBe('bad quantums ""');
    expect(place("10000000", "-1").price).toBe('bad subticks "-1"');
    expect(place("10000000", { evil: 1 }).price).toBe('bad subticks {"evil":1}');
    for (const value of ["0x10", "1.5", " 1", "1e3", -1, 1.5]) {
      expect(unsignedOf(value), String(value)).toBeUndefined();
    }
  });
});

describe("the account's merged histories", () => {
  it("sort by height read as digits, a bad height last, without throwing", () => {
    const at = (createdAtHeight: string, id: string) => ({
      id,
      createdAtHeight,
      createdAt: "2026-01-01T00:00:00Z",
    });
    const sorted = newestFirst([at("9", "a"), at("1.5", "bad"), at("0x10", "hex"), at("12", "b")]);
    expect(sorted.map((e) => e.id).slice(0, 2)).toEqual(["b", "a"]);
    expect(
      sorted
        .slice(2)
        .map((e) => e.id)
        .sort(),
    ).toEqual(["bad", "hex"]);
  });
});
