/**
 * A MARKET order is sent with the worst price its checks took: the oracle the checks read (the
 * indexer's) moved by the slippage, onto the tick inside the bound. The composite client's market
 * cache (the node's oracle, refreshed apart from the checks' read) is not asked for another one:
 * here the node answers the oracle from before a move (a cache made stale on purpose), and the
 * order the chain sees still carries the checked price.
 */

import { Exact } from "@perpx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, useMcpNet } from "./support.js";

const net = useMcpNet();

/** Posts to the devnet's control API. */
async function control(path: string, body: unknown) {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Makes the node answer every oracle-price query with what it answered before `freeze()` (the same
 * query, the same answer), until `thaw()`: a node (or a cache of it) lagging the indexer.
 */
function staleOraclePrices() {
  type Query = (path: string, data: Uint8Array, height?: bigint) => unknown;
  const app = net.devnet.app as unknown as { query: Query };
  const original = app.query;
  const seen = new Map<string, unknown>();
  let frozen = false;
  app.query = function (this: unknown, path, data, height) {
    const key = `${path}/${Buffer.from(data).toString("hex")}/${height ?? ""}`;
    const prices = path.startsWith("/perpx.prices.");
    if (prices && frozen && seen.has(key)) return seen.get(key);
    const answer = original.call(this, path, data, height);
    if (prices && !frozen) seen.set(key, answer);
    return answer;
  };
  return {
    freeze: () => {
      frozen = true;
    },
    restore: () => {
      app.query = original;
    },
  };
}

describe("a MARKET order's worst price", () => {
  let stale: ReturnType<typeof staleOraclePrices>;
  beforeAll(async () => {
    await control("/devnet/prices/walk", { enabled: false });
    stale = staleOraclePrices();
  });
  afterAll(() => stale?.restore());

  it("is the price its checks took, even when the client's market cache lags the indexer's oracle", async () => {
    const account = await net.account();
    const client = await net.connect(account.credential);
    const oracleNow = async () =>
      new Exact((await call(client, "get_market", { ticker: "BTC-USD" })).market.oraclePrice);
    const before = (await oracleNow()).toFixed(0, "floor");
    await control("/devnet/prices", { market: "BTC-USD", price: before, mine: true });
    await expect.poll(async () => (await oracleNow()).toFixed()).toBe(before);
    // The server's market cache reads the node's oracle now (a preview loads and refreshes it).
    const sell = { ticker: "BTC-USD", side: "SELL", type: "MARKET", size: "0.001", slippageBps: 50 };
    expect((await call(client, "place_order", { ...sell, dryRun: true })).dryRun).toBe(true);
    // The node keeps answering that oracle; the indexer's moves 2% down.
    stale.freeze();
    const after = new Exact(before).times("0.98").toFixed(0, "floor");
    await control("/devnet/prices", { market: "BTC-USD", price: after, mine: true });
    await expect.poll(async () => (await oracleNow()).toFixed()).toBe(after);

    const placed = await call(client, "place_order", { ...sell, clientId: 31 });
    const checked = new Exact(placed.order.price);
    // Checked against the indexer's oracle: at most 50 bps under it, on the tick.
    expect(placed.risk.markPrice).toBe(after);
    expect(checked.lessThanOrEqualTo(after)).toBe(true);
    expect(new Exact(after).minus(checked).times(10_000).lessThanOrEqualTo(new Exact(after).times(50))).toBe(
      true,
    );
    // The chain got exactly that worst price, not one from the node's older oracle.
    const { order } = await call(client, "get_order", { ticker: "BTC-USD", clientId: 31 });
    expect(order.price).toBe(placed.order.price);
    expect(order.timeInForce).toBe("IOC");
  });
});
