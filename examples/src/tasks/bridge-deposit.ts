/**
 * Bridge deposit: USDC leaves an EVM wallet on the bridge's L1 source chain (an `approve` of the
 * bridge when the allowance is short, then the bridge's `deposit`, both signed EIP-1559
 * transactions sent over the source chain's JSON-RPC, `PERPX_SOURCE_L1_RPC_URL`), and is followed
 * on this chain through OBSERVED, FINALIZED and ACKNOWLEDGED until it is COMPLETED (credited to the
 * example's wallet). The EVM wallet is `PERPX_EVM_MNEMONIC`'s (path m/44'/60'/0'/0/0), or on a
 * devnet without one its first test account's, which holds ETH and USDC on both source chains.
 *
 * Output (checked by tests/examples.test.ts):
 *   deposit <txHash> mined in source block <n>
 *   deposit <txHash> of <amount> <denom> observed
 *   deposit <id>: <status>
 *   deposit <id> credited: <amount> <denom>
 */
import { GENESIS_ACCOUNTS } from "@perpx/devnet";
import { EvmWallet } from "@perpx/node-client/wallets";
import { runExample } from "../support/network.js";

await runExample(async ({ client, name, wallet }) => {
  const mnemonic =
    process.env.PERPX_EVM_MNEMONIC?.trim() || (name === "local" ? GENESIS_ACCOUNTS[0]?.mnemonic : undefined);
  if (mnemonic === undefined)
    throw new Error(`on ${name}, set PERPX_EVM_MNEMONIC to the EVM wallet that holds the USDC`);
  const evmSigner = EvmWallet.fromMnemonic(mnemonic);

  const deposit = await client.bridgeDeposit({
    amount: "7",
    source: "l1",
    evmSigner,
    recipient: wallet.address,
  });
  console.log(`deposit ${deposit.txHash} mined in source block ${deposit.blockNumber}`);
  // `deposit.credited` resolves when credited; following the deposit by hash shows each step.
  let observed = false;
  const done = await client.trackBridgeDeposit({
    ethTxHash: deposit.txHash,
    address: deposit.recipient,
    onStatus: (step) => {
      if (!observed)
        console.log(`deposit ${deposit.txHash} of ${step.coin.amount} ${step.coin.denom} observed`);
      observed = true;
      console.log(`deposit ${step.id}: ${step.status}`);
    },
  });
  console.log(`deposit ${done.id} credited: ${done.coin.amount} ${done.coin.denom}`);
});
