import { isInvalidAmountError, isInvalidOrderError } from "@perpx/core";
import { isInvalidArgumentError, isPerpxError } from "@perpx/errors";
import type { TxSigner } from "@perpx/node-client";
import { describe, expect, it, vi } from "vitest";
import { reachState, useDevnet } from "./support.js";

const net = useDevnet();

describe("the composite client against a devnet with liquidity", () => {
  it("connects, keeps the height live and answers markets by ticker from its cache", async () => {
    const client = await net.connect();
    const first = client.height();
    expect(first).toBeGreaterThan(0n);
    await vi.waitFor(() => expect(client.height()).toBeGreaterThan(first));
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    expect(btc.ticker).toBe("BTC-USD");
    expect(btc.indexer?.ticker).toBe("BTC-USD");
    expect(btc.indexer?.clobPairId).toBe(String(btc.clobPairId));
    expect(client.context.markets.cached("BTC-USD")).toBe(btc);
    const unknown = await client.getMarket({ ticker: "NOPE-USD" }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(unknown)).toBe(true);
    expect(String(unknown)).toContain("BTC-USD");
  });

  it("places a resting long-term limit order in human units, follows it, and cancels it", async () => {
    const client = await net.connect({ wallet: net.wallets[0]! });
    await client.deposit({ amount: "10000" });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const far = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: far,
      rounding: "down",
    });
    expect(handle.kind).toBe("long-term");
    expect((await reachState(handle, "RESTING")).status).toBe("RESTING");
    await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
    const done = await handle.result({ timeoutMs: 10_000 });
    expect([done.status, done.final]).toEqual(["CANCELED", true]);
  });

  it("fills a MARKET order bounded by slippage against the market maker's book", async () => {
    const client = await net.connect({ wallet: net.wallets[1]! });
    await client.deposit({ amount: "10000" });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "5%",
    });
    expect(handle.kind).toBe("short-term");
    const result = await handle.result({ timeoutMs: 20_000 });
    expect(result.status).toBe("FILLED");
    expect(result.filledSize).toBe("0.001");
    expect(result.fills.map((f) => f.role)).toEqual(["taker"]);
    const account = await client.account();
    expect(account.positions).toEqual([
      expect.objectContaining({ market: "BTC-USD", side: "LONG", size: "0.001" }),
    ]);
    // The indexer's view follows: entry price, unrealized PnL and free collateral in human units.
    await vi.waitFor(async () => {
      const seen = await client.account();
      expect(Number(seen.positions[0]?.entryPrice)).toBeGreaterThan(0);
      expect(seen.positions[0]?.unrealizedPnl).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Number(seen.freeCollateral)).toBeGreaterThan(0);
    });
    const closing = await client.closePosition({ market: "BTC-USD", slippage: "5%" });
    expect((await closing.result({ timeoutMs: 20_000 })).status).toBe("FILLED");
    expect((await client.account()).positions).toEqual([]);
  });

  it("fills a crossing long-term limit order through the stateful path", async () => {
    const client = await net.connect({ wallet: net.wallets[3]! });
    await client.deposit({ amount: "10000" });
    const btc = await client.getMarket({ ticker: "BTC-USD", refresh: true });
    const crossing = (Number(btc.oraclePrice) * 1.05).toFixed(0);
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: crossing,
      rounding: "down",
    });
    expect(handle.kind).toBe("long-term");
    const result = await handle.result({ timeoutMs: 20_000 });
    expect([result.status, result.filledSize, result.final]).toEqual(["FILLED", "0.001", true]);
    const account = await client.account();
    expect(account.positions).toEqual([expect.objectContaining({ market: "BTC-USD", size: "0.001" })]);
  });

  it("retries a place with the same client id safely: the chain refuses the duplicate, one order rests", async () => {
    const client = await net.connect({ wallet: net.wallets[4]! });
    await client.deposit({ amount: "1000" });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const order = {
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: (Number(btc.oraclePrice) / 2).toFixed(0),
      rounding: "down",
    } as const;
    const handle = await client.placeOrder(order);
    const retry = await client.placeOrder({ ...order, clientId: handle.clientId }).catch((e: unknown) => e);
    expect(isPerpxError(retry)).toBe(true);
    expect((await reachState(handle, "RESTING")).status).toBe("RESTING");
    await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
  });

  it("refuses bad orders with typed errors before anything is signed", async () => {
    const wallet = net.wallets[2]!;
    const signed: unknown[] = [];
    const signer: TxSigner = {
      address: wallet.address,
      publicKey: wallet.publicKey,
      keyType: wallet.keyType,
      signDirect: (doc, bytes) => {
        signed.push(doc);
        return wallet.signDirect(doc, bytes);
      },
    };
    const client = await net.connect({ signer });
    const refuse = (order: Parameters<typeof client.placeOrder>[0]) =>
      client.placeOrder(order).catch((e: unknown) => e);
    expect(
      isInvalidArgumentError(await refuse({ market: "NOPE-USD", side: "BUY", size: "1", price: "1" })),
    ).toBe(true);
    const tooSmall = await refuse({ market: "BTC-USD", side: "BUY", size: "0.00000001", price: "30000" });
    expect(isInvalidAmountError(tooSmall) && tooSmall.nearest.length).toBeGreaterThan(0);
    const offTick = await refuse({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000.123456789" });
    expect(isInvalidAmountError(offTick) && offTick.kind).toBe("price");
    expect(
      isInvalidOrderError(await refuse({ market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001" })),
    ).toBe(true);
    expect(
      isInvalidOrderError(
        await refuse({ market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: "lots" }),
      ),
    ).toBe(true);
    const unreachable = await refuse({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "0%",
    });
    expect(isInvalidOrderError(unreachable) && unreachable.message).toMatch(/beyond the slippage bound/);
    const thin = await refuse({
      market: "BTC-USD",
      side: "SELL",
      type: "MARKET",
      size: "1000",
      slippage: "50%",
    });
    expect(isInvalidOrderError(thin) && thin.message).toMatch(/book holds less than 1000/);
    const readOnly = await net.connect();
    expect(
      isInvalidArgumentError(
        await readOnly
          .placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" })
          .catch((e: unknown) => e),
      ),
    ).toBe(true);
    expect(signed).toEqual([]);
  });
});
