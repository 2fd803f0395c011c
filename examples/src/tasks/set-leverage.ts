/**
 * Leverage and collateral: set the subaccount's leverage on BTC-USD, read the account's margin
 * figures (free collateral, margin usage, leverage) in human units, and see an order the free
 * collateral cannot carry refused before anything is signed, with the required and the free
 * collateral named.
 *
 * Output (checked by tests/examples.test.ts):
 *   leverage on BTC-USD set to 5x
 *   account: equity <amount> USDC, free collateral <amount>, margin usage <ratio>, leverage <ratio>
 *   refused before signing: <market> needs <amount> USDC of free collateral, the account has <amount>
 */
import { InsufficientCollateralError } from "@perpx/composite-client";
import { runExample } from "../support/network.js";

await runExample(async ({ client }) => {
  await client.setLeverage({ market: "BTC-USD", leverage: 5 });
  console.log("leverage on BTC-USD set to 5x");

  const account = await client.account();
  console.log(
    `account: equity ${account.equity} USDC, free collateral ${account.freeCollateral}, margin usage ${account.marginUsage ?? "0"}, leverage ${account.leverage ?? "0"}`,
  );

  // 1,000 BTC is far beyond the account: refused from the live account, nothing signed or sent.
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  try {
    await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "1000",
      price: btc.oraclePrice,
      rounding: "down",
    });
    throw new Error("the order was not refused");
  } catch (error) {
    if (!(error instanceof InsufficientCollateralError)) throw error;
    console.log(
      `refused before signing: ${error.market} needs ${error.required} USDC of free collateral, the account has ${error.free}`,
    );
  }
});
