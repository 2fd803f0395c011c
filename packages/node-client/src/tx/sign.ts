import { create, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { accountplus, typeUrlOf } from "@perpx/proto";
import { checkParams } from "../messages/validate.js";
import type { DirectSignature, TxSigner } from "../wallet/signer.js";
import {
  encodeTxRaw,
  type TxBodyParams,
  type TxFee,
  type TxMessage,
  txHash,
  writeAuthInfo,
  writeTxBody,
} from "./encode.js";
import { allocBytes, sharedWriter } from "./wire.js";

/**
 * The `Any` of a `TxExtension` selecting one authenticator per message, for
 * `TxBody.non_critical_extension_options`.
 *
 * @param selectedAuthenticators - the authenticator id to use for each message, in message order.
 * @returns the `Any` to put in the body's non-critical extension options.
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
 * @param params - see `SignTxParams`: each field is documented there.
 * @returns resolves with the signed transaction's bytes and hash, ready for `broadcastTx`.
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
export function signTx(params: SignTxParams): Promise<SignedTx> {
  try {
    checkParams(params, "signTx");
    // The SignDoc is written in one pass: its fields 1 and 2 are the body and the auth info, written
    // in place (no copy of either), and they are also the first two fields of the TxRaw, which
    // reuses them with one copy. `bodyBytes` and `authInfoBytes` are views of the SignDoc's bytes.
    const writer = sharedWriter().begin(1);
    writeTxBody(
      writer,
      params.authenticators?.length ? withExtension(params, params.authenticators) : params,
    ).end(true);
    writeAuthInfo(writer.begin(2), {
      publicKey: params.signer.publicKey,
      keyType: params.signer.keyType,
      sequence: params.sequence,
      fee: params.fee,
    }).end(true);
    const signDocBytes = writer
      .string(3, params.chainId)
      .uint64(4, params.accountNumber, "accountNumber")
      .finish();
    const envelope = envelopeOf(signDocBytes);
    const doc = {
      bodyBytes: envelope.bodyBytes,
      authInfoBytes: envelope.authInfoBytes,
      chainId: params.chainId,
      accountNumber: params.accountNumber,
    };
    const signed = params.signer.signDirect(doc, signDocBytes);
    // A local key signs synchronously: no await, so no extra turn of the microtask queue.
    return isPromiseLike(signed)
      ? Promise.resolve(signed).then((result) => signedTx(signDocBytes, envelope, result))
      : Promise.resolve(signedTx(signDocBytes, envelope, signed));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The body of a permissioned key's tx: its authenticators in a `TxExtension` (no object spread). */
function withExtension(params: SignTxParams, authenticators: readonly bigint[]): TxBodyParams {
  const body: TxBodyParams = {
    messages: params.messages,
    nonCriticalExtensionOptions: [txExtension(authenticators)],
  };
  if (params.memo !== undefined) body.memo = params.memo;
  if (params.timeoutHeight !== undefined) body.timeoutHeight = params.timeoutHeight;
  return body;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === "function";
}

/** The signed transaction of a signature over `signDoc`. */
function signedTx(
  signDoc: Uint8Array,
  envelope: ReturnType<typeof envelopeOf>,
  signed: DirectSignature,
): SignedTx {
  const txBytes =
    signed.bodyBytes === envelope.bodyBytes && signed.authInfoBytes === envelope.authInfoBytes
      ? txRawAfter(signDoc, envelope.envelopeLength, signed.signature)
      : encodeTxRaw({
          bodyBytes: signed.bodyBytes,
          authInfoBytes: signed.authInfoBytes,
          signatures: [signed.signature],
        });
  const tx = { txBytes } as SignedTx;
  Object.defineProperty(tx, "hash", LAZY_HASH);
  tx.bodyBytes = signed.bodyBytes;
  tx.authInfoBytes = signed.authInfoBytes;
  tx.signature = signed.signature;
  return tx;
}

/** The hashes of signed transactions already read (see {@link LAZY_HASH}). */
const hashes = new WeakMap<object, string>();

/**
 * `SignedTx.hash`: an own, enumerable accessor that computes the SHA-256 of `txBytes` when first
 * read, so a sender that never reads it pays no hash and hex per tx. One descriptor shared by every
 * signed tx: a getter written in each object literal (a closure per tx) made V8 build every result
 * on its slow path, which cost more than the encoding.
 */
const LAZY_HASH: PropertyDescriptor = {
  get(this: SignedTx): string {
    let hash = hashes.get(this);
    if (hash === undefined) {
      hash = txHash(this.txBytes);
      hashes.set(this, hash);
    }
    return hash;
  },
  enumerable: true,
  configurable: true,
};

const EMPTY = new Uint8Array(0);

/** Reads a varint at `at`; returns the value and the position after it. */
function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/**
 * The body and auth info inside a SignDoc's bytes (fields 1 and 2, each omitted when empty), as
 * views, and where they end.
 */
function envelopeOf(signDoc: Uint8Array): {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  envelopeLength: number;
} {
  let at = 0;
  let bodyBytes: Uint8Array = EMPTY;
  let authInfoBytes: Uint8Array = EMPTY;
  if (signDoc[at] === 0x0a) {
    const [length, start] = readVarint(signDoc, at + 1);
    bodyBytes = signDoc.subarray(start, start + length);
    at = start + length;
  }
  if (signDoc[at] === 0x12) {
    const [length, start] = readVarint(signDoc, at + 1);
    authInfoBytes = signDoc.subarray(start, start + length);
    at = start + length;
  }
  return { bodyBytes, authInfoBytes, envelopeLength: at };
}

/**
 * The `TxRaw` of a signed SignDoc: the SignDoc's first `envelopeLength` bytes (its body and auth
 * info fields, which are the TxRaw's fields 1 and 2 byte for byte) and the signature as field 3.
 */
function txRawAfter(signDoc: Uint8Array, envelopeLength: number, signature: Uint8Array): Uint8Array {
  let lengthSize = 1;
  for (let v = signature.length; v > 0x7f; v >>>= 7) lengthSize++;
  const tx = allocBytes(envelopeLength + 1 + lengthSize + signature.length);
  tx.set(signDoc.subarray(0, envelopeLength));
  let at = envelopeLength;
  tx[at++] = 0x1a; // field 3, length-delimited
  let v = signature.length;
  while (v > 0x7f) {
    tx[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  tx[at++] = v;
  tx.set(signature, at);
  return tx;
}
