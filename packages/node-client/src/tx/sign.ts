import { create, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { accountplus, typeUrlOf } from "@perpx/proto";
import { checkParams } from "../messages/validate.js";
import type { TxSigner } from "../wallet/signer.js";
import {
  encodeAuthInfo,
  encodeSignDoc,
  encodeTxBody,
  encodeTxRaw,
  type TxFee,
  type TxMessage,
  txHash,
} from "./encode.js";

/**
 * The `Any` of a `TxExtension` selecting one authenticator per message, for
 * `TxBody.non_critical_extension_options`.
 *
 * @example
 * ```ts
 * const extension = txExtension([3n]);
 * ```
 */
export function txExtension(selectedAuthenticators: readonly bigint[]): Any {
  const value = toBinary(
    accountplus.TxExtensionSchema,
    create(accountplus.TxExtensionSchema, { selectedAuthenticators: [...selectedAuthenticators] }),
  );
  return create(AnySchema, { typeUrl: typeUrlOf(accountplus.TxExtensionSchema), value });
}

/**
 * Parameters of {@link signTx}.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const fee = { amount: [{ denom: "uusdc", amount: 5_000n }], gasLimit: 200_000n };
 * const params: SignTxParams = { signer: wallet, messages, chainId: "perpx-local-1", accountNumber: 4n, sequence: 3n, fee };
 * (await signTx(params)).signature.length; // 64
 * ```
 */
export interface SignTxParams {
  /** The key that signs. */
  signer: TxSigner;
  /** The messages, in order. */
  messages: readonly TxMessage[];
  /** The chain id. */
  chainId: string;
  /** The account number of the signing account (the owner's when a trading key signs). */
  accountNumber: bigint;
  /** The sequence (the owner's when a trading key signs) or a timestamp nonce. */
  sequence: bigint;
  /** Fee and gas limit. */
  fee: TxFee;
  /** @default "" */
  memo?: string;
  /** @default 0n */
  timeoutHeight?: bigint;
  /**
   * Authenticator ids, one per message (same order), when a permissioned key signs for its owner;
   * they go into a `TxExtension` in the non-critical extension options.
   * @default undefined (classic signature path)
   */
  authenticators?: readonly bigint[];
}

/**
 * A signed transaction, ready to broadcast.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const fee = { amount: [{ denom: "uusdc", amount: 5_000n }], gasLimit: 200_000n };
 * const { txBytes, hash }: SignedTx = await signTx({ signer: wallet, messages, chainId: "perpx-local-1", accountNumber: 4n, sequence: 3n, fee });
 * hash === txHash(txBytes); // true
 * ```
 */
export interface SignedTx {
  /** The `TxRaw` bytes. */
  txBytes: Uint8Array;
  /** Uppercase hex SHA-256 of `txBytes`. */
  hash: string;
  /** The body bytes that were signed. */
  bodyBytes: Uint8Array;
  /** The auth info bytes that were signed. */
  authInfoBytes: Uint8Array;
  /** The signature. */
  signature: Uint8Array;
}

/**
 * Builds, signs (SIGN_MODE_DIRECT) and serializes a transaction with protobuf-es, no cosmjs in the path.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const fee = { amount: [{ denom: "uusdc", amount: 5_000n }], gasLimit: 200_000n };
 * // Signs offline: the chain id, account number and sequence are yours to give (`sendTx` reads them).
 * const { accountNumber, sequence } = await getAccountSequence(client, { address: wallet.address });
 * const signed = await signTx({ signer: wallet, messages, chainId: "perpx-local-1", accountNumber, sequence, fee });
 * signed.hash.length; // 64
 * ```
 */
export async function signTx(params: SignTxParams): Promise<SignedTx> {
  checkParams(params, "signTx");
  const bodyBytes = encodeTxBody({
    messages: params.messages,
    ...(params.memo === undefined ? {} : { memo: params.memo }),
    ...(params.timeoutHeight === undefined ? {} : { timeoutHeight: params.timeoutHeight }),
    ...(params.authenticators?.length
      ? { nonCriticalExtensionOptions: [txExtension(params.authenticators)] }
      : {}),
  });
  const authInfoBytes = encodeAuthInfo({
    publicKey: params.signer.publicKey,
    keyType: params.signer.keyType,
    sequence: params.sequence,
    fee: params.fee,
  });
  const doc = { bodyBytes, authInfoBytes, chainId: params.chainId, accountNumber: params.accountNumber };
  const signed = await params.signer.signDirect(doc, encodeSignDoc(doc));
  const txBytes = encodeTxRaw({
    bodyBytes: signed.bodyBytes,
    authInfoBytes: signed.authInfoBytes,
    signatures: [signed.signature],
  });
  return {
    txBytes,
    hash: txHash(txBytes),
    bodyBytes: signed.bodyBytes,
    authInfoBytes: signed.authInfoBytes,
    signature: signed.signature,
  };
}
