import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Kind, fromBase64, fromHex, toBase64, toHexLower, toHexUpper } from "./encoding.js";

/** The grammar the decoders accept, as regular expressions (fine for short strings only). */
const STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;
const kindByGrammar = (text: string) => (STD.test(text) ? "std" : URL_SAFE.test(text) ? "url" : undefined);

const bytes = fc.uint8Array({ maxLength: 200 });
const base64ish = fc
  .array(fc.constantFrom(..."Az09+/-_=!x \n"), { maxLength: 24 })
  .map((chars) => chars.join(""));

describe("the servers' byte decoders", () => {
  it("property: base64 and base64url round-trip any bytes", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(fromBase64(toBase64(b))).toEqual(b);
        expect(fromBase64(Buffer.from(b).toString("base64url"))).toEqual(b);
        expect(fromBase64(toBase64(b).replace(/=+$/, ""))).toEqual(b);
      }),
    );
  });

  it("property: hex round-trips any bytes, in either case and with or without 0x", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(fromHex(toHexLower(b))).toEqual(b);
        expect(fromHex(`0x${toHexUpper(b)}`)).toEqual(b);
        expect(fromHex(`0X${toHexLower(b)}`)).toEqual(b);
      }),
    );
  });

  it("property: the one-pass base64 check accepts exactly the documented grammar", () => {
    fc.assert(
      fc.property(base64ish, (text) => {
        expect(base64Kind(text)).toBe(kindByGrammar(text));
        expect(fromBase64(text) === undefined).toBe(kindByGrammar(text) === undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it("property: hex is refused for an odd length or any non-hex character", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        const expected = /^(?:0[xX])?(?:[0-9a-fA-F]{2})*$/.test(text);
        expect(fromHex(text) !== undefined).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("checks and decodes a 6 MB base64 string and an 8 MB hex string in constant stack", () => {
    const big = new Uint8Array(4_600_000).map((_, i) => i * 7);
    const text = toBase64(big);
    expect(text.length).toBeGreaterThan(6_000_000);
    expect(Buffer.from(fromBase64(text)!).equals(big)).toBe(true);
    expect(fromBase64(`${text.slice(0, -4)}!AAA`)).toBeUndefined();
    const hex = toHexLower(big.subarray(0, 4_000_000));
    expect(fromHex(hex)?.length).toBe(4_000_000);
    expect(fromHex(`${hex}0`)).toBeUndefined();
  });
});
