/**
 * Authorizing a trading key from an EVM wallet: the wallet signs the EIP-712
 * `ServiceTransaction:ApproveAgent` message, the network's approve-agent service (on a devnet, its
 * control route) registers the key on the wallet's account, and a bot trades with the credential.
 *
 * Output (checked by tests/examples.test.ts):
 *   EVM wallet <evmAddress> is <address>
 *   approved agent key (authenticator <id>)
 *   bot order <clientId>: RESTING
 *   bot order <clientId>: CANCELED
 */
import { Exact } from "@perpx/core";
import { EvmWallet } from "@perpx/node-client/wallets";
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client, connect }) => {
  const evm = EvmWallet.generate();
  console.log(`EVM wallet ${evm.evmAddress} is ${evm.address}`);
  await client.faucet({ owner: evm.evmAddress }); // opens the account and funds its subaccount 0

  const { credential, authenticatorId } = await client.approveAgentFromEvm({
    evmWallet: evm,
    expirySeconds: 3_600,
  });
  console.log(`approved agent key (authenticator ${authenticatorId})`);

  const bot = await connect({ credential });
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
});
