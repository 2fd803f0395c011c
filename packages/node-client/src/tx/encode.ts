import { create, type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { cosmosSecp256k1, cosmosTxSigning, ethSecp256k1, schemaOf, type TypeUrl } from "@perpx/proto";
import { sha256HexUpper } from "#crypto-platform";
import { type KeyType, PUBKEY_TYPE_URLS } from "../wallet/signer.js";
import { writeMessage } from "./fastBinary.js";
import { type ProtoWriter, sharedWriter, writeAny } from "./wire.js";

/**
 * One message of a transaction: its type URL and the protobuf-es message (made with `create`).
 * Every builder of this package returns one.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosBank } from "@perpx/proto";
 *
 * const value = create(cosmosBank.MsgSendSchema, { fromAddress: wallet.address, toAddress: wallet.address, amount: [{ denom: "uusdc", amount: "1" }] });
 * const message: TxMessage = { typeUrl: "/cosmos.bank.v1beta1.MsgSend", value };
 * ```
 */
export interface TxMessage<Desc extends DescMessage = DescMessage> {
  /** `/` + the message's full protobuf name. */
  readonly typeUrl: TypeUrl;
  /** The message. */
  readonly value: MessageShape<Desc>;
}

/**
 * A fee coin, the amount in base units as a decimal string (as `Coin.amount` is).
 *
 * @example
 * ```ts
 * const coin: FeeCoinInput = { denom: "uusdc", amount: 5000n };
 * ```
 */
export interface FeeCoinInput {
  denom: string;
  amount: string | bigint;
}

/**
 * The fee of a transaction.
 *
 * @example
 * ```ts
 * const fee: TxFee = { amount: [{ denom: "uusdc", amount: 5000n }], gasLimit: 200_000n };
 * ```
 */
export interface TxFee {
  /** Coins paid; empty for clob transactions (they pay none). */
  amount: readonly FeeCoinInput[];
  /** Gas limit. */
  gasLimit: bigint;
  /** Fee payer, when not the first signer. */
  payer?: string;
  /** Fee granter. */
  granter?: string;
}

/** Parameters of {@link encodeTxBody}. */
export interface TxBodyParams {
  /** The messages, in order. */
  messages: readonly TxMessage[];
  /** @default "" */
  memo?: string;
  /** @default 0n (none) */
  timeoutHeight?: bigint;
  /** Non-critical extension options (f2047), e.g. a `TxExtension` selecting authenticators. @default [] */
  nonCriticalExtensionOptions?: readonly Any[];
}

/**
 * Packs a message into an `Any`, Cosmos style (`/full.Name`).
 *
 * @param message - a message built by one of the `...Msg` builders.
 * @returns the `Any` with the message's type URL and protobuf bytes.
 * @example
 * ```ts
 * const any = toAny(bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] }));
 * any.typeUrl; // "/cosmos.bank.v1beta1.MsgSend"
 * ```
 */
export function toAny(message: TxMessage): Any {
  return create(AnySchema, {
    typeUrl: message.typeUrl,
    value: toBinary(schemaOf(message.typeUrl), message.value),
  });
}

/**
 * Serializes a `TxBody` with protobuf-es.
 *
 * @param params - see `TxBodyParams`: each field is documented there.
 * @returns the `TxBody` bytes to sign and broadcast.
 * @example
 * ```ts
 * const send = bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] });
 * const bodyBytes = encodeTxBody({ messages: [send], memo: "hi" });
 * bodyBytes.length > 0; // true
 * ```
 */
export function encodeTxBody(params: TxBodyParams): Uint8Array {
  // The envelope is written by hand (byte-identical to protobuf-es, see encode.test.ts); only the
  // messages themselves go through protobuf-es.
  return writeTxBody(sharedWriter(), params).finish();
}

/** Writes the fields of a `TxBody` (no tag, no length) at the writer's position. */
export function writeTxBody(writer: ProtoWriter, params: TxBodyParams): ProtoWriter {
  for (const message of params.messages) {
    writer.begin(1).string(1, message.typeUrl).begin(2);
    writeMessage(writer, schemaOf(message.typeUrl), message.value);
    writer.end(true).end();
  }
  writer.string(2, params.memo ?? "").uint64(3, params.timeoutHeight ?? 0n, "timeoutHeight");
  for (const option of params.nonCriticalExtensionOptions ?? []) {
    writeAny(writer, 2047, option.typeUrl, option.value);
  }
  return writer;
}

/**
 * The `Any` of a public key: `/cosmos.crypto.secp256k1.PubKey` or
 * `/cosmos.evm.crypto.v1.ethsecp256k1.PubKey`, each holding the 33-byte compressed key.
 *
 * @param publicKey - the 33-byte compressed public key.
 * @param keyType - `secp256k1` or `eth_secp256k1`.
 * @returns the `Any` that goes in the signer info.
 * @example
 * ```ts
 * encodePublicKey(wallet.publicKey, "secp256k1").typeUrl; // "/cosmos.crypto.secp256k1.PubKey"
 * ```
 */
export function encodePublicKey(publicKey: Uint8Array, keyType: KeyType): Any {
  const value =
    keyType === "eth_secp256k1"
      ? toBinary(ethSecp256k1.PubKeySchema, create(ethSecp256k1.PubKeySchema, { key: publicKey }))
      : toBinary(cosmosSecp256k1.PubKeySchema, create(cosmosSecp256k1.PubKeySchema, { key: publicKey }));
  return create(AnySchema, { typeUrl: PUBKEY_TYPE_URLS[keyType], value });
}

/** Parameters of {@link encodeAuthInfo}. */
export interface AuthInfoParams {
  /** The signing key's 33-byte compressed public key. */
  publicKey: Uint8Array;
  /** The signing key's algorithm. */
  keyType: KeyType;
  /** The account sequence, or a timestamp nonce (unix ms, ≥ 2^40). */
  sequence: bigint;
  /** The fee. */
  fee: TxFee;
  /**
   * The sign mode recorded in the signer info.
   * @default SignMode.DIRECT
   */
  signMode?: cosmosTxSigning.SignMode;
}

/**
 * Serializes an `AuthInfo` with one signer (SIGN_MODE_DIRECT by default).
 *
 * @param params - see `AuthInfoParams`: each field is documented there.
 * @returns the `AuthInfo` bytes to sign and broadcast.
 * @example
 * ```ts
 * const fee = { amount: [{ denom: "uusdc", amount: 5_000n }], gasLimit: 200_000n };
 * const authInfoBytes = encodeAuthInfo({ publicKey: wallet.publicKey, keyType: "secp256k1", sequence: 3n, fee });
 * ```
 */
export function encodeAuthInfo(params: AuthInfoParams): Uint8Array {
  return writeAuthInfo(sharedWriter(), params).finish();
}

/** Writes the fields of an `AuthInfo` with one signer (no tag, no length) at the writer's position. */
export function writeAuthInfo(writer: ProtoWriter, params: AuthInfoParams): ProtoWriter {
  writer.begin(1); // signer_infos[0]
  writer.begin(1).string(1, PUBKEY_TYPE_URLS[params.keyType]).begin(2).bytes(1, params.publicKey).end().end();
  writer
    .begin(2) // mode_info
    .begin(1) // single
    .uint32(1, params.signMode ?? cosmosTxSigning.SignMode.DIRECT)
    .end()
    .end()
    .uint64(3, params.sequence, "sequence")
    .end();
  writer.begin(2); // fee
  for (const coin of params.fee.amount) {
    writer.begin(1).string(1, coin.denom).string(2, String(coin.amount)).end();
  }
  return writer
    .uint64(2, params.fee.gasLimit, "fee.gasLimit")
    .string(3, params.fee.payer ?? "")
    .string(4, params.fee.granter ?? "")
    .end();
}

/**
 * Serializes a SIGN_MODE_DIRECT `SignDoc`.
 *
 * @param doc - the body and auth info bytes, the chain id and the account number.
 * @returns the bytes the signer signs.
 * @example
 * ```ts
 * // SignDoc fields: body_bytes 1, auth_info_bytes 2, chain_id 3, account_number 4.
 * encodeSignDoc({ bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), chainId: "c", accountNumber: 7n });
 * // Uint8Array.of(10, 1, 1, 18, 1, 2, 26, 1, 99, 32, 7)
 * ```
 */
export function encodeSignDoc(doc: {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}): Uint8Array {
  return sharedWriter()
    .bytes(1, doc.bodyBytes)
    .bytes(2, doc.authInfoBytes)
    .string(3, doc.chainId)
    .uint64(4, doc.accountNumber, "accountNumber")
    .finish();
}

/**
 * Serializes the `TxRaw` that is broadcast.
 *
 * @param raw - the body and auth info bytes and one signature per signer.
 * @returns the transaction bytes to broadcast (their SHA-256 is the hash).
 * @example
 * ```ts
 * // TxRaw fields: body_bytes 1, auth_info_bytes 2, signatures 3.
 * encodeTxRaw({ bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), signatures: [Uint8Array.of(3)] });
 * // Uint8Array.of(10, 1, 1, 18, 1, 2, 26, 1, 3)
 * ```
 */
export function encodeTxRaw(raw: {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: readonly Uint8Array[];
}): Uint8Array {
  const writer = sharedWriter().bytes(1, raw.bodyBytes).bytes(2, raw.authInfoBytes);
  for (const signature of raw.signatures) writer.delimited(3, signature);
  return writer.finish();
}

/**
 * The hash of a transaction: uppercase hex of SHA-256 of the `TxRaw` bytes.
 *
 * @param txBytes - the `TxRaw` bytes.
 * @returns 64 uppercase hex digits, the hash nodes and the indexer show.
 * @example
 * ```ts
 * txHash(new Uint8Array()); // "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"
 * ```
 */
export function txHash(txBytes: Uint8Array): string {
  return sha256HexUpper(txBytes);
}
