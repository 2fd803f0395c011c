import { describe, expect, it } from "vitest";
import type { IndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { periodStart, rewardAmount, TradingRewardsModel } from "./trading-rewards.js";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Saturday 2026-11-28, 23:58:10 UTC: two minutes before a day ends, two days before a week does. */
const T0 = Date.parse("2026-11-28T23:58:10Z");

function at(model: TradingRewardsModel, height: bigint, timeMs: number, events: IndexerEvent[] = []): void {
  events.forEach((event, eventIndex) => {
    model.apply({ height, time: new Date(timeMs), eventIndex, event });
  });
  model.block(height, new Date(timeMs));
}

const reward = (owner: string, amount: bigint): IndexerEvent => ({
  kind: "trading_reward",
  rewards: [{ owner, amount }],
});

describe("trading rewards model", () => {
  it("prints amounts with the reference column's 18 decimals", () => {
    expect(rewardAmount(0n)).toBe("0.000000000000000000");
    expect(rewardAmount(1n)).toBe("0.000000000000000001");
    expect(rewardAmount(12_345_000_000_000_000_000n)).toBe("12.345000000000000000");
  });

  it("starts periods on UTC days, Mondays and the first of the month", () => {
    const sunday = Date.parse("2026-11-29T12:00:00Z");
    expect(new Date(periodStart("WEEKLY", sunday)).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    const monday = Date.parse("2026-11-30T00:00:00Z");
    expect(periodStart("WEEKLY", monday)).toBe(monday);
    expect(new Date(periodStart("MONTHLY", Date.parse("2026-12-31T23:59:59Z"))).toISOString()).toBe(
      "2026-12-01T00:00:00.000Z",
    );
  });

  it("aggregates a block's rewards once the latest block's minute is past them, and closes a day at its end", () => {
    const model = new TradingRewardsModel();
    at(model, 10n, T0 - MINUTE);
    at(model, 11n, T0, [reward("a", 5n)]);
    at(model, 12n, T0 + 20_000, [reward("a", 7n), reward("b", 1n)]);
    // 23:58:30: the minute started at 23:58:00, and both rewards are in it.
    expect(model.aggregationsOf("a", "DAILY")).toEqual([]);
    at(model, 13n, T0 + MINUTE);
    const [daily] = model.aggregationsOf("a", "DAILY");
    expect(daily).toEqual({
      address: "a",
      period: "DAILY",
      startedAt: new Date(Math.floor(T0 / DAY) * DAY),
      startedAtHeight: 10n,
      amount: 12n,
    });
    expect(model.aggregationsOf("b", "WEEKLY")[0]?.amount).toBe(1n);
    // A block in the next day ends the day for every row, at the block before it.
    const nextDay = Math.floor(T0 / DAY) * DAY + DAY;
    at(model, 14n, nextDay + 5_000, [reward("a", 3n)]);
    expect(model.aggregationsOf("a", "DAILY")[0]).toMatchObject({
      endedAt: new Date(nextDay),
      endedAtHeight: 13n,
      amount: 12n,
    });
    expect(model.aggregationsOf("b", "DAILY")[0]).toMatchObject({ endedAtHeight: 13n });
    // The week goes on (it ends on Monday); the new day's reward waits for its minute to pass.
    expect(model.aggregationsOf("a", "WEEKLY")[0]).not.toHaveProperty("endedAt");
    at(model, 15n, nextDay + MINUTE);
    expect(model.aggregationsOf("a", "DAILY").map((row) => [row.startedAtHeight, row.amount])).toEqual([
      [14n, 3n],
      [10n, 12n],
    ]);
    expect(model.aggregationsOf("a", "WEEKLY")[0]?.amount).toBe(15n);
  });

  it("knows a wallet once a transfer paid it or left it, and totals its rewards", () => {
    const model = new TradingRewardsModel();
    expect(model.totalOf("a")).toBe("0");
    at(model, 2n, T0, [
      {
        kind: "transfer",
        sender: { owner: "a" },
        recipient: { owner: "a", number: 0 },
        assetId: 0,
        quantums: 1n,
      },
      {
        kind: "transfer",
        sender: { owner: "c", number: 0 },
        recipient: { owner: "d", number: 1 },
        assetId: 0,
        quantums: 1n,
      },
    ]);
    expect(model.totalOf("a")).toBe("0.000000000000000000");
    expect(model.totalOf("c")).toBe("0");
    expect(model.totalOf("d")).toBe("0.000000000000000000");
    at(model, 3n, T0 + 1_000, [reward("a", 2n), reward("e", 3n)]);
    at(model, 4n, T0 + 2_000, [reward("a", 2n)]);
    expect(model.totalOf("a")).toBe("0.000000000000000004");
    expect(model.totalOf("e")).toBe("0.000000000000000003");
    expect(model.blockRewards("a").map((r) => r.height)).toEqual([4n, 3n]);
    model.prune(4n);
    expect(model.blockRewards("a").map((r) => r.height)).toEqual([4n]);
    expect(model.blockRewards("e")).toEqual([]);
    expect(model.totalOf("a")).toBe("0.000000000000000004");
  });
});
