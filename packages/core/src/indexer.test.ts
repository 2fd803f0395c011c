/**
 * The indexer contract's runtime parts: the enumeration arrays, the channel tables, and the
 * subscription id builders and parsers (unit and fast-check round trips).
 */
import { isInvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CANDLE_RESOLUTION_SECONDS,
  CANDLE_RESOLUTIONS,
  type CandleResolution,
  candlesChannelId,
  INDEXER_CHANNEL_SUBSCRIPTION_LIMITS,
  INDEXER_CHANNEL_VERSIONS,
  INDEXER_CHANNELS,
  INDEXER_LIMIT_MAX,
  MAX_PARENT_SUBACCOUNT_NUMBER,
  MAX_SUBACCOUNT_NUMBER,
  ORDER_STATUSES,
  parentSubaccountChannelId,
  parseCandlesChannelId,
  parseParentSubaccountChannelId,
  parseSubaccountChannelId,
  subaccountChannelId,
} from "./indexer.js";

const ADDRESS = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
const address = fc.stringMatching(/^[a-zA-Z0-9]{1,90}$/);
const ticker = fc.stringMatching(/^[A-Z0-9]{1,8}-[A-Z]{1,5}$/);
const resolution = fc.constantFrom(...CANDLE_RESOLUTIONS);

function thrownArgument(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isInvalidArgumentError(error) ? error.argument : `not an InvalidArgumentError: ${String(error)}`;
  }
  return undefined;
}

describe("indexer contract tables", () => {
  it("lists the seven channels with a version and a cap each", () => {
    expect([...INDEXER_CHANNELS].sort()).toEqual(
      [
        "v4_block_height",
        "v4_candles",
        "v4_markets",
        "v4_orderbook",
        "v4_parent_subaccounts",
        "v4_subaccounts",
        "v4_trades",
      ].sort(),
    );
    expect(Object.keys(INDEXER_CHANNEL_VERSIONS).sort()).toEqual([...INDEXER_CHANNELS].sort());
    expect(Object.keys(INDEXER_CHANNEL_SUBSCRIPTION_LIMITS).sort()).toEqual([...INDEXER_CHANNELS].sort());
    expect(INDEXER_CHANNEL_VERSIONS.v4_trades).toBe("2.1.0");
    expect(INDEXER_CHANNEL_VERSIONS.v4_parent_subaccounts).toBe("3.0.0");
    expect(INDEXER_CHANNEL_SUBSCRIPTION_LIMITS.v4_subaccounts).toBe(256);
    expect(INDEXER_CHANNEL_SUBSCRIPTION_LIMITS.v4_block_height).toBe(1);
  });

  it("has the reference's bounds and enumerations", () => {
    expect(INDEXER_LIMIT_MAX).toBe(1000);
    expect(MAX_SUBACCOUNT_NUMBER).toBe(128_000);
    expect(MAX_PARENT_SUBACCOUNT_NUMBER).toBe(127);
    expect(ORDER_STATUSES).toContain("BEST_EFFORT_OPENED");
    expect(CANDLE_RESOLUTIONS.map((r) => CANDLE_RESOLUTION_SECONDS[r])).toEqual([
      60, 300, 900, 1800, 3600, 14_400, 86_400,
    ]);
  });
});

describe("subscription ids", () => {
  it("builds and parses subaccount ids", () => {
    expect(subaccountChannelId(ADDRESS, 0)).toBe(`${ADDRESS}/0`);
    expect(subaccountChannelId(ADDRESS, 127_999)).toBe(`${ADDRESS}/127999`);
    expect(parseSubaccountChannelId(`${ADDRESS}/128`)).toEqual({ address: ADDRESS, subaccountNumber: 128 });
    expect(parentSubaccountChannelId(ADDRESS, 127)).toBe(`${ADDRESS}/127`);
    expect(parseParentSubaccountChannelId(`${ADDRESS}/127`)).toEqual({
      address: ADDRESS,
      subaccountNumber: 127,
    });
  });

  it("rejects bad subaccount ids with a typed error naming the argument", () => {
    expect(thrownArgument(() => subaccountChannelId(ADDRESS, 128_000))).toBe("subaccountNumber");
    expect(thrownArgument(() => subaccountChannelId(ADDRESS, -1))).toBe("subaccountNumber");
    expect(thrownArgument(() => subaccountChannelId(ADDRESS, 1.5))).toBe("subaccountNumber");
    expect(thrownArgument(() => subaccountChannelId("perpx1/x", 0))).toBe("address");
    expect(thrownArgument(() => subaccountChannelId("", 0))).toBe("address");
    expect(thrownArgument(() => parentSubaccountChannelId(ADDRESS, 128))).toBe("parentSubaccountNumber");
  });

  it("parses only well-formed subaccount ids", () => {
    for (const bad of [
      `${ADDRESS}/128000`,
      `${ADDRESS}/01`,
      `${ADDRESS}/-1`,
      `${ADDRESS}/1.0`,
      `${ADDRESS}/`,
      `/0`,
      `${ADDRESS}`,
      `${ADDRESS}/0/1`,
      `perpx-1/0`,
    ]) {
      expect(parseSubaccountChannelId(bad), bad).toBeUndefined();
    }
    expect(parseParentSubaccountChannelId(`${ADDRESS}/128`)).toBeUndefined();
  });

  it("builds and parses candle ids", () => {
    expect(candlesChannelId("BTC-USD", "1MIN")).toBe("BTC-USD/1MIN");
    expect(parseCandlesChannelId("ETH-USD/4HOURS")).toEqual({ ticker: "ETH-USD", resolution: "4HOURS" });
    expect(parseCandlesChannelId("ETH-USD/2MINS")).toBeUndefined();
    expect(parseCandlesChannelId("/1MIN")).toBeUndefined();
    expect(parseCandlesChannelId("ETH-USD")).toBeUndefined();
    expect(parseCandlesChannelId("A/B/1MIN")).toBeUndefined();
    expect(thrownArgument(() => candlesChannelId("", "1MIN"))).toBe("ticker");
    expect(thrownArgument(() => candlesChannelId("BTC-USD", "2MINS" as CandleResolution))).toBe("resolution");
  });

  it("round-trips every valid subaccount id", () => {
    fc.assert(
      fc.property(address, fc.integer({ min: 0, max: 127_999 }), (owner, n) => {
        expect(parseSubaccountChannelId(subaccountChannelId(owner, n))).toEqual({
          address: owner,
          subaccountNumber: n,
        });
      }),
    );
  });

  it("round-trips every valid parent and candle id", () => {
    fc.assert(
      fc.property(address, fc.integer({ min: 0, max: 127 }), ticker, resolution, (owner, p, t, r) => {
        expect(parseParentSubaccountChannelId(parentSubaccountChannelId(owner, p))).toEqual({
          address: owner,
          subaccountNumber: p,
        });
        expect(parseCandlesChannelId(candlesChannelId(t, r))).toEqual({ ticker: t, resolution: r });
      }),
    );
  });

  it("never parses a number outside the range, whatever the text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseSubaccountChannelId(text);
        if (parsed === undefined) return;
        expect(parsed.subaccountNumber).toBeLessThan(128_000);
        expect(`${parsed.address}/${parsed.subaccountNumber}`).toBe(text);
      }),
    );
  });
});
