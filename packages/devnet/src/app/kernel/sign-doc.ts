/**
 * The bytes of a `cosmos.tx.v1beta1.SignDoc` (what SIGN_MODE_DIRECT signs), written directly: the
 * same bytes protobuf-es's `toBinary` writes (fields in number order, empty ones left out), without
 * creating the message and walking its schema for every signature check.
 */
import { utf8 } from "../lib/codec.js";
import { fieldLength, putField } from "./proto-write.js";

/** Bytes of the varint of a uint64 (a bigint below 2^64). */
function varint64(value: bigint): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return bytes;
}

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
  const chain = utf8(chainId);
  const account = accountNumber === 0n ? [] : varint64(accountNumber);
  const size =
    fieldLength(bodyBytes.length) +
    fieldLength(authInfoBytes.length) +
    fieldLength(chain.length) +
    (account.length === 0 ? 0 : 1 + account.length);
  const out = new Uint8Array(size);
  let pos = putField(out, 0, 0x0a, bodyBytes);
  pos = putField(out, pos, 0x12, authInfoBytes);
  pos = putField(out, pos, 0x1a, chain);
  if (account.length > 0) {
    out[pos] = 0x20;
    out.set(account, pos + 1);
  }
  return out;
}
