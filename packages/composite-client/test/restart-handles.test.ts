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

const stateDir = mkdtempSync(join(tmpdir(), "composite-handles-restart-"));
const clients: CompositeClient[] = [];
afterAll(() => {
  for (const client of clients) client.close();
  killDevnetChildren();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Generous: only catches a handle that never ends. */
const HANG_MS = 90_000;
const args = ["--state", stateDir, "--liquidity", "--block-time-ms", "200", "--faucet-window-ms", "0"];

async function connect(devnet: DevnetChild, liveFeed: boolean): Promise<CompositeClient> {
  const wallet = LocalWallet.generate();
  const funded = await fetch(`${devnet.endpoints.faucet}/faucet/tokens`, {
    method: "POST",
    body: JSON.stringify({ address: wallet.address }),
  });
  expect(funded.ok).toBe(true);
  const { endpoints } = devnet;
  const client = await CompositeClient.connect({
    network: "local",
    wallet,
    grpcCaCert: devnet.caPem,
    pollIntervalMs: 50,
    liveFeed,
    endpoints: {
      nodeRpc: endpoints.nodeRpc,
      nodeRest: endpoints.nodeRest,
      grpc: endpoints.grpcTls,
      faucet: endpoints.faucet,
      indexer: endpoints.indexer,
      indexerWs: endpoints.indexerWs,
    },
  });
  clients.push(client);
  return client;
}

/** The first state a handle reports (waits for it). */
async function firstState(handle: OrderHandle): Promise<OrderResult> {
  for await (const state of handle.updates()) return state;
  throw new Error(`order ${handle.clientId} reported nothing`);
}

/** Every state a handle reports from now on, until its final one. */
function allStates(handle: OrderHandle): Promise<OrderResult[]> {
  return (async () => {
    const seen: OrderResult[] = [];
    for await (const state of handle.updates()) seen.push(state);
    return seen;
  })();
}

/** Resting short-term orders (a bid at half the oracle price, 40 blocks) and one that fills. */
async function placeOrders(client: CompositeClient, base: number) {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
  const resting = await Promise.all(
    [0, 1, 2].map((i) =>
      client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "0.001",
        price,
        rounding: "down",
        clientId: base + i,
        goodTil: { blocks: 40 },
      }),
    ),
  );
  const filled = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.001",
    slippage: "5%",
    clientId: base + 10,
  });
  return { resting, filled };
}

describe("order handles across a devnet kill -9 and restart (--state)", () => {
  it("short-term handles end EXPIRED past their good-til-block, never RESTING on a lost memclob; fills stay FILLED", async () => {
    let devnet = await startDevnetChild(args);
    const onFeed = await connect(devnet, true);
    const onNode = await connect(devnet, false);
    const heightBefore = onFeed.height() > onNode.height() ? onFeed.height() : onNode.height();
    const feedOrders = await placeOrders(onFeed, 810_000);
    const nodeOrders = await placeOrders(onNode, 820_000);
    // Before the kill: the feed shows the bids resting, and both market orders filled.
    for (const handle of feedOrders.resting) expect((await firstState(handle)).status).toBe("RESTING");
    for (const { filled } of [feedOrders, nodeOrders]) {
      expect((await filled.result({ timeoutMs: HANG_MS })).status).toBe("FILLED");
    }
    // A handle followed through the kill and the restart.
    const through = allStates(feedOrders.resting[0]!);
    await devnet.kill();
    // Asked while the devnet is down: nothing held is confirmed, so nothing may say RESTING.
    const whileDown = [...feedOrders.resting, ...nodeOrders.resting].map((handle) => allStates(handle));
    devnet = await startDevnetChild(args, devnet.portFlags);
    const afterRestart = [...feedOrders.resting, ...nodeOrders.resting].map((handle) =>
      handle.result({ timeoutMs: HANG_MS }),
    );
    const results = await Promise.all(afterRestart);
    // Each good-til-block is at least heightBefore + 40: the chain is past it (the restart kept the height).
    expect(onFeed.height()).toBeGreaterThan(heightBefore + 40n);
    expect(onNode.height()).toBeGreaterThan(heightBefore + 40n);
    for (const [i, result] of results.entries()) {
      const handle = [...feedOrders.resting, ...nodeOrders.resting][i]!;
      expect({ clientId: handle.clientId, status: result.status, reason: result.reason }).toEqual({
        clientId: handle.clientId,
        status: "EXPIRED",
        reason: "expired",
      });
      expect(result.final).toBe(true);
      expect(result.filledSize).toBe("0");
    }
    for (const states of await Promise.all(whileDown)) {
      expect(states.map((s) => s.status)).toEqual(["EXPIRED"]);
    }
    expect((await through).map((s) => s.status)).toEqual(["RESTING", "EXPIRED"]);
    // Filled before the kill: still FILLED when asked after the restart.
    for (const { filled } of [feedOrders, nodeOrders]) {
      const result = await filled.result({ timeoutMs: HANG_MS });
      expect([result.status, result.final, result.filledSize]).toEqual(["FILLED", true, "0.001"]);
    }
  }, 300_000);
});
