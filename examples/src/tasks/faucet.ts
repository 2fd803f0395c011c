/**
 * The faucet (devnet, testnet): funds an account given in either address form, its bank balance
 * (USDC and native tokens) and its subaccount 0; a refusal is a typed `FaucetError` with the
 * faucet's reason; an address that is not one is refused before anything is sent.
 *
 * Output (checked by tests/examples.test.ts):
 *   new wallet: perpx1<rest>
 *   faucet (0x form): credited <coins> to perpx1<rest>
 *   subaccount 0: <amount> USDC
 *   refused before sending: InvalidAddressError bad-checksum
 */
import { addressToHex, InvalidAddressError } from "@perpx/core";
import { LocalWallet } from "@perpx/node-client/wallets";
import { runExample } from "../support/network.js";

await runExample(async ({ client, connect }) => {
  const fresh = LocalWallet.generate();
  console.log(`new wallet: ${fresh.address}`);
  const grant = await client.faucet({ owner: addressToHex(fresh.address) });
  const coins = grant.credited.map((c) => `${c.amount}${c.denom}`).join(" and ");
  console.log(`faucet (0x form): credited ${coins} to ${grant.address}`);
  const funded = await connect({ wallet: fresh });
  console.log(`subaccount 0: ${(await funded.account()).usdc} USDC`);
  try {
    // The new wallet's address with its last character changed: the checksum no longer matches.
    const typo = `${fresh.address.slice(0, -1)}${fresh.address.endsWith("q") ? "p" : "q"}`;
    await client.faucet({ owner: typo });
    throw new Error("the faucet accepted an invalid address");
  } catch (error) {
    if (!(error instanceof InvalidAddressError)) throw error;
    console.log(`refused before sending: ${error.name} ${error.reason}`);
  }
});
