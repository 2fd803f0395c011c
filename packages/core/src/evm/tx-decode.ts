/**
 * Decoding a signed Ethereum transaction (EIP-1559 or legacy, on the `ox` library's envelopes) and
 * recovering its sender: `@perpx/core/evm-verify`'s, since the recovery needs secp256k1, which
 * building and signing a transaction (`./tx.ts`, `@perpx/core/evm`) does without.
 *
 * @module
 */
import { addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import * as Hex from "ox/Hex";
import * as Eip1559 from "ox/TxEnvelopeEip1559";
import * as Legacy from "ox/TxEnvelopeLegacy";
import { viaOx } from "./ox-error.js";
import { recoverAddress } from "./recover.js";
import {
  type EvmTx,
  type EvmTxSignature,
  encodeSignedEvmTx,
  evmTxSigningPayload,
  type SignedEvmTx,
} from "./tx.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function txOf(envelope: Eip1559.TxEnvelopeEip1559 | Legacy.TxEnvelopeLegacy): EvmTx {
  const common = {
    nonce: envelope.nonce ?? 0n,
    gasLimit: envelope.gas ?? 0n,
    to:
      envelope.to === undefined || envelope.to === null
        ? undefined
        : addressBytesToHex(Bytes.fromHex(envelope.to)),
    value: envelope.value ?? 0n,
    data: Bytes.fromHex(envelope.data ?? "0x"),
  };
  if (envelope.type === "eip1559") {
    return {
      ...common,
      type: 2,
      chainId: BigInt(envelope.chainId),
      maxPriorityFeePerGas: envelope.maxPriorityFeePerGas ?? 0n,
      maxFeePerGas: envelope.maxFeePerGas ?? 0n,
    };
  }
  const chainId = envelope.chainId === undefined ? undefined : BigInt(envelope.chainId);
  return { ...common, type: 0, chainId, gasPrice: envelope.gasPrice ?? 0n };
}

function deserialize(hex: Hex.Hex): Eip1559.TxEnvelopeEip1559 | Legacy.TxEnvelopeLegacy {
  const first = Number.parseInt(hex.slice(2, 4), 16);
  if (first === 2) return viaOx("transaction", () => Eip1559.deserialize(hex as Eip1559.Serialized));
  if (first < 0xc0) throw new InvalidArgumentError("transaction", `transaction type ${first} not supported`);
  return viaOx("transaction", () => Legacy.deserialize(hex));
}

/**
 * Reads decoded fields: a field that RLP gave in the wrong shape (a list where an integer belongs,
 * as a corrupted byte can make) is an `InvalidArgumentError` naming `argument`, not a `SyntaxError`.
 */
function fieldOf<T>(read: () => T, argument: string): T {
  try {
    return read();
  } catch (cause) {
    if (cause instanceof InvalidArgumentError) throw cause;
    throw new InvalidArgumentError(argument, "a field has the wrong RLP shape", { cause });
  }
}

/**
 * Decodes a raw signed transaction and recovers its sender.
 *
 * @param raw - the raw signed transaction, as bytes or `0x` hex.
 * @returns the transaction's fields, its signature, its hash and its recovered sender `from`.
 * @throws {InvalidArgumentError} for malformed or non-canonical bytes, an unsupported type or field
 *   (an access list), or an invalid signature.
 *
 * @example
 * ```ts
 * const raw = "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";
 * decodeSignedEvmTx(raw).from; // "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"
 * ```
 */
export function decodeSignedEvmTx(raw: Uint8Array | string): SignedEvmTx {
  const hex = typeof raw === "string" ? raw : Hex.fromBytes(raw);
  if (!/^0x([0-9a-fA-F]{2})+$/.test(hex)) {
    throw new InvalidArgumentError("transaction", "expected 0x-prefixed hex bytes");
  }
  const envelope = fieldOf(() => deserialize(hex as Hex.Hex), "transaction");
  if (envelope.r === undefined || envelope.s === undefined || envelope.yParity === undefined) {
    throw new InvalidArgumentError("signature", "the transaction is not signed");
  }
  const signature: EvmTxSignature = {
    yParity: envelope.yParity as 0 | 1,
    r: fieldOf(() => BigInt(envelope.r as Hex.Hex), "signature"),
    s: fieldOf(() => BigInt(envelope.s as Hex.Hex), "signature"),
  };
  if (
    signature.r === 0n ||
    signature.r >= SECP256K1_N ||
    signature.s === 0n ||
    signature.s > SECP256K1_N / 2n
  ) {
    throw new InvalidArgumentError("signature", "invalid transaction v, r, s values");
  }
  const tx = fieldOf(() => txOf(envelope), "transaction");
  // ox's decoding is lenient (a list where bytes belong, `0x00` for zero, an empty string for the
  // access list): only bytes that encode back to themselves are one transaction with one signer.
  const canonical = fieldOf(() => Hex.fromBytes(encodeSignedEvmTx(tx, signature)), "transaction");
  if (canonical !== hex.toLowerCase()) {
    throw new InvalidArgumentError(
      "transaction",
      "is not in canonical RLP form, or carries a field this decoder does not read (an access list)",
    );
  }
  const sig = new Uint8Array(65);
  sig.set(Bytes.fromNumber(signature.r, { size: 32 }), 0);
  sig.set(Bytes.fromNumber(signature.s, { size: 32 }), 32);
  sig[64] = signature.yParity;
  let from: `0x${string}`;
  try {
    from = recoverAddress(Hash.keccak256(evmTxSigningPayload(tx)), sig);
  } catch (cause) {
    throw new InvalidArgumentError("signature", "the signature recovers no public key", { cause });
  }
  return { tx, signature, hash: Hash.keccak256(hex as Hex.Hex), from };
}
