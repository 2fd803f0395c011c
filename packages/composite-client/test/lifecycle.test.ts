import { encodeCredential, isInvalidAddressError } from "@perpx/core";
import { isInvalidArgumentError } from "@perpx/errors";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it, vi } from "vitest";
import { type CompositeClient, FaucetError, type OrderResult } from "../src/index.js";
import { fundedWallet, reachState, useDevnet } from "./support.js";

const net = useDevnet();

/** A price on the tick, `fraction` of the oracle price (far from the maker's ladder). */
async function farPrice(client: CompositeClient, fraction: number) {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  return (Number(btc.oraclePrice) * fraction).toFixed(0);
}

async function openOrders(address: string) {
  const url = `${net.devnet.endpoints.indexer}/v4/orders?address=${address}&subaccountNumber=0&limit=1000`;
  const orders = (await (await fetch(url)).json()) as { clientId: string; status: string }[];
  return orders.filter((o) => o.status === "OPEN" || o.status === "BEST_EFFORT_OPENED");
}

describe("order lifecycles through the composite client", () => {
  it("streams a stateful order's updates, and cancels conditional and short-term orders with cancelAll", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    await client.deposit({ amount: "500" });
    const low = await farPrice(client, 0.5);
    const high = await farPrice(client, 2);
    const resting = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: low,
      rounding: "down",
    });
    const updates: OrderResult[] = [];
    const reading = (async () => {
      for await (const update of resting.updates()) updates.push(update);
    })();
    await vi.waitFor(() => expect(updates.map((u) => u.status)).toEqual(["RESTING"]));
    const stop = await client.placeOrder({
      market: "BTC-USD",
      side: "SELL",
      type: "STOP_LIMIT",
      size: "0.001",
      triggerPrice: low,
      price: low,
      rounding: "down",
    });
    const takeProfit = await client.placeOrder({
      market: "BTC-USD",
      side: "SELL",
      type: "TAKE_PROFIT_MARKET",
      size: "0.001",
      triggerPrice: high,
      slippage: "1%",
      rounding: "up",
    });
    expect([stop.kind, takeProfit.kind]).toEqual(["conditional", "conditional"]);
    expect((await reachState(stop, "RESTING")).status).toBe("RESTING");
    const shortTerm = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: low,
      rounding: "down",
      goodTil: { blocks: 40 },
    });
    expect(shortTerm.kind).toBe("short-term");
    const cancelled = await client.cancelAll({ market: "BTC-USD" });
    expect(cancelled["BTC-USD"]?.sort()).toEqual(
      [resting.clientId, stop.clientId, takeProfit.clientId, shortTerm.clientId].sort(),
    );
    await reading;
    expect(updates.map((u) => u.status)).toEqual(["RESTING", "CANCELED"]);
    for (const handle of [stop, takeProfit, shortTerm]) {
      expect((await handle.result({ timeoutMs: 20_000 })).status).toBe("CANCELED");
    }
    await vi.waitFor(async () => expect(await openOrders(client.subaccount.owner)).toEqual([]), {
      timeout: 10_000,
    });
  });

  it("batch-cancels short-term orders of one market", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    await client.deposit({ amount: "500" });
    const low = await farPrice(client, 0.5);
    const order = {
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: low,
      rounding: "down",
      goodTil: { blocks: 30 },
    } as const;
    const [a, b] = await Promise.all([client.placeOrder(order), client.placeOrder(order)]);
    expect(a!.clientId).not.toBe(b!.clientId);
    await client.batchCancel({ market: "BTC-USD", clientIds: [a!.clientId, b!.clientId] });
    await vi.waitFor(async () => expect(await openOrders(client.subaccount.owner)).toEqual([]), {
      timeout: 10_000,
    });
    expect((await a!.result({ timeoutMs: 20_000 })).status).toBe("CANCELED");
  });

  it("moves USDC in human units: deposit, transfer, withdraw", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    await client.deposit({ amount: "100.5" });
    const before = Number((await client.account()).usdc);
    await client.transfer({ amount: "10.25", to: { number: 1 } });
    await client.withdraw({ amount: "20" });
    expect(Number((await client.account()).usdc)).toBeCloseTo(before - 30.25, 6);
    const other = await net.connect({ wallet, subaccountNumber: 1 });
    expect((await other.account()).usdc).toBe("10.25");
  });

  it("asks the faucet for tokens with either address form, and types its refusals", async () => {
    const client = await net.connect();
    const fresh = LocalWallet.generate();
    const grant = await client.faucet({ owner: fresh.address });
    expect(grant.address).toBe(fresh.address);
    const again = await client.faucet({ owner: grant.evmAddress });
    expect(again.address).toBe(fresh.address);
    expect(isInvalidAddressError(await client.faucet({ owner: "nope" }).catch((e: unknown) => e))).toBe(true);
    const refused = await client.faucet({ owner: fresh.address, number: 1_000_000 }).catch((e: unknown) => e);
    expect(refused instanceof FaucetError && refused.reason).toBe("invalid_subaccount");
    const closed = await net.connect({ endpoints: { faucet: "http://127.0.0.1:1" } });
    const unreachable = await closed.faucet({ owner: fresh.address }).catch((e: unknown) => e);
    expect(unreachable instanceof FaucetError && unreachable.reason).toBe("unreachable");
  });

  it("trades with a credential only, and refuses what a trading key may not do before signing", async () => {
    const owner = await fundedWallet(net.devnet);
    const ownerClient = await net.connect({ wallet: owner });
    await ownerClient.deposit({ amount: "500" });
    const key = LocalWallet.generate();
    await ownerClient.context.node.registerTradingKey({ owner, publicKey: key.publicKey });
    const credential = encodeCredential({
      masterAddress: owner.address,
      tradingPrivateKey: key.exportPrivateKeyHex(),
    });
    const bot = await net.connect({ credential });
    expect(bot.subaccount).toEqual({ owner: owner.address, number: 0 });
    const handle = await bot.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: await farPrice(bot, 0.5),
      rounding: "down",
    });
    expect((await reachState(handle, "RESTING")).status).toBe("RESTING");
    await bot.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
    for (const refused of [
      await bot.withdraw({ amount: "1" }).catch((e: unknown) => e),
      await bot.deposit({ amount: "1" }).catch((e: unknown) => e),
      await bot.transfer({ amount: "1", to: { number: 1 } }).catch((e: unknown) => e),
    ]) {
      expect(isInvalidArgumentError(refused) && refused.message).toMatch(/trading key/);
    }
  });

  it("places 50 orders at once from one wallet, long-term and short-term mixed: 50 orders, none doubled or lost", async () => {
    const wallet = net.wallets[0]!;
    const client = await net.connect({ wallet });
    await client.deposit({ amount: "20000" });
    const low = await farPrice(client, 0.5);
    const handles = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.placeOrder({
          market: "BTC-USD",
          side: "BUY",
          size: "0.001",
          price: low,
          rounding: "down",
          ...(i % 2 === 0 ? { goodTil: { blocks: 40 } } : {}),
        }),
      ),
    );
    const ids = handles.map((h) => h.clientId);
    expect(new Set(ids).size).toBe(50);
    expect(handles.filter((h) => h.kind === "short-term")).toHaveLength(25);
    await vi.waitFor(
      async () => {
        const open = await openOrders(wallet.address);
        expect(open.map((o) => Number(o.clientId)).sort()).toEqual([...ids].sort());
      },
      { timeout: 10_000 },
    );
    await client.cancelAll();
  });
});
