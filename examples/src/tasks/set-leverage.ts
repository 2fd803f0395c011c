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

  // `display` rounds the exact figures for people: USD to cents, ratios to 4 decimals (half-expand).
  const { display } = await client.account();
  console.log(
    `account: equity ${display.equity} USDC, free collateral ${display.freeCollateral}, margin usage ${display.marginUsage ?? "0"}, leverage ${display.leverage ?? "0"}`,
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
