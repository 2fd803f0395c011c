import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { InvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToUint, type RlpItem, rlpDecode, rlpEncode, uintToBytes } from "./rlp.js";

const hex = (item: RlpItem) => bytesToHex(rlpEncode(item));
const s = utf8ToBytes;

const item: fc.Arbitrary<RlpItem> = fc.letrec<{ item: RlpItem }>((tie) => ({
  item: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.uint8Array({ maxLength: 80 }),
    fc.array(tie("item"), { maxLength: 5 }),
  ),
})).item;

describe("RLP", () => {
  // Vectors of the Ethereum test suite (ethereum/tests RLPTests/rlptest.json).
  it.each([
    ["emptystring", s(""), "80"],
    ["bytestring00", Uint8Array.of(0), "00"],
    ["bytestring7F", Uint8Array.of(0x7f), "7f"],
    ["shortstring", s("dog"), "83646f67"],
    [
      "shortstring2",
      s("Lorem ipsum dolor sit amet, consectetur adipisicing eli"),
      `b7${bytesToHex(s("Lorem ipsum dolor sit amet, consectetur adipisicing eli"))}`,
    ],
    [
      "longstring",
      s("Lorem ipsum dolor sit amet, consectetur adipisicing elit"),
      `b838${bytesToHex(s("Lorem ipsum dolor sit amet, consectetur adipisicing elit"))}`,
    ],
    ["zero", uintToBytes(0n), "80"],
    ["smallint", uintToBytes(1n), "01"],
    ["smallint3", uintToBytes(100n), "64"],
    ["mediumint1", uintToBytes(1000n), "8203e8"],
    ["mediumint2", uintToBytes(100000n), "830186a0"],
    ["emptylist", [], "c0"],
    ["stringlist", [s("dog"), s("god"), s("cat")], "cc83646f6783676f6483636174"],
    ["multilist", [s("zw"), [uintToBytes(4n)], uintToBytes(1n)], "c6827a77c10401"],
    ["listsoflists", [[[], []], []], "c4c2c0c0c0"],
    ["listsoflists2", [[], [[]], [[], [[]]]], "c7c0c1c0c3c0c1c0"],
    [
      "dictTest1",
      [
        [s("key1"), s("val1")],
        [s("key2"), s("val2")],
        [s("key3"), s("val3")],
        [s("key4"), s("val4")],
      ],
      "ecca846b6579318476616c31ca846b6579328476616c32ca846b6579338476616c33ca846b6579348476616c34",
    ],
    [
      "bigint",
      uintToBytes(1n << 256n),
      "a1010000000000000000000000000000000000000000000000000000000000000000",
    ],
  ])("%s", (_name, value, expected) => {
    expect(hex(value)).toBe(expected);
    expect(rlpDecode(hexToBytes(expected))).toEqual(value);
  });

  it("decodes what it encodes (property)", () => {
    fc.assert(
      fc.property(item, (value) => {
        expect(rlpDecode(rlpEncode(value))).toEqual(value);
      }),
    );
  });

  it("integers round-trip through their minimal bytes (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (n) => {
        const bytes = uintToBytes(n);
        expect(bytes[0]).not.toBe(0);
        expect(bytesToUint(rlpDecode(rlpEncode(bytes)), "n")).toBe(n);
      }),
    );
  });

  it.each([
    ["a truncated string", "83646f"],
    ["trailing bytes", "8000"],
    ["a list item running past its list", "c283646f67"],
    ["empty input", ""],
  ])("refuses %s", (_name, input) => {
    expect(() => rlpDecode(hexToBytes(input))).toThrow(InvalidArgumentError);
  });

  it("refuses integers with a leading zero byte or given as a list", () => {
    expect(() => bytesToUint(Uint8Array.of(0, 1), "nonce")).toThrow(/nonce.*leading zero/);
    expect(() => bytesToUint([], "nonce")).toThrow(/nonce.*list/);
  });
});
