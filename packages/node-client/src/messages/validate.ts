import {
  type IntegerInput,
  InvalidArgumentError,
  InvalidOrderError,
  InvalidSubaccountError,
  parseAddress,
  type SubaccountRef,
  validateSubaccountNumber,
} from "@perpx/core";
import type { subaccounts } from "@perpx/proto";

const MAX_UINT32 = 0xffff_ffff;
const MAX_UINT64 = (1n << 64n) - 1n;

/** Addresses already validated (bech32 decode + re-encode costs ~15 µs; a trader reuses a few). */
const validated = new Map<string, string>();
const VALIDATED_MAX = 256;

/**
 * Validates an account address in either form and returns its bech32 form (memoized for the last
 * few hundred distinct inputs, so hot paths do not decode the same owner on every order).
 *
 * @throws {InvalidAddressError} naming exactly what is wrong.
 */
export function bech32Address(address: string, prefix?: string): string {
  const key = prefix === undefined ? address : `${prefix}|${address}`;
  const hit = validated.get(key);
  if (hit !== undefined) return hit;
  const bech32 = parseAddress(address, prefix === undefined ? {} : { prefix }).bech32;
  if (validated.size >= VALIDATED_MAX) validated.delete(validated.keys().next().value!);
  validated.set(key, bech32);
  return bech32;
}

/**
 * Validates a subaccount reference and returns the proto `SubaccountId` (owner in bech32).
 *
 * @throws {InvalidAddressError | InvalidSubaccountError} before anything is signed.
 */
export function subaccountId(ref: SubaccountRef, argument: string): subaccounts.SubaccountId {
  if (typeof ref !== "object" || ref === null) {
    throw new InvalidSubaccountError("bad-format", String(ref), {
      problem: `${argument} must be { owner, number }`,
    });
  }
  // The message as protobuf-es `create` builds it (every field is set here), without its generic
  // walk over the schema: one of the messages of every order.
  return {
    $typeName: "perpx.subaccounts.v1.SubaccountId",
    owner: bech32Address(ref.owner),
    number: validateSubaccountNumber(ref.number),
  };
}

/** A uint32 argument. @throws {InvalidArgumentError} */
export function uint32(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer from 0 to ${MAX_UINT32}, got ${String(value)}`,
    );
  }
  return value;
}

/** An integer that fits uint64. @throws {InvalidArgumentError} */
export function uint64(value: IntegerInput, argument: string): bigint {
  let parsed: bigint;
  if (typeof value === "bigint") parsed = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === "string" && /^\d+$/.test(value.trim())) parsed = BigInt(value.trim());
  else
    throw new InvalidArgumentError(
      argument,
      `must be a non-negative integer, got ${JSON.stringify(String(value))}`,
    );
  if (parsed < 0n || parsed > MAX_UINT64) {
    throw new InvalidArgumentError(argument, `must fit in a uint64 (at most ${MAX_UINT64}), got ${parsed}`);
  }
  return parsed;
}

/** A positive uint64 order field (size, price). @throws {InvalidOrderError} */
export function positiveOrderField(value: IntegerInput, field: string): bigint {
  let parsed: bigint;
  try {
    parsed = uint64(value, field);
  } catch (error) {
    throw new InvalidOrderError(field, `must be a positive integer, got ${JSON.stringify(String(value))}`, {
      cause: error,
    });
  }
  if (parsed === 0n) throw new InvalidOrderError(field, "must be greater than zero");
  return parsed;
}

/** The bound of a Cosmos `math.Int` (a coin amount): at most 256 bits. */
const COIN_AMOUNT_LIMIT = 1n << 256n;

/**
 * A positive integer amount of coins, as the decimal string `Coin.amount` wants: below 2^256 (the
 * chain's `math.Int` holds at most 256 bits).
 *
 * @throws {InvalidArgumentError}
 */
export function positiveAmount(value: IntegerInput, argument: string): string {
  let parsed: bigint;
  if (typeof value === "bigint") parsed = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === "string" && /^\d+$/.test(value.trim())) parsed = BigInt(value.trim());
  else
    throw new InvalidArgumentError(
      argument,
      `must be a positive integer, got ${JSON.stringify(String(value))}`,
    );
  if (parsed <= 0n) throw new InvalidArgumentError(argument, "must be greater than zero");
  if (parsed >= COIN_AMOUNT_LIMIT) {
    throw new InvalidArgumentError(argument, "must be below 2^256 (a coin amount holds at most 256 bits)");
  }
  return parsed.toString();
}

/** A positive integer that fits uint64 (quantums). @throws {InvalidArgumentError} */
export function positiveUint64(value: IntegerInput, argument: string): bigint {
  const parsed = uint64(value, argument);
  if (parsed === 0n) throw new InvalidArgumentError(argument, "must be greater than zero");
  return parsed;
}

/** A non-empty string argument. @throws {InvalidArgumentError} */
export function nonEmpty(value: string, argument: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new InvalidArgumentError(argument, "must not be empty");
  return value;
}

/**
 * Checks that an action's parameters are an object (or, when `optional`, absent), so a missing or
 * `null` argument is a typed error naming the action rather than a `TypeError` from inside it.
 *
 * @throws {InvalidArgumentError}
 */
export function checkParams(params: unknown, action: string, optional = false): void {
  if (typeof params === "object" && params !== null) return;
  if (optional && params === undefined) return;
  throw new InvalidArgumentError(
    `${action} parameters`,
    `must be an object${optional ? " or left out" : ""}, got ${params === null ? "null" : typeof params}`,
  );
}
