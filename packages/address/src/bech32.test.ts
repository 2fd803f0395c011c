import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { bech32, bech32m } from "bech32";
import { describe, expect, it } from "vitest";
import { addressBytesToBech32, decodeBech32 } from "./bech32.js";
import { InvalidAddressError } from "./errors.js";

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAddressError);
    return (error as InvalidAddressError).reason;
  }
  throw new Error("expected an InvalidAddressError");
}

/** A Cosmos account address: RIPEMD-160 of SHA-256 of the 33-byte compressed secp256k1 key. */
function cosmosAddressBytes(compressedPubkey: Uint8Array): Uint8Array {
  expect(compressedPubkey.length).toBe(33);
  return ripemd160(sha256(compressedPubkey));
}

describe("addressBytesToBech32", () => {
  it("encodes the all-zero address", () => {
    expect(addressBytesToBech32(new Uint8Array(20))).toBe("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc");
  });

  // Published vectors: a key and the address its own project derives from it. The address bytes
  // are computed here independently (SHA-256 then RIPEMD-160) and only the encoding is ours.
  it("matches the address cosmjs derives from a known secp256k1 public key", () => {
    const pubkey = Uint8Array.from(Buffer.from("AtQaCqFnshaZQp6rIkvAPyzThvCvXSDO+9AzbxVErqJP", "base64"));
    const bytes = cosmosAddressBytes(pubkey);
    expect(addressBytesToBech32(bytes, "cosmos")).toBe("cosmos1h806c7khnvmjlywdrkdgk2vrayy2mmvf9rxk2r");
    expect(decodeBech32("cosmos1h806c7khnvmjlywdrkdgk2vrayy2mmvf9rxk2r", ["cosmos"]).bytes).toEqual(bytes);
  });

  it("matches the address the Ledger Cosmos app derives from a known public key", () => {
    const bytes = cosmosAddressBytes(
      hexToBytes("034fef9cd7c4c63588d3b03feb5281b9d232cba34d6f3d71aee59211ffbfe1fe87"),
    );
    expect(addressBytesToBech32(bytes, "terra")).toBe("terra1w34k53py5v5xyluazqpq65agyajavep29d9qch");
  });

  it("rejects byte arrays that are not 20 bytes long", () => {
    expect(reasonOf(() => addressBytesToBech32(new Uint8Array(32)))).toBe("wrong-length");
    expect(reasonOf(() => addressBytesToBech32(new Uint8Array(0)))).toBe("wrong-length");
  });

  it("rejects invalid prefixes as an argument error, not as an address", () => {
    for (const prefix of ["", "Perpx", "per px", "a".repeat(52), "pérpx", "0x", "0xperpx"]) {
      expect(() => addressBytesToBech32(new Uint8Array(20), prefix)).toThrowError(
        expect.objectContaining({ name: "InvalidArgumentError", code: "INVALID_ARGUMENT" }),
      );
    }
  });

  it("accepts the longest prefix that keeps the address within 90 characters", () => {
    const encoded = addressBytesToBech32(new Uint8Array(20), "a".repeat(51));
    expect(encoded.length).toBe(90);
    expect(bech32.decode(encoded).prefix).toBe("a".repeat(51));
  });
});

describe("decodeBech32", () => {
  const valid = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";

  it("accepts the all-uppercase spelling and reports the prefix in lowercase", () => {
    const decoded = decodeBech32(valid.toUpperCase(), ["perpx"]);
    expect(decoded.prefix).toBe("perpx");
    expect(decoded.bytes).toEqual(decodeBech32(valid, ["perpx"]).bytes);
  });

  it("accepts any of the accepted prefixes and nothing else", () => {
    expect(decodeBech32(valid, ["cosmos", "perpx"]).prefix).toBe("perpx");
    expect(() => decodeBech32(valid, ["cosmos", "osmo"])).toThrow(
      /wrong prefix: expected prefix "cosmos" or "osmo", got "perpx"/,
    );
  });

  // The invalid strings of BIP-173 (https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki),
  // with the reason each must get.
  it.each([
    ["\x201nwldj5", "bad-character"], // HRP character out of range
    ["\x7f1axkwrx", "bad-character"], // HRP character out of range
    ["\x801eym55h", "bad-character"], // HRP character out of range
    ["pzry9x0s0muk", "bad-format"], // no separator character
    ["1pzry9x0s0muk", "bad-format"], // empty HRP
    ["x1b4n0q5v", "bad-character"], // invalid data character
    ["li1dgmt3", "bad-format"], // too short checksum
    ["de1lg7wt\xff", "bad-character"], // invalid character in checksum
    ["A1G7SGD8", "bad-checksum"], // checksum calculated with uppercase form of HRP
    ["10a06t8", "bad-format"], // empty HRP
    ["1qzzfhee", "bad-format"], // empty HRP
  ])("rejects the BIP-173 invalid string %j as %s", (input, reason) => {
    expect(reasonOf(() => decodeBech32(input, ["perpx"]))).toBe(reason);
  });

  // BIP-173's over-long string has a valid checksum: without the 90-character limit, its real
  // defect for us is its prefix.
  it("reports the over-long BIP-173 string by its real defect", () => {
    const long =
      "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx";
    expect(reasonOf(() => decodeBech32(long, ["perpx"]))).toBe("wrong-prefix");
  });

  // The valid strings of BIP-173 verify; they are not 20-byte perpx addresses.
  it.each([
    ["A12UEL5L", "wrong-length"],
    ["a12uel5l", "wrong-length"],
    [
      "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
      "wrong-length",
    ],
    [`11${"q".repeat(82)}c8247j`, "wrong-length"],
    ["split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "wrong-prefix"],
    ["?1ezyfcl", "wrong-length"],
  ])("accepts the checksum of BIP-173 valid string %j and reports %s", (input, reason) => {
    const prefix = input.slice(0, input.lastIndexOf("1")).toLowerCase();
    const accepted = reason === "wrong-prefix" ? ["perpx"] : [prefix];
    expect(bech32.decodeUnsafe(input, 1023)).toBeDefined();
    expect(reasonOf(() => decodeBech32(input, accepted))).toBe(reason);
  });

  // One BIP-173 valid string happens to hold exactly 20 bytes: the 32 data characters in order.
  it("decodes the 20-byte BIP-173 valid string", () => {
    const decoded = decodeBech32("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", ["abcdef"]);
    expect(decoded.prefix).toBe("abcdef");
    expect(decoded.bytes).toEqual(hexToBytes("00443214c74254b635cf84653a56d7c675be77df"));
    expect(addressBytesToBech32(decoded.bytes, "abcdef")).toBe(
      "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
    );
  });

  it("reports a bech32m checksum as bad-checksum", () => {
    const words = bech32.toWords(new Uint8Array(20));
    expect(reasonOf(() => decodeBech32(bech32m.encode("perpx", words), ["perpx"]))).toBe("bad-checksum");
  });

  it("says how many bytes a wrong-length address holds", () => {
    const long = bech32.encode("perpx", bech32.toWords(new Uint8Array(32)));
    expect(() => decodeBech32(long, ["perpx"])).toThrow(
      /expected 20 bytes .* got 52 data characters \(32 bytes\)/,
    );
    const short = bech32.encode("perpx", bech32.toWords(new Uint8Array(19)));
    expect(reasonOf(() => decodeBech32(short, ["perpx"]))).toBe("wrong-length");
  });

  it("reports each structural defect precisely", () => {
    expect(() => decodeBech32("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672C", ["perpx"])).toThrow(
      /mixed case/,
    );
    expect(() => decodeBech32(` ${valid}`, ["perpx"])).toThrow(/" " at position 0 is not a printable ASCII/);
    expect(() => decodeBech32(`${valid}\n`, ["perpx"])).toThrow(/bad character/);
    expect(() => decodeBech32("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672b", ["perpx"])).toThrow(
      /"b" at position 43 is not in the bech32 alphabet/,
    );
    expect(() => decodeBech32("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672q", ["perpx"])).toThrow(
      /bad checksum/,
    );
  });
});
