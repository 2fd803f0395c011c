/**
 * Checks of a direct protobuf decoder against protobuf-es: a strict picture of a decoded message
 * (key order, prototypes, bytes, bigints), the agreement of a decoder with `fromBinary`, and
 * damaged bytes for property tests.
 */
import { type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import fc from "fast-check";
import { expect } from "vitest";

/** Every key in insertion order, prototypes, bytes, bigints and undefined members: a strict picture. */
export function picture(value: unknown): string {
  if (value instanceof Uint8Array) return `bytes(${Buffer.from(value).toString("hex")})`;
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return `[${value.map(picture).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const proto = Object.getPrototypeOf(value) === Object.prototype ? "" : "!proto";
    return `${proto}{${Object.keys(value)
      .map((k) => `${k}:${picture((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return `${typeof value}:${String(value)}`;
}

/** protobuf-es's decoding, or "throws". */
function reference<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> | "throws" {
  try {
    return fromBinary(schema, bytes);
  } catch {
    return "throws";
  }
}

/** The direct decoder takes or leaves `bytes`; what it takes is exactly protobuf-es's decoding. */
export function agrees<Desc extends DescMessage>(
  schema: Desc,
  read: (bytes: Uint8Array) => MessageShape<Desc> | undefined,
  bytes: Uint8Array,
): boolean {
  const ours = read(bytes);
  if (ours === undefined) return false;
  const theirs = reference(schema, bytes);
  expect(theirs).not.toBe("throws");
  expect(picture(ours)).toBe(picture(theirs));
  expect(ours).toStrictEqual(theirs);
  return true;
}

/** Bytes changed at random: a byte replaced, the end cut, or bytes appended. */
export const mutated = (encoded: Uint8Array) =>
  fc.oneof(
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, b]) => {
      const copy = encoded.slice();
      if (copy.length > 0) copy[at % copy.length] = b;
      return copy;
    }),
    fc.nat().map((n) => encoded.subarray(0, encoded.length === 0 ? 0 : n % encoded.length)),
    fc.uint8Array({ minLength: 1, maxLength: 4 }).map((tail) => new Uint8Array([...encoded, ...tail])),
  );
