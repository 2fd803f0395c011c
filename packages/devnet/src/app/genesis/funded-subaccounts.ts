/**
 * The funded subaccounts of `--subaccounts N` (`startDevnet({ fundedSubaccounts: N })`): N accounts
 * created at genesis, each with subaccount 0 holding {@link FUNDED_SUBACCOUNT_QUANTUMS} of USDC.
 * Their keys are consecutive scalars, so a test, a bench or a bot in another process rebuilds any of
 * them from its index without talking to the devnet, and genesis derives 10,000 public keys by point
 * additions in a fraction of a second:
 *
 *   private key(i) = (k + i) mod n, as 32 big-endian bytes, where k = SHA-256(UTF-8
 *                    "perpx funded subaccounts") read as a big-endian integer and n is the order
 *                    of secp256k1;
 *   address(i)     = bech32 `perpx` of RIPEMD-160(SHA-256(compressed public key)), as for any
 *                    Cosmos secp256k1 account (cosmjs `DirectSecp256k1Wallet.fromKey(privateKey,
 *                    "perpx")` signs for it).
 */
import { normalizeZ } from "@noble/curves/abstract/curve.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { addressBytesToBech32 } from "@perpx/address";
import { fromHex, toHex, utf8 } from "../lib/codec.js";
import { sha256 } from "../lib/sha256.js";

/**
 * USDC quote quantums in subaccount 0 of every funded account at genesis (100,000 USDC).
 *
 * @example
 * ```ts
 * import { quoteQuantumsToUsdc } from "@perpx/core";
 * import { FUNDED_SUBACCOUNT_QUANTUMS } from "@perpx/devnet";
 *
 * quoteQuantumsToUsdc(FUNDED_SUBACCOUNT_QUANTUMS); // "100000"
 * ```
 */
export const FUNDED_SUBACCOUNT_QUANTUMS = 100_000_000_000n;
/** The most funded subaccounts a devnet accepts. */
export const MAX_FUNDED_SUBACCOUNTS = 1_000_000;

/**
 * One funded account of a devnet started with `fundedSubaccounts` (its subaccount 0 holds the USDC).
 *
 * @example
 * ```ts
 * import { fundedSubaccountKey } from "@perpx/devnet";
 *
 * const { address, privateKey }: FundedSubaccountKey = fundedSubaccountKey(0);
 * ```
 */
export interface FundedSubaccountKey {
  /** Its index, from 0 to `fundedSubaccounts - 1`. */
  readonly index: number;
  /** The 32-byte secp256k1 private key (public: for the devnet only). */
  readonly privateKey: Uint8Array;
  /** The 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  /** The bech32 `perpx1...` address. */
  readonly address: string;
}

const ORDER = secp256k1.Point.CURVE().n;
const BASE_SCALAR = BigInt(`0x${toHex(sha256(utf8("perpx funded subaccounts")))}`) % ORDER;

function scalarOf(index: number): bigint {
  return (BASE_SCALAR + BigInt(index)) % ORDER;
}

function scalarBytes(scalar: bigint): Uint8Array {
  return fromHex(scalar.toString(16).padStart(64, "0"));
}

function addressOf(publicKey: Uint8Array): string {
  return addressBytesToBech32(ripemd160(sha256(publicKey)));
}

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_FUNDED_SUBACCOUNTS) {
    throw new RangeError(
      `funded subaccount index must be an integer from 0 to ${MAX_FUNDED_SUBACCOUNTS - 1}, got ${index}`,
    );
  }
}

/**
 * The key and address of funded account `index` (see the derivation in the module comment). The
 * funded subaccount is `{ owner: address, number: 0 }`.
 *
 * @param index - which funded account, from 0 (the devnet funds indexes below its
 *   `fundedSubaccounts` option).
 * @returns its index, 32-byte secp256k1 private key, compressed public key and `perpx1...` address.
 * @throws RangeError when `index` is not an integer from 0 to `MAX_FUNDED_SUBACCOUNTS` - 1 (999,999).
 * @example
 * ```ts
 * import { DirectSecp256k1Wallet } from "@cosmjs/proto-signing";
 * import { fundedSubaccountKey, startDevnet } from "@perpx/devnet";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fundedSubaccounts: 100 });
 * const trader = fundedSubaccountKey(99);
 * const wallet = await DirectSecp256k1Wallet.fromKey(trader.privateKey, "perpx");
 * const [account] = await wallet.getAccounts();
 * account?.address === trader.address; // true
 * await devnet.stop();
 * ```
 */
export function fundedSubaccountKey(index: number): FundedSubaccountKey {
  checkIndex(index);
  const privateKey = scalarBytes(scalarOf(index));
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  return Object.freeze({ index, privateKey, publicKey, address: addressOf(publicKey) });
}

/**
 * The addresses of funded accounts 0 to `count - 1`, by walking the public keys one generator
 * addition at a time (and one field inversion per chunk).
 */
export function fundedAddresses(count: number): string[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_FUNDED_SUBACCOUNTS) {
    throw new RangeError(
      `fundedSubaccounts must be an integer from 0 to ${MAX_FUNDED_SUBACCOUNTS}, got ${count}`,
    );
  }
  const { Point } = secp256k1;
  const addresses: string[] = [];
  let point = count === 0 ? Point.ZERO : Point.BASE.multiply(scalarOf(0));
  const CHUNK = 1_024;
  for (let from = 0; from < count; from += CHUNK) {
    const chunk: (typeof point)[] = [];
    for (let i = from; i < Math.min(count, from + CHUNK); i++) {
      chunk.push(point);
      point = point.add(Point.BASE);
    }
    for (const affine of normalizeZ(Point, chunk)) addresses.push(addressOf(affine.toBytes(true)));
  }
  return addresses;
}
