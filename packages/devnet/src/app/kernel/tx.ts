/**
 * Decoding a broadcast tx (`TxRaw`) into what the ante step and the message router need. Failures
 * are sdk code 2 (tx parse error) or 6 (no handler for a message type), as the SDK reports them.
 */
import { fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import { bytesKey } from "../lib/codec.js";
import type { Coin } from "../lib/coins.js";
import { abciError, sdkErrors } from "../lib/errors.js";
import { sha256 } from "../lib/sha256.js";
import { coinsFromProto } from "../modules/bank/bank.js";
import type { MsgHandler, Router } from "./module.js";
import { ORDER_MSG_READERS } from "./order-wire.js";
import { readAuthInfo, readTxBody, readTxRaw } from "./tx-wire.js";

/** One decoded message with its handler. */
export interface DecodedMsg {
  readonly typeUrl: string;
  readonly handler: MsgHandler;
  readonly msg: MessageShape<MsgHandler["schema"]>;
  /** The signers the handler names for it (bech32). */
  readonly signers: readonly string[];
}

/** A decoded tx. */
export interface DecodedTx {
  /** The TxRaw bytes as broadcast. */
  readonly bytes: Uint8Array;
  /** SHA-256 of `bytes`. */
  readonly hash: Uint8Array;
  /** `hash` as a string of one char per byte (`bytesKey`): the key of the sets of tx hashes. */
  readonly hashKey: string;
  readonly raw: cosmosTx.TxRaw;
  readonly body: cosmosTx.TxBody;
  readonly authInfo: cosmosTx.AuthInfo;
  readonly msgs: readonly DecodedMsg[];
  /** Unique signers of all messages, in order of first appearance (the SDK's `GetSigners`). */
  readonly signers: readonly string[];
  readonly fee: readonly Coin[];
  readonly gasLimit: bigint;
}

function parseError(context: string) {
  return abciError(sdkErrors.txDecode, context);
}

/**
 * Decodes TxRaw bytes, its body and auth info (directly for the usual shapes, see `tx-wire.ts`,
 * else by protobuf-es), and each message through the router (the clob's order messages directly
 * when they take the usual shape, see `order-wire.ts`).
 *
 * @throws {AbciError} sdk 2 for bytes that do not decode, sdk 6 for a message type with no handler,
 * sdk 18 for a tx without messages.
 */
export function decodeTx(bytes: Uint8Array, router: Router): DecodedTx {
  let raw: cosmosTx.TxRaw;
  let body: cosmosTx.TxBody;
  let authInfo: cosmosTx.AuthInfo;
  try {
    raw = readTxRaw(bytes) ?? fromBinary(cosmosTx.TxRawSchema, bytes);
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : String(error));
  }
  try {
    body = readTxBody(raw.bodyBytes) ?? fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
  } catch (error) {
    throw parseError(`failed to decode tx body: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    authInfo = readAuthInfo(raw.authInfoBytes) ?? fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes);
  } catch (error) {
    throw parseError(`failed to decode auth info: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (body.messages.length === 0)
    throw abciError(sdkErrors.invalidRequest, "must contain at least one message");
  const msgs: DecodedMsg[] = [];
  const signers: string[] = [];
  for (const any of body.messages) {
    const handler = router.msg(any.typeUrl);
    if (handler === undefined) {
      throw abciError(
        sdkErrors.unknownRequest,
        `unrecognized message type: ${any.typeUrl}; no message handler found`,
      );
    }
    let msg: MessageShape<MsgHandler["schema"]>;
    try {
      msg =
        ORDER_MSG_READERS.get(handler.schema.typeName)?.(any.value) ?? fromBinary(handler.schema, any.value);
    } catch (error) {
      throw parseError(
        `failed to decode ${any.typeUrl}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const msgSigners = handler.signers(msg);
    for (const signer of msgSigners) if (!signers.includes(signer)) signers.push(signer);
    msgs.push({ typeUrl: any.typeUrl, handler, msg, signers: msgSigners });
  }
  let fee: Coin[] = [];
  try {
    fee = coinsFromProto(authInfo.fee?.amount ?? []);
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : String(error));
  }
  const hash = sha256(bytes);
  return {
    bytes,
    hash,
    hashKey: bytesKey(hash),
    raw,
    body,
    authInfo,
    msgs,
    signers,
    fee,
    gasLimit: authInfo.fee?.gasLimit ?? 0n,
  };
}
