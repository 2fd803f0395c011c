import { addressBytes, addressBytesToBech32 } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import { bytesEqual, fromBase64 } from "../bytes.js";
import type { DirectSignature, KeyType, SignDocFields, TxSigner } from "./signer.js";

/**
 * The structural shape of a cosmjs `OfflineDirectSigner` (Keplr, Leap, cosmjs wallets...): we
 * need no cosmjs import to accept one.
 *
 * @example
 * ```ts
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 *
 * const signer: OfflineDirectSignerLike = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
 * ```
 */
export interface OfflineDirectSignerLike {
  getAccounts(): Promise<
    readonly { readonly address: string; readonly algo: string; readonly pubkey: Uint8Array }[]
  >;
  signDirect(
    signerAddress: string,
    signDoc: { bodyBytes: Uint8Array; authInfoBytes: Uint8Array; chainId: string; accountNumber: bigint },
  ): Promise<{
    readonly signed: { bodyBytes: Uint8Array; authInfoBytes: Uint8Array };
    readonly signature: { readonly signature: string };
  }>;
}

/**
 * Options of {@link fromOfflineSigner}.
 *
 * @example
 * ```ts
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 *
 * // A signer holding several accounts (Keplr, a cosmjs wallet): pick one by address.
 * const external = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
 * const options: FromOfflineSignerOptions = { address: wallet.address };
 * (await fromOfflineSigner(external, options)).address === wallet.address; // true
 * ```
 */
export interface FromOfflineSignerOptions {
  /**
   * Which of the signer's accounts to use.
   * @default the first account
   */
  address?: string;
}

function keyTypeOf(algo: string): KeyType {
  if (algo === "secp256k1") return "secp256k1";
  if (algo === "eth_secp256k1" || algo === "ethsecp256k1") return "eth_secp256k1";
  throw new InvalidArgumentError("signer", `unsupported key algorithm ${JSON.stringify(algo)}`);
}

/**
 * Adapts an external cosmjs `OfflineDirectSigner` (secp256k1 or eth_secp256k1) to a
 * {@link TxSigner}. If the external wallet changes the doc it signs (a fee, say), the signed bytes
 * are what goes on chain.
 *
 * @param signer - the external signer.
 * @param options - which account to use.
 * @returns a signer for `signTx` and the node client.
 * @throws {InvalidArgumentError} when the account is not there or its algorithm is not supported.
 *
 * @example
 * ```ts
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 *
 * const signer = await fromOfflineSigner(await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" }));
 * // It signs like a LocalWallet: sendTx takes it.
 * signer.address === wallet.address; // true
 * ```
 */
export async function fromOfflineSigner(
  signer: OfflineDirectSignerLike,
  options: FromOfflineSignerOptions = {},
): Promise<TxSigner> {
  const accounts = await signer.getAccounts();
  const wanted = options.address === undefined ? undefined : addressBytes(options.address);
  const account = wanted ? accounts.find((a) => bytesEqual(addressBytes(a.address), wanted)) : accounts[0];
  if (!account) {
    throw new InvalidArgumentError(
      "options.address",
      `the signer has no account ${options.address ?? ""}`.trim(),
    );
  }
  const keyType = keyTypeOf(account.algo);
  const address = account.address;
  const prefix = address.slice(0, address.lastIndexOf("1"));
  return {
    address: addressBytesToBech32(addressBytes(address, { prefix }), prefix),
    publicKey: account.pubkey,
    keyType,
    async signDirect(doc: SignDocFields): Promise<DirectSignature> {
      const response = await signer.signDirect(address, { ...doc });
      return {
        bodyBytes: response.signed.bodyBytes,
        authInfoBytes: response.signed.authInfoBytes,
        signature: fromBase64(response.signature.signature),
      };
    },
  };
}
