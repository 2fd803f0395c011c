/**
 * Transfers and withdrawals in human USDC: deposit from the wallet's bank balance into subaccount
 * 0, transfer to the wallet's subaccount 1 and part of it back (`from`: one client moves USDC
 * between any two of the wallet's subaccounts), withdraw from subaccount 0 back to the bank. Each
 * is a signed transaction included in a block.
 *
 * Output (checked by tests/examples.test.ts):
 *   subaccount 0: <amount> USDC
 *   deposit 25 USDC: block <height>
 *   transfer 10 USDC to subaccount 1: block <height>
 *   transfer 4 USDC from subaccount 1 back to 0: block <height>
 *   subaccount 1: <amount> USDC
 *   withdraw 5 USDC to the bank: block <height>
 *   subaccount 0: <amount> USDC (+14 net)
 */
import { Exact, quoteQuantumsToUsdc } from "@perpx/core";
import { subaccountBalances } from "@perpx/node-client";
import { runExample } from "../support/network.js";

await runExample(async ({ client, wallet }) => {
  const before = (await client.account()).usdc;
  console.log(`subaccount 0: ${before} USDC`);
  const deposit = await client.deposit({ amount: "25" });
  console.log(`deposit 25 USDC: block ${deposit.height}`);
  const transfer = await client.transfer({ amount: "10", to: { number: 1 } });
  console.log(`transfer 10 USDC to subaccount 1: block ${transfer.height}`);
  const back = await client.transfer({ amount: "4", from: { number: 1 }, to: { number: 0 } });
  console.log(`transfer 4 USDC from subaccount 1 back to 0: block ${back.height}`);
  const second = await client.context.node.getSubaccount({ owner: wallet.address, number: 1 });
  console.log(`subaccount 1: ${quoteQuantumsToUsdc(subaccountBalances(second).usdcQuantums)} USDC`);
  const withdrawal = await client.withdraw({ amount: "5" });
  console.log(`withdraw 5 USDC to the bank: block ${withdrawal.height}`);
  const after = (await client.account()).usdc;
  const net = new Exact(after).minus(before);
  console.log(`subaccount 0: ${after} USDC (${net.isNegative() ? "" : "+"}${net} net)`);
});
