import { hexToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { InvalidAddressError } from "./errors.js";
import { addressBytesToHex, decodeHex, looksLikeHex } from "./hex.js";

/** The test vectors of EIP-55 (https://eips.ethereum.org/EIPS/eip-55). */
const EIP55_VECTORS = [
  // All caps
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  // All lower
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  // Normal
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
] as const;

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAddressError);
    return (error as InvalidAddressError).reason;
  }
  throw new Error("expected an InvalidAddressError");
}

describe("addressBytesToHex", () => {
  it.each(EIP55_VECTORS)("spells %s as EIP-55 does", (vector) => {
    expect(addressBytesToHex(hexToBytes(vector.slice(2).toLowerCase()))).toBe(vector);
  });

  it("rejects byte arrays that are not 20 bytes long", () => {
    for (const length of [0, 1, 19, 21, 32]) {
      expect(reasonOf(() => addressBytesToHex(new Uint8Array(length)))).toBe("wrong-length");
    }
  });

  it("rejects values that are not byte arrays", () => {
    expect(reasonOf(() => addressBytesToHex([1, 2, 3] as unknown as Uint8Array))).toBe("bad-format");
  });
});

describe("decodeHex", () => {
  it.each(EIP55_VECTORS)("accepts %s, and its all-lowercase and all-uppercase spellings", (vector) => {
    const bytes = hexToBytes(vector.slice(2).toLowerCase());
    expect(decodeHex(vector)).toEqual(bytes);
    expect(decodeHex(`0x${vector.slice(2).toLowerCase()}`)).toEqual(bytes);
    expect(decodeHex(`0x${vector.slice(2).toUpperCase()}`)).toEqual(bytes);
  });

  it("rejects a mixed-case spelling that is not the checksum as bad-checksum", () => {
    // The last letter of each normal vector with its case flipped.
    for (const vector of EIP55_VECTORS.slice(4)) {
      const last = vector.search(/[a-fA-F][^a-fA-F]*$/);
      const char = vector[last]!;
      const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
      const mutated = vector.slice(0, last) + flipped + vector.slice(last + 1);
      expect(reasonOf(() => decodeHex(mutated))).toBe("bad-checksum");
    }
  });

  it("does not reveal the correct checksum in the message", () => {
    const wrong = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
    expect(() => decodeHex(wrong)).toThrow(/EIP-55 checksum does not match/);
    try {
      decodeHex(wrong);
    } catch (error) {
      expect((error as Error).message).not.toContain("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    }
  });

  it("reports non-hex characters with their position", () => {
    expect(() => decodeHex("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg")).toThrow(
      /bad character: "g" at position 41 is not a hex digit/,
    );
    expect(reasonOf(() => decodeHex("0x 5aaeb6053f3e94c9b9a09f33669435e7ef1beae"))).toBe("bad-character");
    expect(reasonOf(() => decodeHex("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaé"))).toBe("bad-character");
  });

  it("reports the wrong number of digits", () => {
    expect(() => decodeHex("0x")).toThrow(/wrong length: expected 40 hex digits after "0x", got 0/);
    expect(reasonOf(() => decodeHex(`0x${"a".repeat(39)}`))).toBe("wrong-length");
    expect(reasonOf(() => decodeHex(`0x${"a".repeat(41)}`))).toBe("wrong-length");
    expect(reasonOf(() => decodeHex(`0x${"a".repeat(64)}`))).toBe("wrong-length");
  });

  it("reports a missing or uppercase 0x as bad-format", () => {
    expect(() => decodeHex("0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toThrow(/lowercase "0x"/);
    expect(() => decodeHex("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toThrow(/missing the "0x" prefix/);
  });
});

describe("looksLikeHex", () => {
  it("routes 0x, 0X and bare 40-digit hex to the hex decoder", () => {
    expect(looksLikeHex("0x", ["perpx"])).toBe(true);
    expect(looksLikeHex("0Xab", ["perpx"])).toBe(true);
    expect(looksLikeHex("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", ["perpx"])).toBe(true);
    expect(looksLikeHex("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc", ["perpx"])).toBe(false);
  });

  it("leaves 40 hex-looking characters to bech32 when they start with an accepted prefix", () => {
    // "a1" + 38 characters of the bech32 alphabet that are also hex digits.
    const ambiguous = `a1${"0".repeat(38)}`;
    expect(looksLikeHex(ambiguous, ["a"])).toBe(false);
    expect(looksLikeHex(ambiguous, ["perpx"])).toBe(true);
  });
});
