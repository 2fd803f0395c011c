/**
 * Wrap: USDC that arrived over IBC is backed by its voucher; redeem some wrapped USDC for the
 * voucher on this chain, and withdraw some over IBC to the voucher's home chain, in human USDC.
 * On a devnet the incoming transfer comes from its control route (the outside world).
 *
 * Output (checked by tests/examples.test.ts):
 *   received 5 USDC over IBC (voucher <denom>)
 *   redeemed 1.5 USDC for the voucher: tx <hash>
 *   withdrew 0.25 USDC to <address>: tx <hash>
 */
import { runExample } from "../support/network.js";

const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";

await runExample(async ({ client, wallet }) => {
  const control = client.context.config.endpoints.devnetControl;
  if (control === undefined)
    throw new Error("this example brings USDC in over a devnet's control route (PERPX_DEVNET_CONTROL_URL)");
  const response = await fetch(`${control}/devnet/ibc/receive`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      channel: "channel-0",
      denom: "uusdc",
      amount: "5000000",
      sender: NOBLE,
      receiver: wallet.address,
    }),
  });
  const received = (await response.json()) as { voucherDenom: string };
  if (!response.ok) throw new Error(`the incoming transfer failed: ${JSON.stringify(received)}`);
  console.log(`received 5 USDC over IBC (voucher ${received.voucherDenom})`);

  const redeemed = await client.wrapRedeem({ amount: "1.5", voucherDenom: received.voucherDenom });
  console.log(`redeemed 1.5 USDC for the voucher: tx ${redeemed.hash}`);
  const withdrawn = await client.wrapWithdraw({
    amount: "0.25",
    receiver: NOBLE,
    voucherDenom: received.voucherDenom,
  });
  console.log(`withdrew 0.25 USDC to ${NOBLE}: tx ${withdrawn.hash}`);
});
