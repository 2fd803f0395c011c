import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "./sha256.js";

describe("sha256 (native)", () => {
  it("hashes the empty input and a known vector", () => {
    expect(Buffer.from(sha256(new Uint8Array())).toString("hex")).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(Buffer.from(sha256("abc")).toString("hex")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("agrees with the JavaScript SHA-256 on any bytes and any string (as UTF-8)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(sha256(bytes)).toEqual(nobleSha256(bytes));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => {
        expect(sha256(text)).toEqual(nobleSha256(new TextEncoder().encode(text)));
      }),
    );
  });

  it("hashes a view by its own bytes and returns a plain array of its own", () => {
    const whole = new Uint8Array([9, 1, 2, 3, 9]);
    expect(sha256(whole.subarray(1, 4))).toEqual(nobleSha256(new Uint8Array([1, 2, 3])));
    const digest = sha256("x");
    expect(Buffer.isBuffer(digest)).toBe(false);
    expect(digest.buffer.byteLength).toBe(32);
  });
});
