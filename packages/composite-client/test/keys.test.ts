import { isInvalidArgumentError } from "@perpx/errors";
import type { TradingKey } from "@perpx/node-client/wallets";
import { EvmWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import type { CompositeClient } from "../src/index.js";
import { fundedWallet, reachState, useDevnet } from "./support.js";

const net = useDevnet();

/** Records what the bot's trading key is asked to sign. */
function recordSigning(bot: CompositeClient): unknown[] {
  const signed: unknown[] = [];
  const trader = bot.context.trader;
  if (trader?.kind !== "tradingKey") throw new Error("not a trading key client");
  const wallet = (trader as { tradingKey: TradingKey }).tradingKey.wallet;
  const sign = wallet.signDirect.bind(wallet);
  wallet.signDirect = (doc, bytes) => {
    signed.push(doc);
    return sign(doc, bytes);
  };
  return signed;
}

async function tradesAndIsRefusedTheRest(credential: string, master: string) {
  const bot = await net.connect({ credential });
  expect(bot.subaccount).toEqual({ owner: master, number: 0 });
  const signed = recordSigning(bot);
  const btc = await bot.getMarket({ ticker: "BTC-USD" });
  const handle = await bot.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    size: "0.001",
    price: (Number(btc.oraclePrice) * 0.5).toFixed(0),
    rounding: "down",
  });
  expect((await reachState(handle, "RESTING")).status).toBe("RESTING");
  await bot.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
  expect(signed).toHaveLength(2);
  const refusals = [
    await bot.withdraw({ amount: "1" }).catch((e: unknown) => e),
    await bot.transfer({ amount: "1", to: { number: 1 } }).catch((e: unknown) => e),
    await bot.deposit({ amount: "1" }).catch((e: unknown) => e),
    await bot.setLeverage({ market: "BTC-USD", leverage: 2 }).catch((e: unknown) => e),
    await bot.wrapRedeem({ amount: "1", voucherDenom: "ibc/X" }).catch((e: unknown) => e),
    await bot.authorizeTradingKey().catch((e: unknown) => e),
  ];
  for (const refused of refusals)
    expect(isInvalidArgumentError(refused) && refused.message).toMatch(/trading key/);
  const otherSubaccount = await net.connect({ credential, subaccountNumber: 1 }).catch((e: unknown) => e);
  expect(isInvalidArgumentError(otherSubaccount) && otherSubaccount.message).toMatch(/only subaccount 0/);
  expect(signed).toHaveLength(2);
}

describe("permissioned keys end to end", () => {
  it("an owner authorizes a trading key from a Cosmos wallet; the bot trades with the credential alone", async () => {
    const owner = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet: owner });
    const { credential, authenticatorId } = await client.authorizeTradingKey();
    expect(authenticatorId).toBeGreaterThanOrEqual(0n);
    await tradesAndIsRefusedTheRest(credential, owner.address);
  });

  it("an EVM wallet authorizes a trading key through EIP-712 ApproveAgent; the bot trades with the credential alone", async () => {
    const evm = EvmWallet.generate();
    const funded = await fetch(`${net.devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: evm.evmAddress }),
    });
    expect(funded.status).toBe(200);
    const client = await net.connect();
    const { credential } = await client.approveAgentFromEvm({ evmWallet: evm, expirySeconds: 3_600 });
    await tradesAndIsRefusedTheRest(credential, evm.address);
  });
});
