/**
 * Bridge deposit tracking: a deposit made on the EVM source chain is followed on this chain through
 * OBSERVED, FINALIZED and ACKNOWLEDGED until it is COMPLETED (credited). On a devnet the deposit
 * itself comes from its control route, which stands in for the source chain's bridge contract.
 *
 * Output (checked by tests/examples.test.ts):
 *   deposit <txHash> of <amount> <denom> observed
 *   deposit <id>: <status>
 *   deposit <id> credited: <amount> <denom>
 */
import { randomBytes } from "node:crypto";
import { runExample } from "../support/network.js";

await runExample(async ({ client, wallet }) => {
  const control = client.context.config.endpoints.devnetControl;
  if (control === undefined)
    throw new Error("this example deposits through a devnet's control route (PERPX_DEVNET_CONTROL_URL)");
  const ethTxHash = `0x${randomBytes(32).toString("hex")}`;
  const response = await fetch(`${control}/devnet/bridge/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      sender: `0x${"12".repeat(20)}`,
      address: wallet.address,
      amount: "7000000",
      txHash: ethTxHash,
    }),
  });
  const observed = (await response.json()) as { coin: { denom: string; amount: string } };
  if (!response.ok) throw new Error(`the deposit failed: ${JSON.stringify(observed)}`);
  console.log(`deposit ${ethTxHash} of ${observed.coin.amount} ${observed.coin.denom} observed`);

  const done = await client.trackBridgeDeposit({
    ethTxHash,
    onStatus: (step) => console.log(`deposit ${step.id}: ${step.status}`),
  });
  console.log(`deposit ${done.id} credited: ${done.coin.amount} ${done.coin.denom}`);
});
