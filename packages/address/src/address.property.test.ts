import { bytesToHex } from "@noble/hashes/utils.js";
import { bech32 } from "bech32";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addressBytes,
  addressToHex,
  fromValoperAddress,
  isValidAddress,
  parseAddress,
  toBech32,
  toValoperAddress,
} from "./address.js";
import { addressBytesToBech32 } from "./bech32.js";
import { type InvalidAddressReason, isInvalidAddressError } from "./errors.js";
import { addressBytesToHex } from "./hex.js";
import { isValidPrefix, MAX_PREFIX_LENGTH } from "./prefix.js";

const ALPHABET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const REASONS: readonly InvalidAddressReason[] = [
  "empty",
  "bad-format",
  "bad-character",
  "mixed-case",
  "bad-checksum",
  "wrong-prefix",
  "wrong-length",
];

const address = fc.uint8Array({ minLength: 20, maxLength: 20 });
const prefixChars = [...Array(94).keys()]
  .map((i) => String.fromCharCode(33 + i))
  .filter((c) => !/[A-Z]/.test(c));
/** Any valid prefix: 1 to 51 printable ASCII characters, no uppercase letters, not starting with "0x". */
const prefix = fc
  .string({ unit: fc.constantFrom(...prefixChars), minLength: 1, maxLength: MAX_PREFIX_LENGTH })
  .filter((p) => !p.startsWith("0x"));

/** The reason of the InvalidAddressError `fn` throws, or `undefined` when it returns. Any other error fails. */
function outcome(fn: () => unknown, input: string): InvalidAddressReason | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!isInvalidAddressError(error)) throw new Error(`not an InvalidAddressError: ${String(error)}`);
    expect(REASONS).toContain(error.reason);
    expect(error.input).toBe(input);
    return error.reason;
  }
}

/** The bech32 position (after the separator) of the data characters in a 20-byte address. */
function dataStart(encoded: string): number {
  return encoded.lastIndexOf("1") + 1;
}

describe("round trips", () => {
  it("random 20 bytes survive both forms with any valid prefix", () => {
    fc.assert(
      fc.property(address, prefix, (bytes, p) => {
        expect(isValidPrefix(p)).toBe(true);
        const encoded = addressBytesToBech32(bytes, p);
        const hex = addressBytesToHex(bytes);
        expect(encoded.length).toBeLessThanOrEqual(90);
        expect(addressBytes(encoded, { prefix: p })).toEqual(bytes);
        expect(addressBytes(hex)).toEqual(bytes);
        expect(addressToHex(encoded, { prefix: p })).toBe(hex);
        expect(toBech32(hex, p)).toBe(encoded);
        expect(toBech32(toBech32(hex), p)).toBe(encoded);
        const parsed = parseAddress(encoded.toUpperCase(), { prefix: p });
        expect(parsed).toEqual({ bytes, bech32: encoded, hex, prefix: p });
      }),
    );
  });

  it("every accepted spelling of a 0x address reads as the same bytes", () => {
    fc.assert(
      fc.property(address, (bytes) => {
        const digits = bytesToHex(bytes);
        const hex = addressBytesToHex(bytes);
        expect(hex.slice(2).toLowerCase()).toBe(digits);
        for (const spelling of [hex, `0x${digits}`, `0x${digits.toUpperCase()}`]) {
          expect(addressBytes(spelling)).toEqual(bytes);
          expect(addressToHex(spelling)).toBe(hex);
        }
      }),
    );
  });

  it("validator operator addresses round trip", () => {
    fc.assert(
      fc.property(address, (bytes) => {
        const account = addressBytesToBech32(bytes);
        const valoper = toValoperAddress(account);
        expect(valoper).toBe(addressBytesToBech32(bytes, "perpxvaloper"));
        expect(fromValoperAddress(valoper)).toBe(account);
      }),
    );
  });
});

describe("cross-check with the bech32 package", () => {
  it("our encoding decodes with bech32.decode to the same prefix and bytes", () => {
    fc.assert(
      fc.property(address, prefix, (bytes, p) => {
        const decoded = bech32.decode(addressBytesToBech32(bytes, p));
        expect(decoded.prefix).toBe(p);
        expect(Uint8Array.from(bech32.fromWords(decoded.words))).toEqual(bytes);
      }),
    );
  });

  it("we accept a string exactly when bech32.decodeUnsafe accepts it and it holds 20 bytes of the prefix", () => {
    const candidate = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom(..."perpx1qpzry9x8gf2tvdw0s3jn54khce6mua7lPERPXQ".split("")) }),
      fc.tuple(address, fc.nat(), fc.constantFrom(...ALPHABET.split(""))).map(([bytes, at, char]) => {
        const encoded = addressBytesToBech32(bytes);
        const i = dataStart(encoded) + (at % 38);
        return encoded.slice(0, i) + char + encoded.slice(i + 1);
      }),
    );
    fc.assert(
      fc.property(candidate, (input) => {
        const theirs = bech32.decodeUnsafe(input, 1023);
        const expected = theirs !== undefined && theirs.prefix === "perpx" && theirs.words.length === 32;
        expect(isValidAddress(input)).toBe(expected && !input.startsWith("0x"));
      }),
    );
  });
});

describe("every invalid input throws InvalidAddressError and nothing else", () => {
  it("random strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" })),
        (input) => {
          const reason = outcome(() => parseAddress(input), input);
          if (reason === undefined) expect(isValidAddress(input)).toBe(true);
          for (const fn of [
            addressToHex,
            toBech32,
            toValoperAddress,
            fromValoperAddress,
            addressBytes,
            isValidAddress,
          ]) {
            outcome(() => fn(input), input);
          }
        },
      ),
    );
  });

  it("strings near the valid forms (0x + hex-ish, prefix + bech32-ish)", () => {
    const near = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFgx ".split("")) }).map((s) => `0x${s}`),
      fc
        .string({ unit: fc.constantFrom(...`${ALPHABET}${ALPHABET.toUpperCase()}1bio `.split("")) })
        .map((s) => `perpx1${s}`),
    );
    fc.assert(
      fc.property(near, (input) => {
        outcome(() => parseAddress(input), input);
      }),
    );
  });

  it("one substituted bech32 character is always caught as bad-checksum or bad-character", () => {
    fc.assert(
      fc.property(address, prefix, fc.nat(), fc.constantFrom(...ALPHABET.split("")), (bytes, p, at, char) => {
        const encoded = addressBytesToBech32(bytes, p);
        const i = dataStart(encoded) + (at % 38);
        fc.pre(encoded[i] !== char);
        const mutated = encoded.slice(0, i) + char + encoded.slice(i + 1);
        expect(outcome(() => parseAddress(mutated, { prefix: p }), mutated)).toBe("bad-checksum");
      }),
    );
  });

  it("a character outside the bech32 alphabet is bad-character", () => {
    fc.assert(
      fc.property(address, fc.nat(), fc.constantFrom("b", "i", "o", "1", "!", "~"), (bytes, at, char) => {
        const encoded = addressBytesToBech32(bytes);
        const i = dataStart(encoded) + (at % 38);
        const mutated = encoded.slice(0, i) + char + encoded.slice(i + 1);
        // A "1" moves the separator; what is left may be too short or fail the checksum.
        const reason = outcome(() => parseAddress(mutated), mutated);
        if (char === "1") expect(["bad-format", "bad-checksum", "bad-character"]).toContain(reason);
        else expect(reason).toBe("bad-character");
      }),
    );
  });

  it("two swapped adjacent bech32 characters are caught", () => {
    fc.assert(
      fc.property(address, fc.nat(), (bytes, at) => {
        const encoded = addressBytesToBech32(bytes);
        const i = dataStart(encoded) + (at % 37);
        fc.pre(encoded[i] !== encoded[i + 1]);
        const mutated = encoded.slice(0, i) + encoded[i + 1] + encoded[i] + encoded.slice(i + 2);
        expect(outcome(() => parseAddress(mutated), mutated)).toBe("bad-checksum");
      }),
    );
  });

  it("mixed-case bech32 is mixed-case", () => {
    fc.assert(
      fc.property(address, fc.nat(), (bytes, at) => {
        const encoded = addressBytesToBech32(bytes);
        const letters = [...encoded].flatMap((c, i) => (/[a-z]/.test(c) ? [i] : []));
        const i = letters[at % letters.length]!;
        const mutated = encoded.slice(0, i) + encoded[i]!.toUpperCase() + encoded.slice(i + 1);
        expect(outcome(() => parseAddress(mutated), mutated)).toBe("mixed-case");
      }),
    );
  });

  it("a 0x address whose case differs from its checksum is bad-checksum unless it is single-case", () => {
    fc.assert(
      fc.property(address, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), (bytes, flips) => {
        const hex = addressBytesToHex(bytes);
        const chars = [...hex];
        const letters = chars.flatMap((c, i) => (i >= 2 && /[a-fA-F]/.test(c) ? [i] : []));
        fc.pre(letters.length > 0);
        for (const flip of new Set(flips.map((f) => letters[f % letters.length]!))) {
          const c = chars[flip]!;
          chars[flip] = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
        }
        const mutated = chars.join("");
        fc.pre(mutated !== hex);
        const digits = mutated.slice(2);
        const singleCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
        const reason = outcome(() => parseAddress(mutated), mutated);
        if (singleCase) expect(reason).toBeUndefined();
        else expect(reason).toBe("bad-checksum");
      }),
    );
  });

  it("a substituted hex digit in a checksummed 0x address is caught unless the result is single-case", () => {
    fc.assert(
      fc.property(
        address,
        fc.nat(),
        fc.constantFrom(..."0123456789abcdefABCDEF".split("")),
        (bytes, at, d) => {
          const hex = addressBytesToHex(bytes);
          const i = 2 + (at % 40);
          fc.pre(hex[i]!.toLowerCase() !== d.toLowerCase());
          const mutated = hex.slice(0, i) + d + hex.slice(i + 1);
          const digits = mutated.slice(2);
          const reason = outcome(() => parseAddress(mutated), mutated);
          // Single-case spellings carry no checksum, so a typo in one is undetectable by design.
          if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) {
            // EIP-55 catches a changed digit unless the new hash happens to give the same casing.
            if (reason === undefined) expect(addressToHex(mutated)).toBe(mutated);
            else expect(reason).toBe("bad-checksum");
          }
        },
      ),
    );
  });

  it("0x addresses of any other length are wrong-length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, odd) => {
        const digits = bytesToHex(bytes) + (odd ? "a" : "");
        fc.pre(digits.length !== 40);
        const input = `0x${digits}`;
        expect(outcome(() => parseAddress(input), input)).toBe("wrong-length");
      }),
    );
  });

  it("bech32 addresses of any other byte length are wrong-length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), prefix, (bytes, p) => {
        fc.pre(bytes.length !== 20);
        const input = bech32.encode(p, bech32.toWords(bytes), 1023);
        expect(outcome(() => parseAddress(input, { prefix: p }), input)).toBe("wrong-length");
      }),
    );
  });

  it("valid addresses of another prefix are wrong-prefix", () => {
    fc.assert(
      fc.property(address, prefix, prefix, (bytes, mine, theirs) => {
        fc.pre(mine !== theirs);
        const input = addressBytesToBech32(bytes, theirs);
        expect(outcome(() => parseAddress(input, { prefix: mine }), input)).toBe("wrong-prefix");
      }),
    );
  });
});
