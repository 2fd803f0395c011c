/**
 * The slice of the Solidity ABI the bridge deposit needs, on the `ox` library: function selectors
 * and event topics, static arguments (uint256 and address words), strings, and `Error(string)`
 * revert data; plus the bridge contract's and the ERC-20 token's functions and events.
 */
import { InvalidArgumentError } from "@perpx/errors";
import * as AbiParameters from "ox/AbiParameters";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import * as Hex from "ox/Hex";
import { viaOx } from "./ox-error.js";

/**
 * The 4-byte selector of a function signature such as `"transfer(address,uint256)"`.
 *
 * @param signature - the canonical function signature, no spaces.
 * @returns the first 4 bytes of its Keccak-256, as `0x` hex.
 *
 * @example
 * ```ts
 * evmSelector("transfer(address,uint256)"); // "0xa9059cbb"
 * ```
 */
export function evmSelector(signature: string): `0x${string}` {
  return Hex.slice(Hash.keccak256(Hex.fromString(signature)), 0, 4);
}

/**
 * The topic (Keccak-256) of an event signature.
 *
 * @param signature - the canonical event signature, no spaces.
 * @returns its Keccak-256 (the log's first topic), as `0x` hex.
 *
 * @example
 * ```ts
 * evmEventTopic("Transfer(address,address,uint256)"); // "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
 * ```
 */
export function evmEventTopic(signature: string): `0x${string}` {
  return Hash.keccak256(Hex.fromString(signature));
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

type Static = { type: "uint256" } | { type: "address" };

function staticParameter(value: bigint | string, argument: string): Static {
  if (typeof value === "string") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value))
      throw new InvalidArgumentError(argument, `${value} is not a 0x address`);
    return { type: "address" };
  }
  if (value < 0n || value >= 1n << 256n) throw new InvalidArgumentError(argument, `${value} is out of range`);
  return { type: "uint256" };
}

function encodeStatic(args: ReadonlyArray<bigint | string>, argument: string): Uint8Array {
  const parameters = args.map((arg, i) =>
    staticParameter(arg, args.length === 1 ? argument : `${argument}[${i}]`),
  );
  return Bytes.fromHex(viaOx(argument, () => AbiParameters.encode(parameters, args as (bigint | Hex.Hex)[])));
}

/**
 * One 32-byte ABI word of a uint256 or an address (`0x` + 40 hex).
 *
 * @param value - a uint256 or a 0x address.
 * @returns the word.
 * @throws {InvalidArgumentError} for a negative or too large integer, or a malformed address.
 *
 * @example
 * ```ts
 * evmWord(1n).at(-1); // 1
 * ```
 */
export function evmWord(value: bigint | string): Uint8Array {
  return encodeStatic([value], typeof value === "string" ? "address" : "uint256");
}

/**
 * Call data: the selector of `signature` followed by static arguments (uint256 or address).
 *
 * @param signature - the function signature, such as `"transfer(address,uint256)"`.
 * @param args - its static arguments, uint256 as bigint and addresses as 0x text.
 * @returns the call data.
 * @throws {InvalidArgumentError} naming `args[i]` for a malformed address or an integer out of range.
 *
 * @example
 * ```ts
 * encodeEvmCall(BRIDGE_ABI.balanceOf, ["0x3535353535353535353535353535353535353535"]).length; // 36
 * ```
 */
export function encodeEvmCall(signature: string, args: ReadonlyArray<bigint | string>): Uint8Array {
  return Bytes.concat(Bytes.fromHex(evmSelector(signature)), encodeStatic(args, "args"));
}

/**
 * The 32-byte words of ABI data as unsigned integers (a trailing partial word is refused).
 *
 * @param data - ABI data, a whole number of 32-byte words.
 * @returns each word as an unsigned integer.
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
  const words = Array.from({ length: data.length / WORD }, () => ({ type: "uint256" }) as const);
  return viaOx("data", () => AbiParameters.decode(words, data)) as bigint[];
}

/**
 * The low 20 bytes of a word as a lower-case `0x` address.
 *
 * @param word - a 32-byte ABI word holding an address.
 * @returns its low 20 bytes as a lower-case `0x` address.
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
 * @param text - the string value.
 * @returns the ABI return data: offset, length and the UTF-8 bytes padded to a word.
 *
 * @example
 * ```ts
 * decodeEvmString(encodeEvmString("USDC")); // "USDC"
 * ```
 */
export function encodeEvmString(text: string): Uint8Array {
  return Bytes.fromHex(AbiParameters.encode([{ type: "string" }], [text]));
}

/**
 * Decodes a single ABI `string` return value.
 *
 * @param data - ABI return data of one `string`.
 * @returns the string.
 * @throws {InvalidArgumentError} when the offset or length runs past the data.
 *
 * @example
 * ```ts
 * decodeEvmString(encodeEvmString("USD Coin")); // "USD Coin"
 * ```
 */
export function decodeEvmString(data: Uint8Array): string {
  return viaOx("data", () => AbiParameters.decode([{ type: "string" }], data)[0]);
}

// evmSelector("Error(string)"), written out: computing it at load would load ox's keccak at import.
const ERROR_SELECTOR = "0x08c379a0";

/**
 * Revert data of `revert(reason)`: the `Error(string)` selector and the ABI string.
 *
 * @param reason - the revert reason.
 * @returns the revert data: selector `0x08c379a0` and the ABI string.
 *
 * @example
 * ```ts
 * encodeEvmRevert("ERC20: insufficient allowance").subarray(0, 4); // Uint8Array.of(0x08, 0xc3, 0x79, 0xa0)
 * ```
 */
export function encodeEvmRevert(reason: string): Uint8Array {
  return Bytes.concat(Bytes.fromHex(ERROR_SELECTOR), encodeEvmString(reason));
}

/**
 * The reason of `Error(string)` revert data, or `undefined` for other data.
 *
 * @param data - a call's revert data.
 * @returns the reason, or `undefined` when the data is not an `Error(string)` revert.
 *
 * @example
 * ```ts
 * decodeEvmRevert(encodeEvmRevert("nope")); // "nope"
 * ```
 */
export function decodeEvmRevert(data: Uint8Array): string | undefined {
  if (data.length < 4 || Hex.fromBytes(data.subarray(0, 4)) !== ERROR_SELECTOR) return undefined;
  try {
    return decodeEvmString(data.subarray(4));
  } catch {
    return undefined;
  }
}
