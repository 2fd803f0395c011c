/**
 * Trading with a credential: the owner authorizes a fresh trading key from its wallet and hands
 * the bot only the credential (`{ tradingPrivateKey, masterAddress }`, base64: a secret). The bot
 * connects with it, places and cancels an order on the owner's subaccount 0, and is refused a
 * withdrawal before it signs.
 *
 * Output (checked by tests/examples.test.ts):
 *   authorized a trading key for <address> (authenticator <id>)
 *   bot trades <address> subaccount 0
 *   bot order <clientId>: RESTING
 *   bot order <clientId>: CANCELED
 *   bot withdraw refused before signing: InvalidArgumentError
 */

import type { CompositeClient } from "@perpx/composite-client";
import { Exact } from "@perpx/core";
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client, connect }) => {
  const { credential, authenticatorId } = await client.authorizeTradingKey();
  console.log(`authorized a trading key for ${client.subaccount.owner} (authenticator ${authenticatorId})`);

  const bot: CompositeClient = await connect({ credential });
  console.log(`bot trades ${bot.subaccount.owner} subaccount ${bot.subaccount.number}`);
  const btc = await bot.getMarket({ ticker: "BTC-USD" });
  const price = new Exact(btc.oraclePrice).dividedBy(2, { scale: 0, rounding: "halfExpand" }).toFixed();
  const order = await bot.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    size: "0.001",
    price,
    rounding: "down",
  });
  console.log(
    `bot order ${order.clientId}: ${(await orderState(order, (s) => s.status === "RESTING")).status}`,
  );
  await bot.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
  console.log(`bot order ${order.clientId}: ${(await orderState(order)).status}`);

  try {
    await bot.withdraw({ amount: "1" });
    throw new Error("the withdrawal was not refused");
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "InvalidArgumentError") throw error;
    console.log(`bot withdraw refused before signing: ${error.name}`);
  }
});
