/**
 * The bytes of a `cosmos.tx.v1beta1.SignDoc` (what SIGN_MODE_DIRECT signs), written directly: the
 * same bytes protobuf-es's `toBinary` writes (fields in number order, empty ones left out), without
 * creating the message and walking its schema for every signature check.
 */
import { cosmosTxSigning } from "@perpx/proto";
import { ProtoWriter } from "../lib/proto-writer.js";

/**
 * SIGN_MODE_DIRECT, the mode these bytes are signed in, read once: under a module runner (vitest)
 * every read of a namespace import's member is a getter call.
 */
export const SIGN_MODE_DIRECT: cosmosTxSigning.SignMode = cosmosTxSigning.SignMode.DIRECT;

/**
 * `SignDoc { body_bytes = 1; auth_info_bytes = 2; chain_id = 3; account_number = 4 }` as protobuf
 * bytes. `accountNumber` is a uint64 (below 2^64).
 */
export function signDocBytes(
  bodyBytes: Uint8Array,
  authInfoBytes: Uint8Array,
  chainId: string,
  accountNumber: bigint,
): Uint8Array {
  // Room for every field (tags, lengths, a uint64): the buffer never grows.
  return new ProtoWriter(bodyBytes.length + authInfoBytes.length + chainId.length * 3 + 32)
    .scalarBytes(1, bodyBytes)
    .scalarBytes(2, authInfoBytes)
    .string(3, chainId)
    .uint64(4, accountNumber)
    .finish();
}
