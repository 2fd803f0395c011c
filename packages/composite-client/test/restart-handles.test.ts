/**
 * Order handles reach their end across a devnet killed with SIGKILL and started again on the same
 * ports and state directory: the restarted memclob has lost every short-term order, so a resting
 * one is EXPIRED once the height passes its good-til-block (never RESTING from what the client
 * believed before the restart), and an order that filled before the kill is still FILLED.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, describe, expect, it } from "vitest";
import { CompositeClient, type OrderHandle, type OrderResult } from "../src/index.js";
import { type DevnetChild, killDevnetChildren, startDevnetChild } from "./devnet-child.js";
import { endpointsOf } from "./support.js";

const stateDir = mkdtempSync(join(tmpdir(), "composite-handles-restart-"));
const clients: CompositeClient[] = [];
afterAll(() => {
  for (const client of clients) client.close();
  killDevnetChildren();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Generous: only catches a handle that never ends. */
const HANG_MS = 90_000;
const args = ["--state", stateDir, "--liquidity", "--block-time-ms", "300", "--faucet-window-ms", "0"];

async function connect(
  devnet: DevnetChild,
  liveFeed: boolean,
  subscribeBlocks = false,
): Promise<CompositeClient> {
  const wallet = LocalWallet.generate();
  const funded = await fetch(`${devnet.endpoints.faucet}/faucet/tokens`, {
    method: "POST",
    body: JSON.stringify({ address: wallet.address }),
  });
  expect(funded.ok).toBe(true);
  const client = await CompositeClient.connect({
    network: "local",
    wallet,
    grpcCaCert: devnet.caPem,
    pollIntervalMs: 50,
    liveFeed,
    subscribeBlocks,
    endpoints: endpointsOf(devnet),
  });
  clients.push(client);
  return client;
}

/** The first state a handle reports (waits for it). */
async function firstState(handle: OrderHandle): Promise<OrderResult> {
  for await (const state of handle.updates()) return state;
  throw new Error(`order ${handle.clientId} reported nothing`);
}

/** Waits until a handle reports `status`. */
async function until(handle: OrderHandle, status: OrderResult["status"]): Promise<OrderResult> {
  const seen: string[] = [];
  for await (const state of handle.updates()) {
    if (state.status === status) return state;
    seen.push(`${state.status}/${state.filledSize}`);
  }
  throw new Error(`order ${handle.clientId} never reported ${status}: ${seen.join(", ")}`);
}

/** The middle of a market's book on the indexer (inside the market maker's spread). */
async function midPrice(devnet: DevnetChild, ticker: string): Promise<number> {
  const url = `${devnet.endpoints.indexer}/v4/orderbooks/perpetualMarket/${ticker}`;
  const book = (await (await fetch(url)).json()) as { bids: { price: string }[]; asks: { price: string }[] };
  return (Number(book.bids[0]!.price) + Number(book.asks[0]!.price)) / 2;
}

/** Every state a handle reports from now on, until its final one (each also to `onState`). */
function allStates(handle: OrderHandle, onState?: (state: OrderResult) => void): Promise<OrderResult[]> {
  return (async () => {
    const seen: OrderResult[] = [];
    for await (const state of handle.updates()) {
      onState?.(state);
      seen.push(state);
    }
    return seen;
  })();
}

/**
 * Short-term orders of `client`: three BTC-USD bids at half the oracle price (resting); a bid in
 * the middle of `partly.market`'s book, inside the market maker's spread, of twice `partly.size`,
 * that `seller` hits for `partly.size` (it then rests partly filled), all good for 40 blocks; and
 * a BTC-USD market buy that fills.
 */
async function placeOrders(
  client: CompositeClient,
  seller: CompositeClient,
  devnet: DevnetChild,
  base: number,
  partly: { market: string; size: string; twice: string; decimals: number },
) {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  const far = (Number(btc.oraclePrice) * 0.5).toFixed(0);
  const bid = { side: "BUY", rounding: "down", goodTil: { blocks: 40 } } as const;
  const resting = await Promise.all(
    [0, 1, 2].map((i) =>
      client.placeOrder({ ...bid, market: "BTC-USD", size: "0.001", price: far, clientId: base + i }),
    ),
  );
  const inside = (await midPrice(devnet, partly.market)).toFixed(partly.decimals);
  const partial = await client.placeOrder({
    ...bid,
    market: partly.market,
    size: partly.twice,
    price: inside,
    clientId: base + 5,
  });
  const sold = await seller.placeOrder({
    market: partly.market,
    side: "SELL",
    size: partly.size,
    price: inside,
    rounding: "down",
    timeInForce: "IOC",
  });
  expect((await sold.result({ timeoutMs: HANG_MS })).status).toBe("FILLED");
  const filled = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.001",
    slippage: "5%",
    clientId: base + 10,
  });
  return { resting, partial, filled };
}

describe("order handles across a devnet kill -9 and restart (--state)", () => {
  it("short-term handles end EXPIRED past their good-til-block, never RESTING on a lost memclob; fills stay FILLED", async () => {
    let devnet = await startDevnetChild(args);
    const onFeed = await connect(devnet, true);
    const onNode = await connect(devnet, false);
    const seller = await connect(devnet, false);
    // The node alone, its height from a block subscription over the node's WebSocket.
    const onBlocks = await connect(devnet, false, true);
    // Each client's partly filled bid on its own market, so each sale hits its own.
    const eth = { market: "ETH-USD", size: "0.01", twice: "0.02", decimals: 1 };
    const btcPartly = { market: "BTC-USD", size: "0.001", twice: "0.002", decimals: 0 };
    const feedOrders = await placeOrders(onFeed, seller, devnet, 810_000, eth);
    const nodeOrders = await placeOrders(onNode, seller, devnet, 820_000, btcPartly);
    const btcNow = await onBlocks.getMarket({ ticker: "BTC-USD" });
    const subscribed = await Promise.all(
      [0, 1].map((i) =>
        onBlocks.placeOrder({
          market: "BTC-USD",
          side: "BUY",
          size: "0.001",
          price: (Number(btcNow.oraclePrice) * 0.5).toFixed(0),
          rounding: "down",
          clientId: 840_000 + i,
          goodTil: { blocks: 40 },
        }),
      ),
    );
    // Before the kill: the feed shows the bids resting, the inside bids filled 0.001 of 0.002, and
    // both market orders filled.
    for (const handle of feedOrders.resting) expect((await firstState(handle)).status).toBe("RESTING");
    for (const [{ partial, filled }, sold] of [
      [feedOrders, "0.01"],
      [nodeOrders, "0.001"],
    ] as const) {
      expect((await until(partial, "PARTIALLY_FILLED")).filledSize).toBe(sold);
      expect((await filled.result({ timeoutMs: HANG_MS })).status).toBe("FILLED");
    }
    // A long-term bid good for 5 s: in state, it survives the restart, and expires by the chain's time.
    const btc = await onFeed.getMarket({ ticker: "BTC-USD" });
    const longTerm = await onFeed.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: (Number(btc.oraclePrice) * 0.5).toFixed(0),
      rounding: "down",
      clientId: 810_020,
      goodTil: { seconds: 5 },
    });
    expect((await firstState(longTerm)).status).toBe("RESTING");
    // Each short-term order's good-til-block, as the indexer has it.
    const goodTil = new Map<number, bigint>();
    for (const client of [onFeed, onNode, onBlocks]) {
      const url = `${devnet.endpoints.indexer}/v4/orders?address=${client.subaccount.owner}&subaccountNumber=0&limit=1000`;
      const orders = (await (await fetch(url)).json()) as { clientId: string; goodTilBlock?: string }[];
      for (const o of orders) if (o.goodTilBlock) goodTil.set(Number(o.clientId), BigInt(o.goodTilBlock));
    }
    // A handle followed through the kill and the restart.
    const through = allStates(feedOrders.resting[0]!);
    await devnet.kill();
    // The process is gone; the client learns it when its feed's socket closes (an event of its
    // own, which may come after the exit's): until then its account view is still the live one.
    await expect.poll(() => onFeed.context.feed?.subaccount?.subscription.state).not.toBe("live");
    // Asked while the devnet is down (and the client knows it): nothing held is confirmed, so
    // nothing may say RESTING before the restarted devnet (node or indexer) does.
    let restarted = false;
    const heldBeforeRestart: number[] = [];
    const watch = (handle: OrderHandle) =>
      allStates(handle, (state) => {
        if (!restarted && (state.status === "RESTING" || !state.final))
          heldBeforeRestart.push(handle.clientId);
      });
    const whileDown = [...feedOrders.resting, ...nodeOrders.resting].map(watch);
    const partlyWhileDown = [feedOrders.partial, nodeOrders.partial].map(watch);
    const longWhileDown = watch(longTerm);
    await new Promise(setImmediate); // what the handles make of their state so far is in
    restarted = true;
    devnet = await startDevnetChild(args, devnet.portFlags);
    const resting = [
      ...feedOrders.resting.map((handle) => ({ handle, client: onFeed })),
      ...nodeOrders.resting.map((handle) => ({ handle, client: onNode })),
      ...subscribed.map((handle) => ({ handle, client: onBlocks })),
    ];
    const results = await Promise.all(
      resting.map(async ({ handle, client }) => {
        const result = await handle.result({ timeoutMs: HANG_MS });
        return { result, height: client.height() };
      }),
    );
    for (const [i, { result, height }] of results.entries()) {
      const { handle } = resting[i]!;
      expect({ clientId: handle.clientId, status: result.status, reason: result.reason }).toEqual({
        clientId: handle.clientId,
        status: "EXPIRED",
        reason: "expired",
      });
      expect(result.final).toBe(true);
      expect(result.filledSize).toBe("0");
      // Declared once the chain's height reached its good-til-block (the restart kept the height).
      expect(height).toBeGreaterThanOrEqual(goodTil.get(handle.clientId)!);
    }
    for (const states of await Promise.all(whileDown)) {
      expect(states.map((s) => s.status)).toEqual(["EXPIRED"]);
    }
    for (const [i, states] of (await Promise.all(partlyWhileDown)).entries()) {
      const sold = i === 0 ? "0.01" : "0.001";
      expect(states.every((s) => s.status === "PARTIALLY_FILLED" && s.filledSize === sold)).toBe(true);
      expect(states.at(-1)?.final).toBe(true);
    }
    expect((await through).map((s) => s.status)).toEqual(["RESTING", "EXPIRED"]);
    // The long-term bid: EXPIRED by the chain's time (whether the feed saw it or not).
    const longStates = await longWhileDown;
    expect(longStates.at(-1)).toMatchObject({ status: "EXPIRED", final: true, filledSize: "0" });
    expect((await longTerm.result({ timeoutMs: HANG_MS })).status).toBe("EXPIRED");
    // Nothing said an order was held (or anything but final) before the devnet was back.
    expect(heldBeforeRestart).toEqual([]);
    // Filled before the kill: still FILLED when asked after the restart; partly filled, then
    // expired: PARTIALLY_FILLED, final.
    for (const [{ partial, filled }, sold] of [
      [feedOrders, "0.01"],
      [nodeOrders, "0.001"],
    ] as const) {
      const full = await filled.result({ timeoutMs: HANG_MS });
      expect([full.status, full.final, full.filledSize]).toEqual(["FILLED", true, "0.001"]);
      const part = await partial.result({ timeoutMs: HANG_MS });
      expect([part.status, part.final, part.filledSize, part.reason]).toEqual([
        "PARTIALLY_FILLED",
        true,
        sold,
        "expired",
      ]);
    }
  }, 300_000);
});
