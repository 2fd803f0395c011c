import { isInvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSealer, hashToken, randomToken } from "./secrets.js";

const SECRET = "x".repeat(32);

describe("the store's sealing", () => {
  it("opens what it sealed, for any text, and never shows the plaintext", () => {
    const sealer = createSealer(SECRET);
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (text) => {
        const sealed = sealer.seal(text);
        expect(sealer.open(sealed)).toBe(text);
        expect(sealed.startsWith("v1.")).toBe(true);
        if (text.length >= 8) expect(sealed.includes(text)).toBe(false);
      }),
    );
  });

  it("refuses a value altered anywhere, or sealed under another secret", () => {
    const sealer = createSealer(SECRET);
    const other = createSealer(`${SECRET}!`);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (text, at, bit) => {
        const sealed = sealer.seal(text);
        // Flip one bit of the iv, the ciphertext or the tag.
        const parts = sealed.split(".");
        const which = 1 + (at % 3);
        const bytes = Buffer.from(parts[which] ?? "", "base64url");
        const index = at % bytes.length;
        bytes[index] = (bytes[index] ?? 0) ^ (1 << bit);
        parts[which] = bytes.toString("base64url");
        expect(() => sealer.open(parts.join("."))).toThrow(/cannot be decrypted/);
        expect(() => other.open(sealed)).toThrow(/another server secret/);
      }),
    );
  });

  it("refuses a short secret without echoing it", () => {
    let error: unknown;
    try {
      createSealer("short-secret-123");
    } catch (caught) {
      error = caught;
    }
    expect(isInvalidArgumentError(error)).toBe(true);
    expect(String((error as Error).message)).not.toContain("short-secret-123");
  });

  it("makes distinct 43-character tokens and 64-hex hashes", () => {
    const tokens = new Set(Array.from({ length: 200 }, () => randomToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(hashToken("a")).not.toBe(hashToken("b"));
  });
});
