import { bech32 } from "bech32";
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
import { type InvalidAddressReason, isInvalidAddressError } from "./errors.js";

const HEX = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BECH32 = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
const COSMOS = "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa";
const VALOPER = "perpxvaloper1t2htvpfl862vnwdqnuekd9p4ulh3h6hd9p8hhj";

/** The InvalidAddressError `fn` throws; fails when it throws anything else or nothing. */
function rejection(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isInvalidAddressError(error)) return error;
    throw new Error(`expected an InvalidAddressError, got ${String(error)}`);
  }
  throw new Error("expected an InvalidAddressError, got no error");
}

describe("parseAddress", () => {
  it("reads a 0x address and returns both forms", () => {
    const parsed = parseAddress(HEX.toLowerCase());
    expect(parsed).toEqual({ bytes: expect.any(Uint8Array), bech32: BECH32, hex: HEX, prefix: undefined });
    expect(parsed.bytes.length).toBe(20);
  });

  it("reads a bech32 address and reports its prefix", () => {
    expect(parseAddress(BECH32)).toMatchObject({ bech32: BECH32, hex: HEX, prefix: "perpx" });
    expect(parseAddress(BECH32.toUpperCase())).toMatchObject({ bech32: BECH32, hex: HEX, prefix: "perpx" });
  });

  it("uses options.prefix for bech32 input and output", () => {
    expect(parseAddress(COSMOS, { prefix: "cosmos" })).toMatchObject({ bech32: COSMOS, prefix: "cosmos" });
    expect(parseAddress(HEX, { prefix: "cosmos" })).toMatchObject({ bech32: COSMOS, prefix: undefined });
  });

  it("returns bytes the caller may modify without affecting later results", () => {
    const first = parseAddress(BECH32);
    first.bytes.fill(0);
    expect(parseAddress(BECH32).hex).toBe(HEX);
  });

  const cases: [string, InvalidAddressReason, RegExp][] = [
    ["", "empty", /expected an address, got nothing/],
    ["hello", "bad-format", /no "1" separator/],
    ["1qqqqqqqqqqqqqq", "bad-format", /empty prefix/],
    ["perpx1qqqq", "bad-format", /checksum alone needs 6/],
    ["0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", "bad-format", /lowercase "0x"/],
    ["5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "bad-format", /missing the "0x" prefix/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaez", "bad-character", /"z" at position 41 is not a hex digit/],
    [`${BECH32} `, "bad-character", /" " at position 44 is not a printable ASCII character/],
    [
      "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672i",
      "bad-character",
      /"i" at position 43 is not in the bech32/,
    ],
    ["perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672C", "mixed-case", /all lowercase or all uppercase/],
    ["PERPX1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", "mixed-case", /all lowercase or all uppercase/],
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "bad-checksum", /EIP-55 checksum does not match/],
    ["perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672d", "bad-checksum", /bech32 checksum does not verify/],
    ["perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x762c", "bad-checksum", /bech32 checksum does not verify/],
    [COSMOS, "wrong-prefix", /expected prefix "perpx", got "cosmos"/],
    [VALOPER, "wrong-prefix", /expected prefix "perpx", got "perpxvaloper"/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea", "wrong-length", /expected 40 hex digits after "0x", got 38/],
    [
      bech32.encode("perpx", bech32.toWords(new Uint8Array(21))),
      "wrong-length",
      /expected 20 bytes \(32 data characters\), got 34 data characters \(21 bytes\)/,
    ],
  ];

  it.each(cases)("rejects %j as %s, saying what is wrong", (input, reason, message) => {
    const error = rejection(() => parseAddress(input));
    expect(error.reason).toBe(reason);
    expect(error.input).toBe(input);
    expect(error.code).toBe("INVALID_ADDRESS");
    expect(error.shortMessage).toMatch(message);
  });

  it("rejects a bech32 address of 32 bytes (module and contract accounts) as wrong-length", () => {
    const long = bech32.encode("perpx", bech32.toWords(new Uint8Array(32).fill(7)));
    expect(rejection(() => parseAddress(long)).reason).toBe("wrong-length");
  });

  it("rejects values that are not strings from untyped callers", () => {
    expect(rejection(() => parseAddress(undefined as unknown as string)).reason).toBe("empty");
    expect(rejection(() => parseAddress(null as unknown as string)).reason).toBe("empty");
    expect(rejection(() => parseAddress(42 as unknown as string)).reason).toBe("bad-format");
    expect(rejection(() => parseAddress({} as unknown as string)).shortMessage).toMatch(
      /expected a string, got a object/,
    );
  });

  it("rejects an invalid options.prefix as an argument error", () => {
    expect(() => parseAddress(HEX, { prefix: "PERPX" })).toThrowError(
      expect.objectContaining({ name: "InvalidArgumentError", argument: "options.prefix" }),
    );
  });
});

describe("isValidAddress", () => {
  it("is true exactly when parseAddress accepts", () => {
    expect(isValidAddress(HEX)).toBe(true);
    expect(isValidAddress(HEX.toUpperCase().replace("0X", "0x"))).toBe(true);
    expect(isValidAddress(BECH32)).toBe(true);
    expect(isValidAddress(COSMOS)).toBe(false);
    expect(isValidAddress(COSMOS, { prefix: "cosmos" })).toBe(true);
    expect(isValidAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe(false);
    expect(isValidAddress("")).toBe(false);
  });

  it("throws, rather than answers false, for an invalid options.prefix", () => {
    expect(() => isValidAddress(HEX, { prefix: "" })).toThrow(/Invalid options.prefix/);
  });
});

describe("addressBytes", () => {
  it("returns the 20 bytes of either form", () => {
    expect(addressBytes(HEX)).toEqual(addressBytes(BECH32));
    expect(addressBytes(COSMOS, { prefix: "cosmos" })).toEqual(addressBytes(BECH32));
    expect(rejection(() => addressBytes(COSMOS)).reason).toBe("wrong-prefix");
  });
});

describe("toBech32", () => {
  it("converts a 0x address, defaulting to the perpx prefix", () => {
    expect(toBech32(HEX)).toBe(BECH32);
    expect(toBech32(HEX.toLowerCase())).toBe(BECH32);
    expect(toBech32(HEX, "cosmos")).toBe(COSMOS);
  });

  it("re-encodes a perpx address with another prefix, and accepts the target prefix itself", () => {
    expect(toBech32(BECH32, "cosmos")).toBe(COSMOS);
    expect(toBech32(COSMOS, "cosmos")).toBe(COSMOS);
    expect(toBech32(BECH32)).toBe(BECH32);
    expect(toBech32(BECH32.toUpperCase())).toBe(BECH32);
  });

  it("never silently re-labels another prefix", () => {
    expect(rejection(() => toBech32(COSMOS)).reason).toBe("wrong-prefix");
    expect(rejection(() => toBech32(VALOPER)).reason).toBe("wrong-prefix");
    expect(rejection(() => toBech32(COSMOS, "osmo")).shortMessage).toMatch(
      /expected prefix "perpx" or "osmo", got "cosmos"/,
    );
  });

  it("rejects an invalid target prefix as an argument error", () => {
    expect(() => toBech32(HEX, "")).toThrowError(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});

describe("addressToHex", () => {
  it("returns the EIP-55 spelling from any accepted input", () => {
    expect(addressToHex(BECH32)).toBe(HEX);
    expect(addressToHex(HEX.toLowerCase())).toBe(HEX);
    expect(addressToHex(`0x${HEX.slice(2).toUpperCase()}`)).toBe(HEX);
    expect(addressToHex(HEX)).toBe(HEX);
    expect(addressToHex(COSMOS, { prefix: "cosmos" })).toBe(HEX);
  });

  it("rejects bech32 input of another prefix", () => {
    expect(rejection(() => addressToHex(COSMOS)).reason).toBe("wrong-prefix");
  });
});

describe("validator operator addresses", () => {
  it("convert both ways", () => {
    expect(toValoperAddress(BECH32)).toBe(VALOPER);
    expect(toValoperAddress(HEX)).toBe(VALOPER);
    expect(fromValoperAddress(VALOPER)).toBe(BECH32);
    expect(fromValoperAddress(VALOPER.toUpperCase())).toBe(BECH32);
  });

  it("take only the right kind of address", () => {
    expect(rejection(() => toValoperAddress(VALOPER)).reason).toBe("wrong-prefix");
    expect(rejection(() => toValoperAddress(COSMOS)).reason).toBe("wrong-prefix");
    expect(rejection(() => fromValoperAddress(BECH32)).reason).toBe("wrong-prefix");
    const hex = rejection(() => fromValoperAddress(HEX));
    expect(hex.reason).toBe("wrong-prefix");
    expect(hex.shortMessage).toMatch(/got a 0x address/);
    expect(rejection(() => fromValoperAddress("")).reason).toBe("empty");
    expect(rejection(() => fromValoperAddress(`${VALOPER.slice(0, -1)}q`)).reason).toBe("bad-checksum");
  });
});
