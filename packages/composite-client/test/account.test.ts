import { quoteQuantumsToUsdc, resolveNetwork } from "@perpx/core";
import { isInvalidArgumentError } from "@perpx/errors";
import { subaccountBalances } from "@perpx/node-client";
import { describe, expect, it, vi } from "vitest";
import { type CompositeClient, InsufficientCollateralError, type OrderResult } from "../src/index.js";
import { fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();

/** Sells 0.002 BTC at market and returns the fill, FILLED (the short both tests read). */
async function shortFilled(client: CompositeClient): Promise<OrderResult> {
  const sold = await client.placeOrder({
    market: "BTC-USD",
    side: "SELL",
    type: "MARKET",
    size: "0.002",
    slippage: "5%",
    rounding: "down",
  });
  const fill = await sold.result({ timeoutMs: 20_000 });
  expect(fill.status).toBe("FILLED");
  return fill;
}

describe("account views", () => {
  it("equity, free collateral, margin usage, leverage, a short with its entry, PnL and liquidation price, open orders and fills, live from the feed", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    const fill = await shortFilled(client);
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const resting = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: (Number(btc.oraclePrice) * 0.5).toFixed(0),
      rounding: "down",
    });
    await vi.waitFor(async () => {
      const account = await client.account();
      expect(account.source).toBe("feed");
      expect(account.positions).toHaveLength(1);
      expect(account.openOrders.map((o) => o.clientId)).toContain(resting.clientId);
    });
    const account = await client.account();
    const [short] = account.positions;
    expect(short).toMatchObject({ market: "BTC-USD", side: "SHORT", size: "0.002" });
    expect(Number(short?.entryPrice)).toBeCloseTo(Number(fill.averagePrice), 6);
    const oracle = Number(short?.oraclePrice);
    expect(Number(short?.unrealizedPnl)).toBeCloseTo((Number(short?.entryPrice) - oracle) * 0.002, 6);
    expect(Number(short?.liquidationPrice)).toBeGreaterThan(oracle);
    // the chain truncates the short's value toward zero to a quote quantum: within 1e-6
    expect(Number(account.equity)).toBeCloseTo(Number(account.usdc) - 0.002 * oracle, 5);
    const imf = Number(btc.indexer?.initialMarginFraction);
    // the chain truncates the value and rounds the margin up, each to a quote quantum: within 2e-6
    expect(Number(account.freeCollateral)).toBeCloseTo(Number(account.equity) - 0.002 * oracle * imf, 5);
    expect(Number(account.marginUsage)).toBeCloseTo((0.002 * oracle * imf) / Number(account.equity), 8);
    expect(Number(account.leverage)).toBeCloseTo((0.002 * oracle) / Number(account.equity), 8);
    expect(account.fills.length).toBeGreaterThan(0);
    expect(account.fills.every((f) => f.market === "BTC-USD" && f.side === "SELL")).toBe(true);

    // The indexer's own figure agrees (its oracle price may be a block apart).
    const indexed = (await (
      await fetch(`${net.devnet.endpoints.indexer}/v4/addresses/${wallet.address}/subaccountNumber/0`)
    ).json()) as { subaccount: { equity: string; freeCollateral: string } };
    expect(Math.abs(Number(indexed.subaccount.equity) - Number(account.equity))).toBeLessThan(1);

    // The node alone: the same balances and position, no orders or fills.
    const local = resolveNetwork({ network: "local" });
    const nodeOnly = await net.connect({
      wallet,
      network: { network: local.network, endpoints: { nodeRpc: net.devnet.endpoints.nodeRpc } },
    });
    const fromNode = await nodeOnly.account();
    expect(fromNode.source).toBe("node");
    expect(fromNode.usdc).toBe(account.usdc);
    expect(fromNode.positions.map((p) => [p.market, p.side, p.size])).toEqual([
      ["BTC-USD", "SHORT", "0.002"],
    ]);
    await client.cancelAll();
  });

  it("from the node alone, the USDC balance counts the funding not settled yet, as the indexer and the chain do", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    await shortFilled(client);
    // a funding tick: the position's funding index now trails the perpetual's
    const tick = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/advance-epoch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { height } = (await tick.json()) as { height: string };
    const local = resolveNetwork({ network: "local" });
    const nodeOnly = await net.connect({
      wallet,
      network: { network: local.network, endpoints: { nodeRpc: net.devnet.endpoints.nodeRpc } },
    });
    const fromNode = await nodeOnly.account();
    const chain = await nodeOnly.context.node.getSubaccount({ owner: wallet.address, number: 0 });
    const settled = quoteQuantumsToUsdc(subaccountBalances(chain).usdcQuantums);
    expect(fromNode.usdc).not.toBe(settled); // funding moved the balance the chain will settle
    await vi.waitFor(async () => {
      const seen = (await (await fetch(`${net.devnet.endpoints.indexer}/v4/height`)).json()) as {
        height: string;
      };
      expect(BigInt(seen.height)).toBeGreaterThanOrEqual(BigInt(height));
    });
    const url = `${net.devnet.endpoints.indexer}/v4/addresses/${wallet.address}/subaccountNumber/0`;
    const answer = (await (await fetch(url)).json()) as {
      subaccount: { assetPositions: Record<string, { size: string; side: string }> };
    };
    const indexed = answer.subaccount.assetPositions.USDC;
    expect(fromNode.usdc).toBe(indexed?.side === "SHORT" ? `-${indexed.size}` : indexed?.size);
  });

  it("sets leverage per market; the account's margin follows it", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "5%",
      rounding: "up",
    });
    await vi.waitFor(async () => expect((await client.account()).positions).toHaveLength(1));
    await client.setLeverage({ market: "BTC-USD", leverage: 2 });
    const account = await client.account();
    const notional = Number(account.positions[0]?.size) * Number(account.positions[0]?.oraclePrice);
    expect(Number(account.freeCollateral)).toBeCloseTo(Number(account.equity) - notional * 0.5, 6);
    // 0.05 BTC fits the market's tier initial margin, not the 50% of 2x: refused before signing.
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const refused = await client
      .placeOrder({ market: "BTC-USD", side: "BUY", size: "0.05", price: btc.oraclePrice, rounding: "down" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientCollateralError);
    expect(Number((refused as InsufficientCollateralError).required)).toBeCloseTo(
      0.05 * Number(btc.oraclePrice) * 0.5,
      0,
    );
  });

  it("refuses an order the free collateral cannot carry, and a bad leverage, before signing", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    await vi.waitFor(() => expect(client.context.feed?.subaccount?.view.blockHeight).toBeDefined());
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.9).toFixed(0);
    const refused = await client
      .placeOrder({ market: "BTC-USD", side: "BUY", size: "1", price, rounding: "down" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientCollateralError);
    const error = refused as InsufficientCollateralError;
    const account = await client.account();
    expect(Number(error.free)).toBeCloseTo(Number(account.freeCollateral), 4);
    expect(Number(error.required)).toBeCloseTo(Number(price) * Number(btc.indexer?.initialMarginFraction), 4);
    expect(error.message).toContain(`${error.required} USDC`);
    for (const leverage of [0, "x", Number.NaN, "5e0", "+5", " 5"]) {
      expect(
        isInvalidArgumentError(
          await client.setLeverage({ market: "BTC-USD", leverage }).catch((e: unknown) => e),
        ),
      ).toBe(true);
    }
    expect(signed).toEqual([]);
    // A small order of the same account still goes through.
    await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" });
    expect(signed).toHaveLength(1);
    await client.cancelAll();
  });
});
