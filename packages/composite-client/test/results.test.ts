import { resolveNetwork } from "@perpx/core";
import { describe, expect, it } from "vitest";
import type { CompositeClient, ConnectOptions, OrderHandle } from "../src/index.js";
import { fundedWallet, useDevnet } from "./support.js";

const net = useDevnet();

async function oracle(client: CompositeClient): Promise<number> {
  return Number((await client.getMarket({ ticker: "BTC-USD", refresh: true })).oraclePrice);
}

async function openOrderCount(address: string, clientId: number): Promise<number> {
  const url = `${net.devnet.endpoints.indexer}/v4/orders?address=${address}&subaccountNumber=0&limit=1000`;
  const orders = (await (await fetch(url)).json()) as { clientId: string }[];
  return orders.filter((o) => o.clientId === String(clientId)).length;
}

/** Each path: the indexer's live account, and the node alone (no indexer endpoints at all). */
const paths: { name: string; options: () => ConnectOptions }[] = [
  { name: "from the indexer's feed", options: () => ({}) },
  {
    name: "from the node alone",
    options: () => ({
      network: {
        network: resolveNetwork({ network: "local" }).network,
        endpoints: { nodeRpc: net.devnet.endpoints.nodeRpc, faucet: net.devnet.endpoints.faucet },
      },
    }),
  },
];

describe.each(paths)("order results $name", ({ options }) => {
  it("a crossing market order: FILLED with its fills, average price and fees", async () => {
    const client = await net.connect({ ...options(), wallet: await fundedWallet(net.devnet) });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "5%",
      rounding: "up",
    });
    const result = await handle.result({ timeoutMs: 20_000 });
    expect(result.status).toBe("FILLED");
    expect(result.final).toBe(true);
    expect(result.filledSize).toBe("0.001");
    expect(result.fills.length).toBeGreaterThan(0);
    if (client.context.feed) {
      const price = Number(result.averagePrice);
      expect(price).toBeGreaterThan((await oracle(client)) * 0.9);
      expect(result.fills.every((f) => f.role === "taker" && f.price !== undefined)).toBe(true);
      expect(Number(result.fees)).toBeGreaterThan(0);
    } else {
      expect(result.fills.every((f) => f.role === "taker")).toBe(true);
    }
  });

  it("a post-only order that would cross: REJECTED post_only_would_cross", async () => {
    const client = await net.connect({ ...options(), wallet: await fundedWallet(net.devnet) });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: ((await oracle(client)) * 1.05).toFixed(0),
      rounding: "up",
      postOnly: true,
    });
    const result = await handle.result({ timeoutMs: 20_000 });
    expect([result.status, result.reason, result.filledSize]).toEqual([
      "REJECTED",
      "post_only_would_cross",
      "0",
    ]);
  });

  it("an IOC order that does not cross: REJECTED ioc_unfilled", async () => {
    const client = await net.connect({ ...options(), wallet: await fundedWallet(net.devnet) });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: ((await oracle(client)) * 0.5).toFixed(0),
      rounding: "down",
      timeInForce: "IOC",
    });
    const result = await handle.result({ timeoutMs: 20_000 });
    expect([result.status, result.reason]).toEqual(["REJECTED", "ioc_unfilled"]);
  });

  it("a timeout answers UNKNOWN and never resubmits", async () => {
    const client = await net.connect({ ...options(), wallet: await fundedWallet(net.devnet) });
    const price = ((await oracle(client)) * 0.5).toFixed(0);
    // The good-til-block is 3 past the client's live height: hold the chain still until the client
    // has seen its latest block and the order is in, so a loaded machine cannot let the chain run
    // past that height between the read and the send.
    const { producer } = net.devnet;
    const blockTimeMs = producer.blockTimeMs;
    producer.setBlockTimeMs(0);
    let handle: OrderHandle;
    try {
      await client.context.height.waitAbove(net.devnet.app.latestBlock().height - 1n);
      handle = await client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "0.001",
        price,
        rounding: "down",
        goodTil: { blocks: 3 },
      });
      const early = await handle.result({ timeoutMs: 0 });
      // Nothing observed yet: UNKNOWN (the feed may already show it resting).
      expect(client.context.feed ? ["UNKNOWN", "RESTING"] : ["UNKNOWN"]).toContain(early.status);
      expect(early.final).toBe(false);
    } finally {
      producer.setBlockTimeMs(blockTimeMs);
    }
    const end = await handle.result({ timeoutMs: 20_000 });
    expect([end.status, end.reason]).toEqual(["EXPIRED", "expired"]);
    expect(await openOrderCount(client.subaccount.owner, handle.clientId)).toBeLessThanOrEqual(1);
  });
});
