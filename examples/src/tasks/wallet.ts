/**
 * Wallet and addresses: one 24-word mnemonic gives a Cosmos key (its native `perpx1...` address,
 * the same account's EVM form and its validator form) and a different EVM key (eth_secp256k1).
 *
 * Output (checked by tests/examples.test.ts):
 *   network: <name>
 *   native address: perpx1<rest>
 *   EVM form: 0x<hex>
 *   validator form: perpxvaloper1<rest>
 *   back to native: perpx1<rest>
 *   EVM key, native: perpx1<rest>
 *   EVM key, 0x: 0x<hex>
 *   a new wallet: perpx1<rest>
 */
import { addressToHex, toBech32, toValoperAddress } from "@perpx/core";
import { EvmWallet, LocalWallet } from "@perpx/node-client/wallets";
import { runExample } from "../support/network.js";

await runExample(async ({ name, wallet }) => {
  console.log(`network: ${name}`);
  console.log(`native address: ${wallet.address}`);
  const hex = addressToHex(wallet.address);
  console.log(`EVM form: ${hex}`);
  console.log(`validator form: ${toValoperAddress(wallet.address)}`);
  console.log(`back to native: ${toBech32(hex)}`);

  // The EVM key of the same mnemonic is another account (path m/44'/60'/0'/0/0).
  const { mnemonic } = LocalWallet.generateWithMnemonic();
  const evm = EvmWallet.fromMnemonic(mnemonic);
  console.log(`EVM key, native: ${evm.address}`);
  console.log(`EVM key, 0x: ${evm.evmAddress}`);
  console.log(`a new wallet: ${LocalWallet.fromMnemonic(mnemonic).address}`);
});
