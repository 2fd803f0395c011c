/**
 * Ethereum transactions: EIP-1559 (type 2) and legacy (EIP-155 replay-protected, or not), their
 * signing hashes, signed encodings, decoding and sender recovery.
 *
 * The devnet's own hand-written reference implementation: clients encode with `ox` (through
 * `@perpx/core/evm`), so every wire test checks one implementation against the other.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import { recoverAddress } from "./eip712.js";
import { bytesToUint, type RlpItem, rlpDecode, rlpEncode, uintToBytes } from "./rlp.js";

/**
 * The fields every transaction has. `to` undefined is a contract creation.
 *
 * @example
 * ```ts
 * const base: EvmTxBase = { chainId: 1n, nonce: 0n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 1n, data: new Uint8Array(0) };
 * ```
 */
export interface EvmTxBase {
  /** EIP-155 chain id; `undefined` only for a legacy transaction without replay protection. */
  readonly chainId: bigint | undefined;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  readonly to: `0x${string}` | undefined;
  /** Wei sent along. */
  readonly value: bigint;
  /** Call data. */
  readonly data: Uint8Array;
}

/**
 * An EIP-1559 (type 2) transaction.
 *
 * @example
 * ```ts
 * const tx: Eip1559Tx = { type: 2, chainId: 11155111n, nonce: 0n, maxPriorityFeePerGas: 1n, maxFeePerGas: 2_000_000_000n, gasLimit: 60_000n, to: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", value: 0n, data: new Uint8Array(0) };
 * ```
 */
export interface Eip1559Tx extends EvmTxBase {
  readonly type: 2;
  readonly chainId: bigint;
  readonly maxPriorityFeePerGas: bigint;
  readonly maxFeePerGas: bigint;
}

/**
 * A legacy (type 0) transaction.
 *
 * @example
 * ```ts
 * const tx: LegacyTx = { type: 0, chainId: 1n, nonce: 9n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 10n ** 18n, data: new Uint8Array(0) };
 * ```
 */
export interface LegacyTx extends EvmTxBase {
  readonly type: 0;
  readonly gasPrice: bigint;
}

/**
 * A transaction of either type.
 *
 * @example
 * ```ts
 * const fee = (tx: EvmTx) => (tx.type === 2 ? tx.maxFeePerGas : tx.gasPrice);
 * ```
 */
export type EvmTx = Eip1559Tx | LegacyTx;

/**
 * A secp256k1 transaction signature.
 *
 * @example
 * ```ts
 * const signature: EvmTxSignature = { yParity: 0, r: 1n, s: 2n };
 * ```
 */
export interface EvmTxSignature {
  readonly yParity: 0 | 1;
  readonly r: bigint;
  readonly s: bigint;
}

/**
 * What signs a transaction: `sign(bytes)` returns 65 bytes `r || s || v` (v 0 or 1) over
 * Keccak-256(bytes), as `EvmWallet.sign` of `@perpx/node-client` does.
 *
 * @example
 * ```ts
 * // EvmWallet of @perpx/node-client is one; any object with these two members will do.
 * const signer: EvmTxSigner = { evmAddress: "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F", sign: () => new Uint8Array(65) };
 * ```
 */
export interface EvmTxSigner {
  readonly evmAddress: string;
  sign(bytes: Uint8Array): Uint8Array;
}

/**
 * A decoded signed transaction with its hash and recovered sender.
 *
 * @example
 * ```ts
 * const { from, hash, tx }: SignedEvmTx = decodeSignedEvmTx("0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83");
 * tx.nonce; // 9n
 * ```
 */
export interface SignedEvmTx {
  readonly tx: EvmTx;
  readonly signature: EvmTxSignature;
  /** Keccak-256 of the raw bytes, `0x` hex. */
  readonly hash: `0x${string}`;
  /** The recovered sender, EIP-55. */
  readonly from: `0x${string}`;
}

const addressItem = (to: string | undefined): Uint8Array =>
  to === undefined ? new Uint8Array(0) : hexToBytes(to.slice(2));

function unsignedItems(tx: EvmTx): RlpItem[] {
  const common = [uintToBytes(tx.gasLimit), addressItem(tx.to), uintToBytes(tx.value), tx.data];
  if (tx.type === 2) {
    return [
      uintToBytes(tx.chainId),
      uintToBytes(tx.nonce),
      uintToBytes(tx.maxPriorityFeePerGas),
      uintToBytes(tx.maxFeePerGas),
      ...common,
      [],
    ];
  }
  return [uintToBytes(tx.nonce), uintToBytes(tx.gasPrice), ...common];
}

function typed(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = type;
  out.set(body, 1);
  return out;
}

/**
 * The bytes a transaction's signature covers (its hash is Keccak-256 of them).
 *
 * @example
 * ```ts
 * const tx: EvmTx = { type: 0, chainId: 1n, nonce: 9n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 10n ** 18n, data: new Uint8Array(0) };
 * evmTxSigningPayload(tx).length; // 45
 * evmTxSigningPayload({ ...tx, type: 2, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 1n })[0]; // 2
 * ```
 */
export function evmTxSigningPayload(tx: EvmTx): Uint8Array {
  const items = unsignedItems(tx);
  if (tx.type === 2) return typed(2, rlpEncode(items));
  if (tx.chainId === undefined) return rlpEncode(items);
  return rlpEncode([...items, uintToBytes(tx.chainId), new Uint8Array(0), new Uint8Array(0)]);
}

/**
 * The raw signed transaction, as `eth_sendRawTransaction` takes it.
 *
 * @example
 * ```ts
 * const tx: EvmTx = { type: 0, chainId: 1n, nonce: 9n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 10n ** 18n, data: new Uint8Array(0) };
 * const r = 0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276n;
 * const s = 0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83n;
 * decodeSignedEvmTx(encodeSignedEvmTx(tx, { yParity: 0, r, s })).from; // "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"
 * ```
 */
export function encodeSignedEvmTx(tx: EvmTx, signature: EvmTxSignature): Uint8Array {
  const sig = [uintToBytes(signature.r), uintToBytes(signature.s)];
  if (tx.type === 2) {
    return typed(2, rlpEncode([...unsignedItems(tx), uintToBytes(BigInt(signature.yParity)), ...sig]));
  }
  const v =
    tx.chainId === undefined
      ? 27n + BigInt(signature.yParity)
      : 35n + 2n * tx.chainId + BigInt(signature.yParity);
  return rlpEncode([...unsignedItems(tx), uintToBytes(v), ...sig]);
}

const toBig = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`));

/**
 * Signs a transaction and returns the raw transaction as `0x` hex.
 *
 * @example
 * ```ts
 * // EIP-155's example transaction, and a signer that answers its known signature (an EvmWallet signs for real).
 * const tx: EvmTx = { type: 0, chainId: 1n, nonce: 9n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 10n ** 18n, data: new Uint8Array(0) };
 * const signature = Buffer.from("28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa63627667cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d8300", "hex");
 * const signer = { evmAddress: "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F", sign: () => Uint8Array.from(signature) };
 * signEvmTx(tx, signer); // "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"
 * ```
 */
export function signEvmTx(tx: EvmTx, signer: EvmTxSigner): `0x${string}` {
  const sig = signer.sign(evmTxSigningPayload(tx));
  if (sig.length !== 65)
    throw new InvalidArgumentError("evmSigner", "sign() must return 65 bytes r || s || v");
  const v = sig[64] as number;
  const yParity = (v >= 27 ? v - 27 : v) as 0 | 1;
  const signature = { yParity, r: toBig(sig.subarray(0, 32)), s: toBig(sig.subarray(32, 64)) };
  return `0x${bytesToHex(encodeSignedEvmTx(tx, signature))}`;
}

function field(items: readonly RlpItem[], index: number, name: string): bigint {
  return bytesToUint(items[index], name);
}

function toField(item: RlpItem | undefined): `0x${string}` | undefined {
  if (!(item instanceof Uint8Array)) throw new InvalidArgumentError("to", "expected bytes, got a list");
  if (item.length === 0) return undefined;
  if (item.length !== 20) throw new InvalidArgumentError("to", `expected 20 bytes, got ${item.length}`);
  return addressBytesToHex(item);
}

function dataField(item: RlpItem | undefined): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new InvalidArgumentError("data", "expected bytes, got a list");
  return item;
}

function list(item: RlpItem, count: number, kind: string): readonly RlpItem[] {
  if (item instanceof Uint8Array || item.length !== count) {
    throw new InvalidArgumentError("transaction", `${kind} transaction must be a list of ${count} fields`);
  }
  return item;
}

function decodeTx(raw: Uint8Array): { tx: EvmTx; signature: EvmTxSignature } {
  const first = raw[0];
  if (first === undefined) throw new InvalidArgumentError("transaction", "empty input");
  if (first === 2) {
    const items = list(rlpDecode(raw.subarray(1)), 12, "an EIP-1559");
    const yParity = field(items, 9, "yParity");
    if (yParity > 1n) throw new InvalidArgumentError("yParity", `must be 0 or 1, got ${yParity}`);
    if (!Array.isArray(items[8])) throw new InvalidArgumentError("accessList", "expected a list");
    const tx: Eip1559Tx = {
      type: 2,
      chainId: field(items, 0, "chainId"),
      nonce: field(items, 1, "nonce"),
      maxPriorityFeePerGas: field(items, 2, "maxPriorityFeePerGas"),
      maxFeePerGas: field(items, 3, "maxFeePerGas"),
      gasLimit: field(items, 4, "gasLimit"),
      to: toField(items[5]),
      value: field(items, 6, "value"),
      data: dataField(items[7]),
    };
    return {
      tx,
      signature: { yParity: Number(yParity) as 0 | 1, r: field(items, 10, "r"), s: field(items, 11, "s") },
    };
  }
  if (first < 0xc0) throw new InvalidArgumentError("transaction", `transaction type ${first} not supported`);
  const items = list(rlpDecode(raw), 9, "a legacy");
  const v = field(items, 6, "v");
  let chainId: bigint | undefined;
  let yParity: bigint;
  if (v === 27n || v === 28n) {
    chainId = undefined;
    yParity = v - 27n;
  } else if (v >= 35n) {
    chainId = (v - 35n) / 2n;
    yParity = (v - 35n) % 2n;
  } else throw new InvalidArgumentError("v", `invalid signature value v=${v}`);
  const tx: LegacyTx = {
    type: 0,
    chainId,
    nonce: field(items, 0, "nonce"),
    gasPrice: field(items, 1, "gasPrice"),
    gasLimit: field(items, 2, "gasLimit"),
    to: toField(items[3]),
    value: field(items, 4, "value"),
    data: dataField(items[5]),
  };
  return {
    tx,
    signature: { yParity: Number(yParity) as 0 | 1, r: field(items, 7, "r"), s: field(items, 8, "s") },
  };
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Decodes a raw signed transaction and recovers its sender.
 *
 * @throws {InvalidArgumentError} for malformed bytes, an unsupported type or an invalid signature.
 *
 * @example
 * ```ts
 * const raw = "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";
 * decodeSignedEvmTx(raw).from; // "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"
 * ```
 */
export function decodeSignedEvmTx(raw: Uint8Array | string): SignedEvmTx {
  let bytes: Uint8Array;
  if (typeof raw === "string") {
    if (!/^0x([0-9a-fA-F]{2})+$/.test(raw))
      throw new InvalidArgumentError("transaction", "expected 0x-prefixed hex bytes");
    bytes = hexToBytes(raw.slice(2));
  } else bytes = raw;
  const { tx, signature } = decodeTx(bytes);
  if (
    signature.r === 0n ||
    signature.r >= SECP256K1_N ||
    signature.s === 0n ||
    signature.s > SECP256K1_N / 2n
  ) {
    throw new InvalidArgumentError("signature", "invalid transaction v, r, s values");
  }
  const sig = new Uint8Array(65);
  sig.set(hexToBytes(signature.r.toString(16).padStart(64, "0")), 0);
  sig.set(hexToBytes(signature.s.toString(16).padStart(64, "0")), 32);
  sig[64] = signature.yParity;
  let from: `0x${string}`;
  try {
    from = recoverAddress(keccak_256(evmTxSigningPayload(tx)), sig);
  } catch (cause) {
    throw new InvalidArgumentError("signature", "the signature recovers no public key", { cause });
  }
  return { tx, signature, hash: `0x${bytesToHex(keccak_256(bytes))}`, from };
}
