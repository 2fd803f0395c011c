import { type DescField, getOption, hasOption, ScalarType } from "@bufbuild/protobuf";
import { errorGuard, PerpxError, type PerpxErrorOptions } from "@perpx/errors";
import { serializable_int } from "./gen/perpx/dtypes/v1/options_pb.js";

/** Sign byte of a zero or positive SerializableInt (Go's gob version 1, sign bit clear). */
const POSITIVE = 0x02;
/** Sign byte of a negative SerializableInt (sign bit set). */
const NEGATIVE = 0x03;

/**
 * A SerializableInt that cannot be read: bytes whose sign byte is neither `0x02` nor `0x03`, or JSON
 * for a SerializableInt field that is not a decimal integer. Code `DECODE`.
 *
 * @example
 * ```ts
 * import { decodeSerializableInt, isSerializableIntError } from "@perpx/proto";
 * try {
 *   decodeSerializableInt(new Uint8Array([0x07]));
 * } catch (error) {
 *   if (isSerializableIntError(error)) console.error(error.field, error.shortMessage);
 * }
 * ```
 */
export class SerializableIntError extends PerpxError {
  override name = "SerializableIntError";
  /**
   * Where the value was, as a path of JSON field names from the message being converted
   * (`subaccount.asset_positions[0].quantums`); `undefined` when the value was not in a message.
   */
  readonly field: string | undefined;

  /**
   * @param problem - what is wrong with the value.
   * @param field - the field path, when the value was in a message.
   * @param options - cause, details and meta lines.
   */
  constructor(problem: string, field?: string, options: PerpxErrorOptions = {}) {
    super(
      "DECODE",
      `Invalid SerializableInt${field === undefined ? "" : ` at ${field}`}: ${problem}`,
      options,
    );
    this.field = field;
  }
}

/**
 * True when `value` is a {@link SerializableIntError}, across duplicated package copies.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   decodeSerializableInt(Uint8Array.of(0x07));
 * } catch (error) {
 *   isSerializableIntError(error); // true
 * }
 * ```
 */
export const isSerializableIntError = errorGuard<SerializableIntError>("SerializableIntError");

/**
 * Encodes an integer as SerializableInt bytes, as Go's `big.Int.GobEncode()` does: `0x02` for zero
 * or positive, `0x03` for negative, then the big-endian magnitude without padding. Zero is `[0x02]`.
 *
 * @param value - any integer.
 * @returns the bytes for a SerializableInt field.
 *
 * @example
 * ```ts
 * import { encodeSerializableInt } from "@perpx/proto";
 * encodeSerializableInt(1_000_000n); // Uint8Array.of(0x02, 0x0f, 0x42, 0x40)
 * encodeSerializableInt(-256n); // Uint8Array.of(0x03, 0x01, 0x00)
 * ```
 */
export function encodeSerializableInt(value: bigint): Uint8Array {
  const negative = value < 0n;
  let hex = (negative ? -value : value).toString(16);
  if (value === 0n) hex = "";
  else if (hex.length % 2 === 1) hex = `0${hex}`;
  const out = new Uint8Array(1 + hex.length / 2);
  out[0] = negative ? NEGATIVE : POSITIVE;
  for (let i = 1; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i - 2, 2 * i), 16);
  return out;
}

/**
 * Decodes SerializableInt bytes (Go `big.Int.GobEncode()`). Empty bytes (an unset field) are 0, and
 * so is a sign byte with no magnitude or a zero magnitude (`[0x02, 0x00]`, as some clients write 0).
 *
 * @param bytes - the field's bytes.
 * @returns the integer.
 * @throws {SerializableIntError} when the first byte is neither `0x02` nor `0x03`.
 *
 * @example
 * ```ts
 * import { decodeSerializableInt } from "@perpx/proto";
 * decodeSerializableInt(new Uint8Array([0x03, 0x01, 0x00])); // -256n
 * decodeSerializableInt(new Uint8Array()); // 0n
 * ```
 */
export function decodeSerializableInt(bytes: Uint8Array): bigint {
  return decodeAt(bytes, undefined);
}

/** {@link decodeSerializableInt}, naming `field` in its error. */
export function decodeAt(bytes: Uint8Array, field: string | undefined): bigint {
  if (bytes.length === 0) return 0n;
  const sign = bytes[0] as number;
  if (sign !== POSITIVE && sign !== NEGATIVE) {
    throw new SerializableIntError(
      `sign byte 0x${sign.toString(16).padStart(2, "0")} is neither 0x02 (zero or positive) nor 0x03 (negative)`,
      field,
    );
  }
  let hex = "0x0";
  for (let i = 1; i < bytes.length; i++) hex += (bytes[i] as number).toString(16).padStart(2, "0");
  const magnitude = BigInt(hex);
  return sign === NEGATIVE ? -magnitude : magnitude;
}

/**
 * Reads the JSON form of a SerializableInt: a decimal integer string (`"-42"`), or a JSON number that
 * is a safe integer.
 *
 * @throws {SerializableIntError} naming `field` for anything else.
 */
export function parseAt(value: unknown, field: string): bigint {
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  throw new SerializableIntError(`${JSON.stringify(value)} is not a decimal integer string`, field);
}

/**
 * True when `field` is a SerializableInt: a `bytes` or `repeated bytes` field marked with the
 * `(perpx.dtypes.v1.serializable_int)` option (position quantums, funding indexes, open interest,
 * equity tier thresholds, staking amounts, rate-limit amounts, affiliate volumes).
 *
 * @param field - a field descriptor, e.g. `subaccounts.AssetPositionSchema.field.quantums`.
 * @returns whether the field's bytes are a SerializableInt (a decimal string in JSON).
 *
 * @example
 * ```ts
 * import { isSerializableIntField, subaccounts } from "@perpx/proto";
 * isSerializableIntField(subaccounts.AssetPositionSchema.field.quantums); // true
 * isSerializableIntField(subaccounts.AssetPositionSchema.field.assetId); // false
 * ```
 */
export function isSerializableIntField(field: DescField): boolean {
  const bytes =
    (field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")) &&
    field.scalar === ScalarType.BYTES;
  return bytes && hasOption(field, serializable_int()) && getOption(field, serializable_int());
}
