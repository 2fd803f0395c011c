/**
 * The perpx demo: a wallet's two address forms, the constants of the three network presets, then
 * a round of trading on a devnet started in this process (see `trading.ts`).
 *
 *   npm run demo                          a fresh random wallet
 *   npm run demo -- --mnemonic "w1 … w24"  the wallet of a given 24-word mnemonic (index 0)
 *   PERPX_MNEMONIC="w1 … w24" npm run demo
 */
import { addressToHex, getNetwork, NETWORK_NAMES, toValoperAddress, USDC_ASSET_ID } from "@perpx/core";
import { EvmWallet, LocalWallet } from "@perpx/node-client/wallets";
import { runTradingDemo } from "./trading.js";

function mnemonicFromArgs(argv: readonly string[]): string | undefined {
  const at = argv.indexOf("--mnemonic");
  if (at >= 0) return argv[at + 1];
  return process.env.PERPX_MNEMONIC || undefined;
}

const given = mnemonicFromArgs(process.argv.slice(2));
const { mnemonic, wallet } = given
  ? { mnemonic: given, wallet: LocalWallet.fromMnemonic(given) }
  : LocalWallet.generateWithMnemonic();
const evm = EvmWallet.fromMnemonic(mnemonic);

console.log(`# Wallet (${given ? "from the given mnemonic" : "freshly generated"}, index 0)`);
if (!given) console.log(`mnemonic:        ${mnemonic}`);
console.log(`cosmos key m/44'/118'/0'/0/0`);
console.log(`  native:        ${wallet.address}`);
console.log(`  EVM form:      ${addressToHex(wallet.address)}`);
console.log(`  validator:     ${toValoperAddress(wallet.address)}`);
console.log(`EVM key m/44'/60'/0'/0/0 (eth_secp256k1; a different account)`);
console.log(`  native:        ${evm.address}`);
console.log(`  EVM form:      ${evm.evmAddress}`);

for (const name of NETWORK_NAMES) {
  const network = getNetwork(name);
  console.log(`\n# Network ${name}`);
  console.log(`chain id:        ${network.chainId}`);
  console.log(`EVM chain id:    ${network.evmChainId} (${network.evmChainIdHex})`);
  console.log(`bech32 prefixes: ${network.bech32Prefix} / ${network.valoperPrefix}`);
  console.log(
    `native token:    ${network.nativeToken.denom} (${network.nativeToken.decimals} decimals, ${network.nativeToken.symbol})`,
  );
  console.log(
    `USDC:            ${network.usdc.denom} (${network.usdc.decimals} decimals, asset id ${USDC_ASSET_ID})`,
  );
  console.log(
    `min gas prices:  ${network.minimumGasPrices.map(({ denom, amount }) => `${amount}${denom}`).join(", ")}`,
  );
  const upgrades = network.upgrades.map(({ version, height }) => `${version}@${height}`);
  console.log(`upgrades:        ${upgrades.length > 0 ? upgrades.join(" ") : "(none)"}`);
  console.log(`running version: ${network.latestVersion}`);
}

await runTradingDemo((line) => console.log(line));
