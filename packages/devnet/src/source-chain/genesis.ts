/**
 * The source chains' genesis: the devnet test accounts' EVM wallets (`EvmWallet.fromMnemonic` of
 * `@perpx/node-client`, path m/44'/60'/0'/0/0 of each test mnemonic) hold ETH for gas and USDC.
 */

/** The EVM addresses of the test accounts alice, bob, carl, dave and emma (path m/44'/60'/0'/0/0). */
export const SOURCE_GENESIS_ADDRESSES: readonly string[] = Object.freeze([
  "0xaA52DF975c99dB19e7BCc0A1147B2009E74F9C4E",
  "0x241bFe2f41E6AaD3b0b1368333b8d480CFe6D39F",
  "0xBEBdFE93836fDf07165455D54f2fD4398963289e",
  "0x586BDdC3c9653734835567c1507DBe8DF6D9888C",
  "0xA249957f078c8c81BE38100A04908Cbbc618b54A",
]);

/** ETH of each test account at genesis: 100 ETH. */
export const SOURCE_GENESIS_ETH = 100n * 10n ** 18n;
/** USDC of each test account at genesis: 1,000,000 USDC (6 decimals). */
export const SOURCE_GENESIS_USDC = 1_000_000n * 10n ** 6n;
