import {
  isTransportError,
  isTxInclusionTimeoutError,
  type TxInclusionTimeoutError,
} from "@perpx/node-client";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  type CompositeClient,
  isOrderOutcomeUnknownError,
  type OrderOutcomeUnknownError,
} from "../src/index.js";
import { type CountingProxy, type ProxiedRequest, startCountingProxy } from "./proxy.js";
import { fundedWallet, reachState, useDevnet } from "./support.js";

const net = useDevnet();
const proxies: CountingProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const isBroadcast = (r: ProxiedRequest) => r.method?.startsWith("broadcast_tx") ?? false;

/**
 * A funded client whose node RPC goes through a proxy that swallows the answers of broadcasts
 * (or of the methods `swallow.methods` names) while `swallow.on`, and drops broadcasts unseen while
 * `drop.on`; `commitTimeoutMs` is the client's.
 */
async function clientBehindProxy(options: { commitTimeoutMs?: number } = {}): Promise<{
  client: CompositeClient;
  proxy: CountingProxy;
  swallow: { on: boolean; methods?: string[] };
  drop: { on: boolean };
}> {
  const swallow: { on: boolean; methods?: string[] } = { on: false };
  const drop = { on: false };
  const proxy = await startCountingProxy(net.devnet.endpoints.nodeRpc, {
    swallow: (r) =>
      swallow.on && (swallow.methods ? swallow.methods.includes(r.method ?? "") : isBroadcast(r)),
    drop: (r) => drop.on && isBroadcast(r),
  });
  proxies.push(proxy);
  const client = await net.connect({
    ...options,
    wallet: await fundedWallet(net.devnet),
    endpoints: { nodeRpc: proxy.url },
  });
  await client.deposit({ amount: "500" });
  return { client, proxy, swallow, drop };
}

/** Sends with the node's answers swallowed; the send must end in the unknown-outcome error. */
async function unanswered(
  swallow: { on: boolean },
  send: () => Promise<unknown>,
): Promise<OrderOutcomeUnknownError> {
  swallow.on = true;
  const error = await send().catch((e: unknown) => e);
  swallow.on = false;
  expect(isOrderOutcomeUnknownError(error)).toBe(true);
  return error as OrderOutcomeUnknownError;
}

/** The client ids of the account's orders as the indexer has them. */
async function indexedClientIds(owner: string): Promise<number[]> {
  const url = `${net.devnet.endpoints.indexer}/v4/orders?address=${owner}&subaccountNumber=0&limit=1000`;
  const orders = (await (await fetch(url)).json()) as { clientId: string }[];
  return orders.map((o) => Number(o.clientId));
}

describe("an order whose broadcast got no answer", () => {
  it("a long-term place: UNKNOWN with the order id and tx hash; its handle finds it resting", async () => {
    const { client, proxy, swallow } = await clientBehindProxy();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const before = proxy.requests.filter(isBroadcast).length;
    const unknown = await unanswered(swallow, () =>
      client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "0.001",
        price,
        rounding: "down",
        clientId: 61_001,
      }),
    );
    expect(unknown.code).toBe("OUTCOME_UNKNOWN");
    expect(unknown.status).toBe("UNKNOWN");
    expect(unknown.operation).toBe("place");
    expect(unknown.clientId).toBe(61_001);
    expect(unknown.orderId.clientId).toBe(61_001);
    expect(unknown.orderId.orderFlags).toBe(64);
    expect(unknown.orderId.clobPairId).toBe(btc.clobPairId);
    expect(unknown.orderId.subaccountId?.owner).toBe(client.subaccount.owner);
    expect(unknown.txHash).toMatch(/^[0-9A-F]{64}$/);
    expect(unknown.message).toContain("same client id (61001) is safe");
    expect(unknown.message).toContain("Look the order up");
    // The request went out once and nothing was resent.
    expect(proxy.requests.filter(isBroadcast).length - before).toBe(1);
    // It did reach the chain: the handle finds it in state, resting.
    const truth = await reachState(unknown.handle, "RESTING");
    expect(truth.status).toBe("RESTING");
    const state = await client.context.node.getStatefulOrder({
      order: {
        subaccount: client.subaccount,
        clientId: 61_001,
        clobPairId: btc.clobPairId,
        kind: "long-term",
      },
    });
    expect(state?.orderPlacement?.order?.orderId?.clientId).toBe(61_001);
    // The client knows it: cancelling it by client id works, and the handle sees the end.
    await client.cancelOrder({ market: "BTC-USD", clientId: 61_001 });
    const end = await unknown.handle.result({ timeoutMs: 10_000 });
    expect([end.status, end.final]).toEqual(["CANCELED", true]);
  });

  it("a short-term market order: UNKNOWN, then its handle finds it filled", async () => {
    const { client, proxy, swallow } = await clientBehindProxy();
    const before = proxy.requests.filter(isBroadcast).length;
    const unknown = await unanswered(swallow, () =>
      client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        type: "MARKET",
        size: "0.001",
        slippage: "5%",
        clientId: 61_002,
      }),
    );
    expect(unknown.orderId.orderFlags).toBe(0);
    expect(unknown.handle.kind).toBe("short-term");
    expect(proxy.requests.filter(isBroadcast).length - before).toBe(1);
    const truth = await unknown.handle.result({ timeoutMs: 20_000 });
    expect([truth.status, truth.filledSize, truth.final]).toEqual(["FILLED", "0.001", true]);
    await vi.waitFor(async () => expect(await indexedClientIds(client.subaccount.owner)).toContain(61_002), {
      timeout: 10_000,
    });
  });

  it("a short-term order that never matched: UNKNOWN, then EXPIRED once its good-til-block passed", async () => {
    const { client, swallow } = await clientBehindProxy();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const error = await unanswered(swallow, () =>
      client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "0.001",
        price,
        rounding: "down",
        goodTil: { blocks: 4 },
        clientId: 61_003,
      }),
    );
    const truth = await error.handle.result({ timeoutMs: 20_000 });
    expect([truth.status, truth.final, truth.filledSize]).toEqual(["EXPIRED", true, "0"]);
  });
});

describe("an order in flight, other ways", () => {
  it("a long-term place whose wait for its block broke off: UNKNOWN, then found resting", async () => {
    // A short wait for the block (the default is a minute).
    const { client, proxy, swallow } = await clientBehindProxy({ commitTimeoutMs: 1_500 });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    // The broadcast is answered (CheckTx took it); the look-ups of its block are not, until the
    // wait's deadline.
    swallow.methods = ["tx"];
    const polls = () => proxy.requests.filter((r) => r.method === "tx").length;
    const before = polls();
    const unknown = await unanswered(swallow, () =>
      client.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        size: "0.001",
        price,
        rounding: "down",
        clientId: 63_001,
      }),
    );
    // The wait looked again through the lost answers, then gave up at its deadline with the hash;
    // the last lost answer is its cause.
    expect(polls() - before).toBeGreaterThan(1);
    expect(isTxInclusionTimeoutError(unknown.cause)).toBe(true);
    const timeout = unknown.cause as TxInclusionTimeoutError;
    expect([timeout.txHash, timeout.timeoutMs]).toEqual([unknown.txHash, 1_500]);
    expect(isTransportError(timeout.cause)).toBe(true);
    expect((await reachState(unknown.handle, "RESTING")).status).toBe("RESTING");
    await client.cancelOrder({ market: "BTC-USD", clientId: 63_001 });
  });

  it("a place the node never saw: UNKNOWN, then not_included once the sequence moved on, or EXPIRED", async () => {
    const { client, drop } = await clientBehindProxy();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const order = { market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" } as const;
    drop.on = true;
    const longTerm = await client.placeOrder({ ...order, clientId: 64_001 }).catch((e: unknown) => e);
    const shortTerm = await client
      .placeOrder({ ...order, goodTil: { blocks: 4 }, clientId: 64_002 })
      .catch((e: unknown) => e);
    drop.on = false;
    // The request was written and the connection cut: the client cannot tell it never arrived.
    expect(isOrderOutcomeUnknownError(longTerm)).toBe(true);
    expect(isOrderOutcomeUnknownError(shortTerm)).toBe(true);
    const lost = longTerm as OrderOutcomeUnknownError;
    // Nothing says yet whether it will land.
    expect((await lost.handle.result({ timeoutMs: 500 })).status).toBe("UNKNOWN");
    // The next transaction takes its sequence: it can never be included now.
    const next = await client.placeOrder({ ...order, clientId: 64_003 });
    expect((await reachState(next, "RESTING")).status).toBe("RESTING");
    const truth = await lost.handle.result({ timeoutMs: 10_000 });
    expect([truth.status, truth.reason, truth.final]).toEqual(["REJECTED", "not_included", true]);
    const short = await (shortTerm as OrderOutcomeUnknownError).handle.result({ timeoutMs: 20_000 });
    expect([short.status, short.final]).toEqual(["EXPIRED", true]);
    const state = await client.context.node.getStatefulOrder({
      order: {
        subaccount: client.subaccount,
        clientId: 64_001,
        clobPairId: btc.clobPairId,
        kind: "long-term",
      },
    });
    expect(state).toBeUndefined();
    await client.cancelAll();
  });

  it("a cancel sent without an answer: UNKNOWN for the cancel, and the order's handle sees it cancelled", async () => {
    const { client, swallow } = await clientBehindProxy();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price,
      rounding: "down",
      clientId: 65_001,
    });
    const unknown = await unanswered(swallow, () =>
      client.cancelOrder({ market: "BTC-USD", clientId: 65_001 }),
    );
    expect([unknown.operation, unknown.clientId]).toEqual(["cancel", 65_001]);
    expect(unknown.handle).toBe(handle);
    const end = await unknown.handle.result({ timeoutMs: 10_000 });
    expect([end.status, end.final]).toEqual(["CANCELED", true]);
  });
});

describe("an order whose broadcast could not connect", () => {
  it("is a plain not-sent TransportError, and the chain holds no such order", async () => {
    const { client, proxy } = await clientBehindProxy();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    // The proxy goes away: every connection to it is refused (once the client dropped the
    // keep-alive sockets the proxy closed: a request on one of those may have been read).
    await proxy.close();
    await vi.waitFor(async () => {
      const probe = await client.context.node.getLatestBlock().catch((e: unknown) => e);
      expect(isTransportError(probe) && probe.nothingSent).toBe(true);
    });
    const order = { market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" } as const;
    const longTerm = await client.placeOrder({ ...order, clientId: 62_001 }).catch((e: unknown) => e);
    const shortTerm = await client
      .placeOrder({ ...order, goodTil: { blocks: 20 }, clientId: 62_002 })
      .catch((e: unknown) => e);
    for (const error of [longTerm, shortTerm]) {
      expect(isOrderOutcomeUnknownError(error)).toBe(false);
      expect(isTransportError(error) && error.nothingSent).toBe(true);
    }
    // Asked directly (not through the dead proxy): no such order in state or in the indexer.
    const direct = await net.connect();
    const state = await direct.context.node.getStatefulOrder({
      order: {
        subaccount: client.subaccount,
        clientId: 62_001,
        clobPairId: btc.clobPairId,
        kind: "long-term",
      },
    });
    expect(state).toBeUndefined();
    const height = direct.height();
    await vi.waitFor(() => expect(direct.height()).toBeGreaterThan(height + 2n), { timeout: 10_000 });
    const ids = await indexedClientIds(client.subaccount.owner);
    expect(ids).not.toContain(62_001);
    expect(ids).not.toContain(62_002);
  });
});
