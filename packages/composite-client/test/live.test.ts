import { resolveNetwork } from "@perpx/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type CompositeClient as Client, CompositeClient } from "../src/index.js";
import { type CountingProxy, type CuttableProxy, startCountingProxy, startCuttableProxy } from "./proxy.js";
import { fundedWallet, useDevnet } from "./support.js";

const net = useDevnet();
const proxies: (CountingProxy | CuttableProxy)[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) client.close();
  for (const proxy of proxies) await proxy.close();
});

async function farPrice(client: Client, fraction: number) {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  return (Number(btc.oraclePrice) * fraction).toFixed(0);
}

describe("live state from the indexer's WebSocket", () => {
  it("keeps the height, the markets and the account from the feed", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    const feed = client.context.feed;
    expect(feed).toBeDefined();
    await vi.waitFor(() => expect(feed?.live()).toBe(true));
    const first = client.height();
    await vi.waitFor(() => expect(client.height()).toBeGreaterThan(first));
    const usdc = () => feed?.subaccount?.view.assetPositions().find((a) => a.symbol === "USDC")?.size;
    await client.deposit({ amount: "123" });
    const chain = (await client.account()).usdc;
    await vi.waitFor(() => expect(usdc()).toBe(chain));
  });

  it("places an order with no request but the broadcast between the call and the broadcast", async () => {
    const rpc = await startCountingProxy(net.devnet.endpoints.nodeRpc);
    const indexer = await startCountingProxy(net.devnet.endpoints.indexer);
    proxies.push(rpc, indexer);
    const local = resolveNetwork({ network: "local" });
    const client = await CompositeClient.connect({
      // The node over RPC only, so that every node request goes through the counting proxy.
      network: {
        network: local.network,
        endpoints: { nodeRpc: rpc.url, indexer: indexer.url, indexerWs: net.devnet.endpoints.indexerWs },
      },
      wallet: await fundedWallet(net.devnet),
      pollIntervalMs: 50,
      marketRefreshIntervalMs: 200,
    });
    clients.push(client);
    await client.deposit({ amount: "500" });
    const price = await farPrice(client, 0.5);
    const order = { market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" } as const;
    await client.placeOrder(order); // the chain id and the account's sequence are known from here on
    await vi.waitFor(() => expect(client.context.feed?.live()).toBe(true));
    for (const goodTil of [{ blocks: 20 }, undefined]) {
      const rpcMark = rpc.requests.length;
      const indexerMark = indexer.requests.length;
      await client.placeOrder({ ...order, ...(goodTil ? { goodTil } : {}) });
      const methods = rpc.requests.slice(rpcMark).map((r) => r.method);
      expect(methods[0]).toMatch(/^broadcast_tx_/);
      // A short-term order resolves at CheckTx: the broadcast was the only request.
      if (goodTil) expect(methods).toEqual(["broadcast_tx_sync"]);
      expect(indexer.requests.slice(indexerMark)).toEqual([]);
    }
    await client.cancelAll();
  });

  it("falls back to the node when the feed is unreachable", async () => {
    const client = await net.connect({ endpoints: { indexerWs: "ws://127.0.0.1:1" } });
    expect(client.context.feed).toBeUndefined();
    const first = client.height();
    await vi.waitFor(() => expect(client.height()).toBeGreaterThan(first));
  });

  it("resyncs the account after the socket is cut, and follows the height again", async () => {
    const ws = await startCuttableProxy(net.devnet.endpoints.indexerWs);
    proxies.push(ws);
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet, endpoints: { indexerWs: ws.url } });
    const live = client.context.feed?.subaccount;
    expect(live).toBeDefined();
    const usdc = () => Number(live?.view.assetPositions().find((a) => a.symbol === "USDC")?.size);
    const resyncs: string[] = [];
    live?.on("resync", ({ reason }) => resyncs.push(reason));
    ws.cut();
    await client.deposit({ amount: "77" });
    await vi.waitFor(() => expect(resyncs).toContain("reconnect"), { timeout: 20_000 });
    const chain = Number((await client.account()).usdc);
    await vi.waitFor(() => expect(usdc()).toBe(chain));
    await vi.waitFor(() => expect(client.context.feed?.live()).toBe(true), { timeout: 20_000 });
  });
});
