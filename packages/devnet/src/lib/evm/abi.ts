/**
 * The slice of the Solidity ABI the bridge deposit needs: function selectors, static arguments
 * (uint256 and address words), strings, and `Error(string)` revert data; plus the bridge contract's
 * and the ERC-20 token's functions and events.
 *
 * The devnet's own hand-written reference implementation: clients encode with `ox` (through
 * `@perpx/core/evm`), so every wire test checks one implementation against the other.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * The 4-byte selector of a function signature such as `"transfer(address,uint256)"`.
 *
 * @example
 * ```ts
 * evmSelector("transfer(address,uint256)"); // "0xa9059cbb"
 * ```
 */
export function evmSelector(signature: string): `0x${string}` {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(signature)).subarray(0, 4))}`;
}

/**
 * The topic (Keccak-256) of an event signature.
 *
 * @example
 * ```ts
 * evmEventTopic("Transfer(address,address,uint256)"); // "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
 * ```
 */
export function evmEventTopic(signature: string): `0x${string}` {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(signature)))}`;
}

/**
 * The functions and events of the source chains' USDC token (ERC-20) and bridge contract. The
 * bridge's `deposit(amount, recipient)` pulls `amount` USDC from the caller by allowance and emits
 * `BridgeDeposit(sender, recipient, amount)`; `recipient` is the 20 bytes of the account credited
 * on this chain (the same bytes as its `perpx1...` address).
 *
 * @example
 * ```ts
 * BRIDGE_ABI.deposit; // "deposit(uint256,address)"
 * ```
 */
export const BRIDGE_ABI = Object.freeze({
  balanceOf: "balanceOf(address)",
  allowance: "allowance(address,address)",
  decimals: "decimals()",
  symbol: "symbol()",
  transfer: "transfer(address,uint256)",
  approve: "approve(address,uint256)",
  transferFrom: "transferFrom(address,address,uint256)",
  deposit: "deposit(uint256,address)",
  transferEvent: "Transfer(address,address,uint256)",
  approvalEvent: "Approval(address,address,uint256)",
  depositEvent: "BridgeDeposit(address,address,uint256)",
});

const WORD = 32;

/**
 * One 32-byte ABI word of a uint256 or an address (`0x` + 40 hex).
 *
 * @throws {InvalidArgumentError} for a negative or too large integer, or a malformed address.
 *
 * @example
 * ```ts
 * evmWord(1n).at(-1); // 1
 * ```
 */
export function evmWord(value: bigint | string): Uint8Array {
  const out = new Uint8Array(WORD);
  if (typeof value === "string") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value))
      throw new InvalidArgumentError("address", `${value} is not a 0x address`);
    out.set(hexToBytes(value.slice(2)), 12);
    return out;
  }
  if (value < 0n || value >= 1n << 256n)
    throw new InvalidArgumentError("uint256", `${value} is out of range`);
  out.set(hexToBytes(value.toString(16).padStart(64, "0")));
  return out;
}

/**
 * Call data: the selector of `signature` followed by static arguments (uint256 or address).
 *
 * @example
 * ```ts
 * encodeEvmCall(BRIDGE_ABI.balanceOf, ["0x3535353535353535353535353535353535353535"]).length; // 36
 * ```
 */
export function encodeEvmCall(signature: string, args: ReadonlyArray<bigint | string>): Uint8Array {
  const out = new Uint8Array(4 + WORD * args.length);
  out.set(hexToBytes(evmSelector(signature).slice(2)));
  for (const [i, arg] of args.entries()) out.set(evmWord(arg), 4 + WORD * i);
  return out;
}

/**
 * The 32-byte words of ABI data as unsigned integers (a trailing partial word is refused).
 *
 * @throws {InvalidArgumentError} when the length is not a multiple of 32.
 *
 * @example
 * ```ts
 * decodeEvmWords(evmWord(7n)); // [7n]
 * ```
 */
export function decodeEvmWords(data: Uint8Array): bigint[] {
  if (data.length % WORD !== 0)
    throw new InvalidArgumentError("data", `${data.length} bytes is not a whole number of words`);
  const words: bigint[] = [];
  for (let i = 0; i < data.length; i += WORD)
    words.push(BigInt(`0x${bytesToHex(data.subarray(i, i + WORD))}`));
  return words;
}

/**
 * The low 20 bytes of a word as a lower-case `0x` address.
 *
 * @example
 * ```ts
 * wordToAddress(1n); // "0x0000000000000000000000000000000000000001"
 * ```
 */
export function wordToAddress(word: bigint): `0x${string}` {
  return `0x${(word & ((1n << 160n) - 1n)).toString(16).padStart(40, "0")}`;
}

/**
 * ABI encoding of a single `string` return value (offset, length, padded bytes).
 *
 * @example
 * ```ts
 * decodeEvmString(encodeEvmString("USDC")); // "USDC"
 * ```
 */
export function encodeEvmString(text: string): Uint8Array {
  const bytes = utf8ToBytes(text);
  const padded = Math.ceil(bytes.length / WORD) * WORD;
  const out = new Uint8Array(2 * WORD + padded);
  out.set(evmWord(32n), 0);
  out.set(evmWord(BigInt(bytes.length)), WORD);
  out.set(bytes, 2 * WORD);
  return out;
}

/**
 * Decodes a single ABI `string` return value.
 *
 * @throws {InvalidArgumentError} when the offset or length runs past the data.
 *
 * @example
 * ```ts
 * decodeEvmString(encodeEvmString("USD Coin")); // "USD Coin"
 * ```
 */
export function decodeEvmString(data: Uint8Array): string {
  if (data.length < 2 * WORD) throw new InvalidArgumentError("data", "too short for a string");
  const offset = Number(decodeEvmWords(data.subarray(0, WORD))[0]);
  const length = decodeEvmWords(data.subarray(offset, offset + WORD))[0];
  if (length === undefined || offset + WORD + Number(length) > data.length) {
    throw new InvalidArgumentError("data", "string runs past the end of the data");
  }
  return new TextDecoder().decode(data.subarray(offset + WORD, offset + WORD + Number(length)));
}

/** `evmSelector("Error(string)")`, written out: loading the devnet hashes nothing (`abi.test.ts`). */
export const ERROR_SELECTOR = "0x08c379a0";

/**
 * Revert data of `revert(reason)`: the `Error(string)` selector and the ABI string.
 *
 * @example
 * ```ts
 * encodeEvmRevert("ERC20: insufficient allowance").subarray(0, 4); // Uint8Array.of(0x08, 0xc3, 0x79, 0xa0)
 * ```
 */
export function encodeEvmRevert(reason: string): Uint8Array {
  const body = encodeEvmString(reason);
  const out = new Uint8Array(4 + body.length);
  out.set(hexToBytes(ERROR_SELECTOR.slice(2)));
  out.set(body, 4);
  return out;
}

/**
 * The reason of `Error(string)` revert data, or `undefined` for other data.
 *
 * @example
 * ```ts
 * decodeEvmRevert(encodeEvmRevert("nope")); // "nope"
 * ```
 */
export function decodeEvmRevert(data: Uint8Array): string | undefined {
  if (data.length < 4 || `0x${bytesToHex(data.subarray(0, 4))}` !== ERROR_SELECTOR) return undefined;
  try {
    return decodeEvmString(data.subarray(4));
  } catch {
    return undefined;
  }
}
