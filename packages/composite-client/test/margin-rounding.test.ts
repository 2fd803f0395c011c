/**
 * The account's free collateral is the chain's, to the quote quantum, at a rounding boundary: a
 * long BTC position at an oracle price where its value has a fraction of a quote quantum (the
 * chain truncates it) and its initial margin too (the chain rounds it up), so the exact decimal
 * figure, rounded down to a quantum, is one quantum above what the chain lets the account withdraw.
 * A bot withdrawing its free collateral must be accepted, one quantum more refused.
 */
import { Exact } from "@perpx/core";
import { expect, it, vi } from "vitest";
import { devnetControl, expectFreeCollateralWithdrawable, fundedWallet, useDevnet } from "./support.js";

const net = useDevnet();
const _QUANTUM = "0.000001";
const HANG = { timeout: 30_000, interval: 50 };

/**
 * An oracle price near `from` (a mantissa step of `10^exponent`) at which `size` of a long, with
 * initial margin fraction `imf`, has an exact free-collateral part that rounds down to a quantum
 * above the chain's (value truncated, margin rounded up).
 */
function boundaryPrice(from: Exact, exponent: number, size: string, imf: string): Exact {
  const step = Exact.fromUnits(1n, -exponent);
  for (let i = 1; i < 100_000; i++) {
    const price = from.plus(step.times(i));
    const exact = new Exact(size).times(price);
    const exactFree = exact.minus(exact.times(imf)).toDecimalPlaces(6, "floor");
    const value = exact.toDecimalPlaces(6, "trunc");
    const chainFree = value.minus(value.times(imf).toDecimalPlaces(6, "ceil"));
    if (exactFree.greaterThan(chainFree)) return price;
  }
  throw new Error("no boundary price found");
}

it("withdrawing the account's free collateral is accepted, one quantum more refused, at a rounding boundary", async () => {
  await devnetControl(net, "/prices/walk", { enabled: false });
  const wallet = await fundedWallet(net.devnet);
  const client = await net.connect({ wallet });
  const bought = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.001",
    slippage: "5%",
    rounding: "down",
  });
  expect((await bought.result({ timeoutMs: 20_000 })).status).toBe("FILLED");

  const btc = await client.getMarket({ ticker: "BTC-USD" });
  const imf = btc.indexer?.initialMarginFraction as string;
  const price = boundaryPrice(new Exact(btc.oraclePrice), btc.oracle.exponent, "0.001", imf);
  await devnetControl(net, "/prices", { market: "BTC-USD", price: price.toFixed(), mine: true });

  // the feed's account, once it reports the position at that price
  await vi.waitFor(async () => {
    const account = await client.account();
    expect(account.source).toBe("feed");
    expect(account.positions.map((p) => [p.size, new Exact(p.oraclePrice).equals(price)])).toEqual([
      ["0.001", true],
    ]);
  }, HANG);
  const account = await client.account();
  const free = account.freeCollateral as string;
  // what a bot sizes a withdrawal with, the free collateral in whole quote quantums, is the figure
  expect(new Exact(free).toDecimalPlaces(6, "floor").toFixed()).toBe(free);
  await expectFreeCollateralWithdrawable(net, client, wallet, account);
});
