/**
 * Open interest between the liquidity tier's caps raises the initial margin fraction the chain
 * charges (linearly from the tier's toward 100%, the raise rounded down to a ppm): the account's
 * free collateral counts it, from the indexer's feed and from a node alone, so a withdrawal of
 * exactly that figure is accepted and one quantum more refused.
 *
 * The caps are set low at genesis (a devnet started from a fork state with its own Large-Cap tier);
 * the account buys 0.01 BTC from the devnet's market maker, the market's whole open interest.
 */

import { Exact } from "@perpx/core";
import { DEFAULT_FAUCET_COINS } from "@perpx/devnet";
import { LocalWallet } from "@perpx/node-client/wallets";
import { expect, it, vi } from "vitest";
import { forkAccount, localFork } from "../../devnet/test/support/fork-state.js";
import { devnetControl, expectFreeCollateralWithdrawable, useDevnet } from "./support.js";

const _QUANTUM = "0.000001";
const HANG = { timeout: 30_000, interval: 50 };
const wallet = LocalWallet.generate();

/** BTC at 65,000 USD, in the Large-Cap tier (2%), its caps set to 100 and 3,100 USDC. */
const fork = localFork("open-interest test", 1n, {
  liquidityTiers: [
    {
      $typeName: "perpx.perpetuals.v1.LiquidityTier",
      id: 0,
      name: "Large-Cap",
      initialMarginPpm: 20_000,
      maintenanceFractionPpm: 600_000,
      basePositionNotional: 0n,
      impactNotional: 10_000_000_000n,
      openInterestLowerCap: 100_000_000n,
      openInterestUpperCap: 3_100_000_000n,
    },
  ],
  accounts: [
    {
      ...forkAccount(wallet.address, 1_000n, 1_000_000_000n),
      balances: DEFAULT_FAUCET_COINS.map((c) => ({ denom: c.denom, amount: c.amount })),
    },
  ],
});

const net = useDevnet({ fork, liquidity: true, mirror: false });

it("withdrawing the free collateral with open interest between the caps is accepted, one quantum more refused", async () => {
  await devnetControl(net, "/prices/walk", { enabled: false });
  const client = await net.connect({ wallet });
  const bought = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.01",
    slippage: "5%",
    rounding: "down",
  });
  expect((await bought.result({ timeoutMs: 20_000 })).status).toBe("FILLED");
  // 0.01 BTC at 65,123.45 (651.2345 USDC open interest): a raise of 98% × 551.2345 / 3000 =
  // 18.006993...%, 18.0069% rounded down to a ppm: 20.0069%, an initial margin of 130.2918351805
  // rounded up to 130.291836 (13.02469 at 2%; 130.292446 with the raise not rounded down)
  await devnetControl(net, "/prices", { market: "BTC-USD", price: "65123.45", mine: true });
  await vi.waitFor(async () => {
    const account = await client.account();
    expect(account.source).toBe("feed");
    expect(account.positions.map((p) => [p.size, p.oraclePrice])).toEqual([["0.01", "65123.45"]]);
    expect((await client.getMarket({ ticker: "BTC-USD" })).indexer?.openInterest).toBe("0.01");
  }, HANG);
  const account = await client.account();
  expect(new Exact(account.equity).minus(account.freeCollateral as string).toFixed()).toBe("130.291836");

  // a node alone (no indexer) reads the tiers and the open interest from the chain: the same figure
  await expectFreeCollateralWithdrawable(net, client, wallet, account);
});
