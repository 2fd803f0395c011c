/**
 * The shadow's trade replay against a live indexer that sends garbage `v4_trades` frames: each
 * trade is judged against the fork's own market (side, price on the tick, size on the step and
 * within the open interest, at most 1000 trades a frame) before it touches the fork's book; a bad
 * one is refused and counted, never replayed, and the feed keeps following.
 */
import { type ClobPairParams, priceToSubticks, subticksToPrice } from "@perpx/core";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { isIndexerFrameError } from "@perpx/indexer-client/ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fork, startFork, startShadow } from "../src/index.js";
import { injectLive, TamperWebSocket } from "./support/tamper-socket.js";

let live: Devnet;
let fork: Fork;
let grid: ClobPairParams;
const errors: unknown[] = [];

beforeAll(async () => {
  live = await startDevnet({ ports: "free", blockTimeMs: 0 });
  fork = await startFork({
    from: "local",
    endpoints: live.endpoints,
    ports: "free",
    blockTimeMs: 0,
    WebSocket: TamperWebSocket,
    onError: (error) => errors.push(error),
  });
  grid = fork.state.markets.find((m) => m.pair === "BTC-USD") as ClobPairParams;
});

afterAll(async () => {
  await fork?.stop();
  await live?.stop();
});

const trades = (market: string, list: ReadonlyArray<Record<string, unknown>>) =>
  injectLive({
    type: "channel_data",
    connection_id: "tampered",
    channel: "v4_trades",
    id: market,
    version: "2.1.0",
    contents: { trades: list },
  });
const openInterest = (market: string, size: string) =>
  injectLive({
    type: "channel_data",
    connection_id: "tampered",
    channel: "v4_markets",
    version: "1.0.0",
    contents: { trading: { [market]: { ticker: market, openInterest: size } } },
  });
const trade = (fields: Record<string, unknown>) => ({
  id: "0a",
  side: "SELL",
  size: "0.001",
  price: "60000",
  type: "LIMIT",
  createdAt: new Date().toISOString(),
  ...fields,
});
const status = () => fork.shadow?.status();

describe("live trades replayed on a fork", () => {
  it("refuses bad trades by name, replays none of them, and keeps following", async () => {
    const mirror = fork.devnet.mirror!;
    // A resting bid on the fork's book that any sell at or under 60000 goes through.
    mirror.setBook("BTC-USD", { bids: [{ price: "60000", size: "1" }], asks: [] });
    openInterest("BTC-USD", "10");
    const tick = BigInt(grid.subticksPerTick);
    const offTick = subticksToPrice(priceToSubticks("59000", grid) + tick / 2n, grid);
    const before = status()!;
    trades("BTC-USD", [
      trade({ size: "-0.001" }),
      trade({ size: "0" }),
      trade({ price: "0" }),
      trade({ price: "-60000" }),
      trade({ price: "6e4" }),
      trade({ price: offTick }),
      trade({ size: "0.00000000001" }),
      trade({ side: "HOLD" }),
      trade({ side: "buy" }),
      trade({ size: "1000000" }),
    ]);
    // 1001 trades in one frame: more than the reference indexer sends in one.
    trades(
      "BTC-USD",
      Array.from({ length: 1001 }, () => trade({})),
    );
    // Nine refused at once; the size beyond the open interest waits for the next report.
    await expect.poll(() => status()?.tradeRefusals).toBe(before.tradeRefusals + 9 + 1001);
    expect(status()?.tradeThroughs).toBe(before.tradeThroughs);
    expect(mirror.resting("BTC-USD").bids).toEqual([{ price: "60000", size: "1" }]);
    expect(status()?.state).toBe("following");
    const refusals = errors.filter(isIndexerFrameError).map((e) => e.path);
    expect(refusals).toEqual(
      expect.arrayContaining([
        "trades[0].size",
        "trades[1].size",
        "trades[2].price",
        "trades[3].price",
        "trades[4].price",
        "trades[5].price",
        "trades[6].size",
        "trades[7].side",
        "trades[8].side",
        "trades[1000]",
      ]),
    );
    // The size beyond the open interest is refused by the next report (over the interest before and after).
    openInterest("BTC-USD", "10");
    await expect.poll(() => status()?.tradeRefusals).toBe(before.tradeRefusals + 9 + 1001 + 1);
    expect(mirror.resting("BTC-USD").bids).toEqual([{ price: "60000", size: "1" }]);
    // A good trade through the bid still goes through it.
    trades("BTC-USD", [trade({ price: "60000", size: "0.5" })]);
    await expect.poll(() => status()?.tradeThroughs).toBe(before.tradeThroughs + 1);
    expect(mirror.resting("BTC-USD").bids).toEqual([]);
  });

  it("replays a trade larger than the open interest it found once the interest it opened is reported", async () => {
    const mirror = fork.devnet.mirror!;
    mirror.setBook("BTC-USD", { bids: [{ price: "60000", size: "1" }], asks: [] });
    openInterest("BTC-USD", "0");
    const before = status()!;
    // A first trade opens 0.5 on a market that held nothing: it waits for the new open interest.
    trades("BTC-USD", [trade({ size: "0.5" })]);
    openInterest("BTC-USD", "0.5");
    await expect.poll(() => status()?.tradeThroughs).toBe(before.tradeThroughs + 1);
    expect(status()?.tradeRefusals).toBe(before.tradeRefusals);
  });
});

describe("a live market the fork does not hold", () => {
  it("refuses its trades", async () => {
    // A live network with a fourth market; the copy has three.
    const wide = await startDevnet({ ports: "free", blockTimeMs: 0, markets: 4 });
    const copy = await startDevnet({ ports: "free", blockTimeMs: 0, markets: 3, mirror: true });
    try {
      const extra = (await (await fetch(`${wide.endpoints.indexer}/v4/perpetualMarkets`)).json()) as {
        markets: Record<string, unknown>;
      };
      const tickers = Object.keys(extra.markets);
      const onCopy = Object.keys(
        (
          (await (await fetch(`${copy.endpoints.indexer}/v4/perpetualMarkets`)).json()) as {
            markets: Record<string, unknown>;
          }
        ).markets,
      );
      const missing = tickers.find((t) => !onCopy.includes(t)) as string;
      expect(missing).toBeDefined();
      const refused: unknown[] = [];
      const shadow = await startShadow({
        devnet: copy,
        indexerWs: wide.endpoints.indexerWs,
        markets: tickers,
        WebSocket: TamperWebSocket,
        onError: (error) => refused.push(error),
      });
      try {
        trades(missing, [trade({ price: "1", size: "1" })]);
        await expect.poll(() => shadow.status().tradeRefusals).toBe(1);
        expect(shadow.status().tradeThroughs).toBe(0);
        expect(refused.filter(isIndexerFrameError).map((e) => e.message)).toEqual([
          expect.stringContaining("a market the fork does not hold"),
        ]);
      } finally {
        await shadow.stop();
      }
    } finally {
      await Promise.all([wide.stop(), copy.stop()]);
    }
  });
});
