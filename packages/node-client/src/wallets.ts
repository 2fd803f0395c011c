/**
 * `@perpx/node-client/wallets`: keys that sign transactions. Cosmos wallets (`LocalWallet`), EVM
 * wallets that approve trading keys with EIP-712 (`EvmWallet`), trading keys from a credential,
 * external cosmjs signers, mnemonics and HD paths, and the signer backends (noble, or libsecp256k1
 * through `@perpx/node-client/native`).
 *
 * @packageDocumentation
 */
export {
  activeSignerBackend,
  jsSignerBackend,
  resolveSignerBackend,
  type SignerBackend,
  type SignerBackendName,
  type SignerBackendOption,
} from "./crypto/backend.js";
export { EvmWallet } from "./wallet/evmWallet.js";
export { cosmosHdPath, evmHdPath, generateMnemonic24, isValidMnemonic } from "./wallet/hd.js";
export {
  type FromMnemonicOptions,
  LocalWallet,
  type WalletJson,
  type WalletOptions,
} from "./wallet/localWallet.js";
export {
  type FromOfflineSignerOptions,
  fromOfflineSigner,
  type OfflineDirectSignerLike,
} from "./wallet/offlineSigner.js";
export { SecretKey } from "./wallet/secretKey.js";
export { type TradingKey, tradingKeyFromCredential } from "./wallet/tradingKey.js";
