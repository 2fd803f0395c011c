/**
 * What a tx's signature check will verify, worked out ahead of its CheckTx: for the usual shape (one
 * signer, a secp256k1 key in its signer info, SIGN_MODE_DIRECT), the key, the SignDoc bytes with the
 * signer's account number as the state holds it now, and the signature, so that another thread can
 * do the curve math first (see `ChainApp.prepareTx`). A guess only: CheckTx builds its own sign
 * bytes, and uses a verdict only for exactly the same bytes.
 */
import { addressOfKey, passesSecp256k1Prechecks, SECP256K1_PUBKEY_TYPE_URL } from "../lib/crypto.js";
import type { AuthKeeper, StoreAccess } from "../modules/auth/auth.js";
import { pubKeyBytes } from "./ante.js";
import { SIGN_MODE_DIRECT, signDocBytes } from "./sign-doc.js";
import { MAX_TX_BYTES } from "./tx-exec.js";
import { readAuthInfo, readTxRaw } from "./tx-wire.js";

/** A signature to verify: ECDSA over SHA-256 of `signBytes` under the compressed secp256k1 `key`. */
export interface SignatureRequest {
  readonly key: Uint8Array;
  readonly signBytes: Uint8Array;
  readonly signature: Uint8Array;
}

/**
 * The signature check the ante step would make for `tx` over `state` (its accounts), when the tx
 * has the usual single-signer secp256k1 SIGN_MODE_DIRECT shape and passes the checks made before
 * the curve math (low-S, a valid key); undefined otherwise. Never throws.
 */
export function signatureRequest(
  tx: Uint8Array,
  chainId: string,
  auth: AuthKeeper,
  state: () => StoreAccess,
): SignatureRequest | undefined {
  try {
    if (tx.length > MAX_TX_BYTES) return undefined;
    const raw = readTxRaw(tx);
    if (raw === undefined || raw.signatures.length !== 1) return undefined;
    const infos = readAuthInfo(raw.authInfoBytes)?.signerInfos;
    const info = infos?.length === 1 ? infos[0] : undefined;
    const mode = info?.modeInfo?.sum;
    if (mode?.case !== "single" || mode.value.mode !== SIGN_MODE_DIRECT) return undefined;
    if (info?.publicKey?.typeUrl !== SECP256K1_PUBKEY_TYPE_URL) return undefined;
    const signature = raw.signatures[0] as Uint8Array;
    const infoKey = pubKeyBytes(info.publicKey.value);
    const account = auth.getAccount(state(), addressOfKey("secp256k1", infoKey));
    if (account === undefined) return undefined;
    // The ante step verifies with the account's key when it has one.
    const key = account.pubKey ?? { algo: "secp256k1", key: infoKey };
    if (key.algo !== "secp256k1" || !passesSecp256k1Prechecks(key.key, signature)) return undefined;
    const signBytes = signDocBytes(raw.bodyBytes, raw.authInfoBytes, chainId, account.accountNumber);
    return { key: key.key, signBytes, signature };
  } catch {
    return undefined;
  }
}
