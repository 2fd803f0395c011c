/**
 * The main job of a bot from the composite client alone: the order book over the client's own
 * socket, USDC moved between any two subaccounts of the wallet, and cancelAll reporting only what
 * it removed.
 */
import { Exact, InvalidAmountError } from "@perpx/core";
import { isInvalidArgumentError } from "@perpx/errors";
import { subaccountBalances } from "@perpx/node-client";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { BookTop, CompositeClient } from "../src/index.js";
import { type CuttableProxy, startCuttableProxy } from "./proxy.js";
import { fundedWallet, reachState, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();
const proxies: CuttableProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

/** A generous bound that only catches a hang. */
const HANG = { timeout: 60_000, interval: 50 };

async function oracle(client: CompositeClient, ticker = "BTC-USD"): Promise<Exact> {
  return new Exact((await client.getMarket({ ticker, refresh: true })).oraclePrice);
}

/** The indexer's REST answer for the top of a book. */
async function restTop(client: CompositeClient, ticker: string) {
  const rest = await client.context.indexer?.getOrderbook({ ticker });
  return { bid: rest?.bids[0]?.price, ask: rest?.asks[0]?.price };
}

describe("client.orderBook", () => {
  it("streams the book over the client's socket: equal to REST, shows the test's order, resyncs after a drop", async () => {
    const ws = await startCuttableProxy(net.devnet.endpoints.indexerWs);
    proxies.push(ws);
    const client = await net.connect({
      wallet: await fundedWallet(net.devnet),
      endpoints: { indexerWs: ws.url },
    });
    const book = await client.orderBook({ market: "BTC-USD" });
    expect(book.synced).toBe(true);

    // Once in sync, the stream's best bid and ask are the REST answer (both move with the maker's quotes).
    await vi.waitFor(async () => {
      const top = book.top();
      const rest = await restTop(client, "BTC-USD");
      expect(top?.bid?.price).toBeDefined();
      expect({ bid: top?.bid?.price, ask: top?.ask?.price }).toEqual(rest);
    }, HANG);

    // An order this test places shows in the stream, at its price, with its size.
    const price = (await oracle(client)).times("0.7").toFixed(0, "floor");
    const order = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.0123", price });
    await vi.waitFor(() => {
      const level = book
        .book()
        ?.depth("bids")
        .find((l) => l.price === price);
      expect(level && new Exact(level.size).greaterThanOrEqualTo("0.0123")).toBe(true);
    }, HANG);

    // The socket drops: the book says so and shows nothing stale until the fresh snapshot.
    const staleReads: (BookTop | undefined)[] = [];
    const resyncs: string[] = [];
    book.on("stale", () => staleReads.push(book.top()));
    book.on("resync", ({ reason }) => resyncs.push(reason));
    ws.cut();
    // While it is down, the order leaves the book: the resynced book must not show it.
    await client.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
    await reachState(order, "CANCELED");
    await vi.waitFor(() => expect(resyncs).toContain("reconnect"), HANG);
    expect(staleReads.length).toBeGreaterThan(0);
    expect(staleReads.every((read) => read === undefined)).toBe(true);
    expect(book.synced).toBe(true);
    await vi.waitFor(() => {
      expect(
        book
          .book()
          ?.depth("bids")
          .some((l) => l.price === price),
      ).toBe(false);
    }, HANG);
    const top = book.top();
    if (top?.bid && top.ask) expect(new Exact(top.bid.price).lessThan(top.ask.price)).toBe(true);
    await vi.waitFor(async () => {
      const now = book.top();
      expect({ bid: now?.bid?.price, ask: now?.ask?.price }).toEqual(await restTop(client, "BTC-USD"));
    }, HANG);

    // Two watchers of one market share the subscription; each closes on its own.
    const second = await client.orderBook({ market: "BTC-USD" });
    book.close();
    expect(book.top()).toBeUndefined();
    expect(second.top()?.ask).toBeDefined();
    const tops = second.updates();
    expect((await tops.next()).value?.ask).toBeDefined();
    second.close();
    expect((await tops.next()).done).toBe(true);
    await expect(client.orderBook({ market: "NOPE-USD" })).rejects.toThrow();
  }, 180_000);
});

describe("client.transfer between the wallet's subaccounts", () => {
  async function usdcQuantums(client: CompositeClient, number: number): Promise<bigint> {
    const owner = client.subaccount.owner;
    return subaccountBalances(await client.context.node.getSubaccount({ owner, number })).usdcQuantums;
  }

  it("moves 0→1 then 1→0 from one client, exactly, on the node and the indexer", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    const start0 = await usdcQuantums(client, 0);
    expect(start0).toBeGreaterThan(20_000_000n);
    await client.transfer({ amount: "12.345678", to: { number: 1 } });
    expect(await usdcQuantums(client, 0)).toBe(start0 - 12_345_678n);
    expect(await usdcQuantums(client, 1)).toBe(12_345_678n);
    await client.transfer({ amount: "2.5", from: { number: 1 }, to: { number: 0 } });
    expect(await usdcQuantums(client, 1)).toBe(9_845_678n);
    expect(await usdcQuantums(client, 0)).toBe(start0 - 9_845_678n);
    // The indexer agrees once it has the block.
    await vi.waitFor(async () => {
      const indexed = await client.context.indexer?.getSubaccount({
        owner: client.subaccount.owner,
        number: 1,
      });
      expect(indexed?.subaccount.assetPositions.USDC?.size).toBe("9.845678");
    }, HANG);
  }, 120_000);

  it("refuses bad amounts and subaccounts before signing, naming the field", async () => {
    const recorded = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer: recorded.signer });
    const refused = async (params: Parameters<CompositeClient["transfer"]>[0]) => {
      const error = await client.transfer(params).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      return error;
    };
    for (const amount of ["1.0000001", "0", "-1", "1e3", " 1", ".5"]) {
      const error = await refused({ amount, to: { number: 1 } });
      expect(error).toBeInstanceOf(InvalidAmountError);
      expect((error as InvalidAmountError).kind).toBe("amount");
    }
    const cases = [
      [{ amount: "1", from: { number: 128_001 }, to: { number: 0 } }, "from.number"],
      [{ amount: "1", from: { number: 1.5 }, to: { number: 0 } }, "from.number"],
      [{ amount: "1", to: { number: -1 } }, "to.number"],
      [{ amount: "1", to: { owner: "perpx1nope", number: 0 } }, "to.owner"],
      [{ amount: "1", from: { number: 3 }, to: { number: 3 } }, "to"],
    ] as const;
    for (const [params, field] of cases) {
      const error = await refused(params);
      expect(isInvalidArgumentError(error) && error.argument).toBe(field);
    }
    expect(recorded.signed).toEqual([]);
  }, 60_000);
});

describe("client.cancelAll", () => {
  it("lists only the orders that were open and that it removed, never a filled market order", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    const bought = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "1%",
    });
    expect((await reachState(bought, "FILLED")).status).toBe("FILLED");
    const far = (await oracle(client)).times("0.7").toFixed(0, "floor");
    const shortTerm = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: far,
      goodTil: { blocks: 30 },
    });
    const longTerm = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: far });
    expect((await reachState(longTerm, "RESTING")).status).toBe("RESTING");
    const cancelled = await client.cancelAll();
    expect(Object.keys(cancelled)).toEqual(["BTC-USD"]);
    expect([...(cancelled["BTC-USD"] ?? [])].sort()).toEqual([shortTerm.clientId, longTerm.clientId].sort());
    expect((await reachState(shortTerm, "CANCELED")).status).toBe("CANCELED");
    expect((await reachState(longTerm, "CANCELED")).status).toBe("CANCELED");
    // Nothing is open any more: a second call removes nothing and says so.
    expect(await client.cancelAll()).toEqual({});
  }, 120_000);
});
