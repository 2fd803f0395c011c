/**
 * `connectTimeoutMs` bounds the whole start-up of the live feed, the first snapshots included: an
 * indexer that accepts the socket and the subscribes but never sends a snapshot (or sends only
 * some) ends `startLiveFeed` with a `TimeoutError` naming the channels still waiting, and the
 * socket is closed with no timer or TCP handle left (before, the wait had no end and
 * `CompositeClient.connect` hung on it).
 */
import { isTimeoutError } from "@perpx/errors";
import type { NodeClient } from "@perpx/node-client";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type FakeIndexer, startFakeIndexer } from "../../indexer-client/test/support/fake-indexer.js";
import { activeResources, expectNoLeaks } from "../../indexer-client/test/support/leaks.js";
import { startLiveFeed } from "../src/feed.js";
import { type HeightTracker, startHeightTracker } from "../src/height.js";
import { createMarketCache, type MarketCache } from "../src/markets.js";

const node = {
  getMarket: async ({ ticker }: { ticker: string }) => ({ ticker }),
  getLatestBlock: async () => ({ height: 1n, time: new Date(0) }),
} as unknown as NodeClient;

let fake: FakeIndexer;
let height: HeightTracker;
let markets: MarketCache;

/** The channels the client subscribed to. */
const asked: string[] = [];

/** Lets the fake answer only the subscribes to `answered` channels; the others get nothing. */
function answerOnly(answered: string[]): void {
  const inner = fake as unknown as { receive(conn: unknown, text: string): void };
  const receive = inner.receive.bind(fake);
  inner.receive = (conn, text) => {
    const { type, channel } = JSON.parse(text) as { type?: string; channel?: string };
    if (type === "subscribe") asked.push(channel ?? "");
    if (type === "subscribe" && !answered.includes(channel ?? "")) return;
    receive(conn, text);
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

beforeEach(async () => {
  asked.length = 0;
  fake = await startFakeIndexer();
  height = await startHeightTracker({ node, pollIntervalMs: 60_000 });
  markets = createMarketCache({ node, refreshIntervalMs: 0 });
});

afterEach(async () => {
  height.stop();
  markets.stop();
  await fake.stop();
});

it.each([
  { answered: [], missing: ["v4_block_height", "v4_markets", "v4_subaccounts perpx1owner/0"] },
  { answered: ["v4_block_height"], missing: ["v4_markets", "v4_subaccounts perpx1owner/0"] },
])(
  "an indexer that answers only $answered ends the start-up with a TimeoutError naming what did not arrive, nothing left open",
  async ({ answered, missing }) => {
    answerOnly(answered);
    const baseline = activeResources();
    const error = await startLiveFeed({
      url: fake.url,
      height,
      markets,
      subaccount: { owner: "perpx1owner", number: 0 },
      connectTimeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    const { operation, timeoutMs } = error as { operation: string; timeoutMs: number };
    expect(timeoutMs).toBe(200);
    for (const channel of missing) expect(operation).toContain(channel);
    for (const channel of answered) expect(operation).not.toContain(channel);
    expect(asked.sort()).toEqual(["v4_block_height", "v4_markets", "v4_subaccounts"]);
    await until(() => fake.conns.size === 0);
    await expectNoLeaks(baseline);
  },
);
