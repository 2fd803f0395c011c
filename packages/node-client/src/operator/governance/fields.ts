/**
 * The checks governance message builders share: the authority (the gov module account unless
 * given), integer ranges of the wire types, parts per million, durations, times, decimal amounts
 * and SerializableInts. Each throws a typed error naming the field before anything is built.
 */
import { create } from "@bufbuild/protobuf";
import { type Duration, DurationSchema, type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytesToBech32, DEFAULT_PREFIX } from "@perpx/address";
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { encodeSerializableInt } from "@perpx/proto";
import { bech32Address, nonEmpty } from "../../messages/validate.js";

/**
 * The address of a module account (`sha256(name)[:20]` in bech32), as the Cosmos SDK derives it.
 *
 * @param name - the module's name (`gov`, `subaccounts`, `insurance_fund`...).
 * @param prefix - the bech32 prefix (`perpx`).
 * @returns the module account's bech32 address.
 * @example
 * ```ts
 * moduleAccountAddress("gov"); // "perpx10d07y265gmmuvt4z0w9aw880jnsr700jnnhuak"
 * ```
 */
export function moduleAccountAddress(name: string, prefix: string = DEFAULT_PREFIX): string {
  nonEmpty(name, "name");
  return addressBytesToBech32(sha256(new TextEncoder().encode(name)).subarray(0, 20), prefix);
}

/**
 * The fields every governance message builder takes beside its own.
 *
 * @example
 * ```ts
 * const params: GovernanceParams = { authority: moduleAccountAddress("gov") };
 * ```
 */
export interface GovernanceParams {
  /**
   * The authority that signs the message (either address form): the gov module account, which
   * runs it when a proposal carrying it passes.
   * @default moduleAccountAddress("gov")
   */
  authority?: string;
}

/** The bech32 authority of a governance message (validated), the gov module account by default. */
export function authorityOf(params: GovernanceParams): string {
  return params.authority === undefined ? moduleAccountAddress("gov") : bech32Address(params.authority);
}

const MAX_UINT32 = 0xffff_ffff;
const MIN_INT32 = -0x8000_0000;
const MAX_INT32 = 0x7fff_ffff;

/** An integer in [min, max] (a uint32 by default). @throws {InvalidArgumentError} */
export function intIn(value: number, argument: string, min = 0, max = MAX_UINT32): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** A sint32 / int32 value. @throws {InvalidArgumentError} */
export function int32(value: number, argument: string): number {
  return intIn(value, argument, MIN_INT32, MAX_INT32);
}

/** Parts per million, from 0 to 1,000,000 (100%). @throws {InvalidArgumentError} */
export function ppm(value: number, argument: string): number {
  return intIn(value, argument, 0, 1_000_000);
}

/** A whole number of seconds as a `google.protobuf.Duration`. @throws {InvalidArgumentError} */
export function durationOf(seconds: number, argument: string): Duration {
  if (typeof seconds !== "number" || !Number.isSafeInteger(seconds) || seconds < 0) {
    throw new InvalidArgumentError(
      argument,
      `must be a whole number of seconds >= 0, got ${String(seconds)}`,
    );
  }
  return create(DurationSchema, { seconds: BigInt(seconds), nanos: 0 });
}

/** A valid `Date` as a `google.protobuf.Timestamp` (millisecond precision). @throws {InvalidArgumentError} */
export function timestampOf(date: Date, argument: string): Timestamp {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(argument, "must be a valid Date");
  }
  const ms = BigInt(date.getTime());
  const seconds = ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n);
  return create(TimestampSchema, { seconds, nanos: Number(ms - seconds * 1000n) * 1_000_000 });
}

function integer(value: IntegerInput, argument: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  throw new InvalidArgumentError(argument, `must be an integer, got ${JSON.stringify(String(value))}`);
}

/** The bound of a Cosmos `math.Int`: at most 256 bits. */
const MATH_INT_LIMIT = 1n << 256n;

/**
 * A non-negative integer below 2^256 as the decimal string a `math.Int` field wants.
 *
 * @throws {InvalidArgumentError}
 */
export function decimalAmount(value: IntegerInput, argument: string): string {
  const parsed = integer(value, argument);
  if (parsed < 0n) throw new InvalidArgumentError(argument, `must not be negative, got ${parsed}`);
  if (parsed >= MATH_INT_LIMIT) throw new InvalidArgumentError(argument, "must be below 2^256");
  return parsed.toString();
}

/**
 * A non-negative integer below 2^256 as SerializableInt bytes (the chain's big-integer fields).
 *
 * @throws {InvalidArgumentError}
 */
export function serializableUint(value: IntegerInput, argument: string): Uint8Array {
  return encodeSerializableInt(BigInt(decimalAmount(value, argument)));
}

/** An array argument (maybe empty). @throws {InvalidArgumentError} */
export function list<T>(value: readonly T[], argument: string): readonly T[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError(argument, "must be an array");
  return value;
}

/** An object argument. @throws {InvalidArgumentError} */
export function object<T>(value: T, argument: string): T {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, "must be an object");
  }
  return value;
}

/** A boolean argument. @throws {InvalidArgumentError} */
export function bool(value: boolean, argument: string): boolean {
  if (typeof value !== "boolean")
    throw new InvalidArgumentError(argument, `must be true or false, got ${String(value)}`);
  return value;
}
