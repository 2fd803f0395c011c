/**
 * Ethereum transactions: EIP-1559 (type 2) and legacy (EIP-155 replay-protected, or not), their
 * signing payloads and signed encodings, on the `ox` library's transaction envelopes. Ours are the
 * plain shapes below and the checks that name a bad field. Decoding with sender recovery is
 * `./tx-decode.ts` (`@perpx/core/evm-verify`: it needs secp256k1).
 */
import { InvalidArgumentError } from "@perpx/errors";
import * as Bytes from "ox/Bytes";
import * as Hex from "ox/Hex";
import * as Eip1559 from "ox/TxEnvelopeEip1559";
import * as Legacy from "ox/TxEnvelopeLegacy";
import { viaOx } from "./ox-error.js";

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

const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;

function uint(value: bigint, field: string, max = MAX_UINT256): bigint {
  if (typeof value !== "bigint" || value < 0n || value > max) {
    throw new InvalidArgumentError(field, `${String(value)} is not an integer from 0 to ${max}`);
  }
  return value;
}

function chainIdOf(chainId: bigint): number {
  if (chainId <= 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidArgumentError("chainId", `${chainId} is not a chain id`);
  }
  return Number(chainId);
}

function toOf(to: `0x${string}` | undefined): { to?: Hex.Hex } {
  if (to === undefined) return {};
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new InvalidArgumentError("to", `${to} is not a 0x address`);
  return { to };
}

type Envelope = Eip1559.TxEnvelopeEip1559<false> | Legacy.TxEnvelopeLegacy<false>;

/** The `ox` envelope of a transaction, each field checked and named when bad. */
function envelopeOf(tx: EvmTx): Envelope {
  const common = {
    nonce: uint(tx.nonce, "nonce", MAX_UINT64),
    gas: uint(tx.gasLimit, "gasLimit"),
    value: uint(tx.value, "value"),
    data: Hex.fromBytes(tx.data),
    ...toOf(tx.to),
  };
  if (tx.type === 2) {
    const maxFeePerGas = uint(tx.maxFeePerGas, "maxFeePerGas");
    const maxPriorityFeePerGas = uint(tx.maxPriorityFeePerGas, "maxPriorityFeePerGas");
    if (maxPriorityFeePerGas > maxFeePerGas) {
      throw new InvalidArgumentError("maxPriorityFeePerGas", "is above maxFeePerGas");
    }
    return { ...common, type: "eip1559", chainId: chainIdOf(tx.chainId), maxFeePerGas, maxPriorityFeePerGas };
  }
  const gasPrice = uint(tx.gasPrice, "gasPrice");
  return tx.chainId === undefined
    ? { ...common, type: "legacy", gasPrice }
    : { ...common, type: "legacy", gasPrice, chainId: chainIdOf(tx.chainId) };
}

function serialize(envelope: Envelope, signature?: EvmTxSignature): Uint8Array {
  const sig =
    signature === undefined
      ? undefined
      : {
          r: Hex.fromNumber(uint(signature.r, "signature.r"), { size: 32 }),
          s: Hex.fromNumber(uint(signature.s, "signature.s"), { size: 32 }),
          yParity: signature.yParity,
        };
  const options = sig === undefined ? {} : { signature: sig };
  const hex = viaOx("transaction", () =>
    envelope.type === "eip1559" ? Eip1559.serialize(envelope, options) : Legacy.serialize(envelope, options),
  );
  return Bytes.fromHex(hex);
}

/**
 * The bytes a transaction's signature covers (its hash is Keccak-256 of them).
 *
 * @param tx - the transaction (legacy with EIP-155 replay protection, or EIP-1559).
 * @returns the unsigned serialization whose Keccak-256 the sender signs.
 *
 * @example
 * ```ts
 * const tx: EvmTx = { type: 0, chainId: 1n, nonce: 9n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: "0x3535353535353535353535353535353535353535", value: 10n ** 18n, data: new Uint8Array(0) };
 * evmTxSigningPayload(tx).length; // 45
 * evmTxSigningPayload({ ...tx, type: 2, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 1n })[0]; // 2
 * ```
 */
export function evmTxSigningPayload(tx: EvmTx): Uint8Array {
  return serialize(envelopeOf(tx));
}

/**
 * The raw signed transaction, as `eth_sendRawTransaction` takes it.
 *
 * @param tx - the transaction (legacy with EIP-155 replay protection, or EIP-1559).
 * @param signature - its `yParity`, `r` and `s`.
 * @returns the raw signed transaction bytes.
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
  return serialize(envelopeOf(tx), signature);
}

/**
 * Signs a transaction and returns the raw transaction as `0x` hex.
 *
 * @param tx - the transaction (legacy with EIP-155 replay protection, or EIP-1559).
 * @param signer - signs the payload and answers 65 bytes `r || s || v`.
 * @returns the raw signed transaction as `0x` hex, ready for `eth_sendRawTransaction`.
 * @throws {InvalidArgumentError} naming the field when the transaction or the signature is malformed.
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
  const signature: EvmTxSignature = {
    yParity: (v >= 27 ? v - 27 : v) as 0 | 1,
    r: Bytes.toBigInt(sig.subarray(0, 32)),
    s: Bytes.toBigInt(sig.subarray(32, 64)),
  };
  return Hex.fromBytes(encodeSignedEvmTx(tx, signature));
}
