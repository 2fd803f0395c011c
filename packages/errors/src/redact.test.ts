import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "./index.js";
import { REDACTED, redactSecrets } from "./redact.js";

const hexKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
const mnemonic = fc
  .constantFrom(12, 15, 18, 21, 24)
  .chain((n) =>
    fc.array(
      // a mnemonic's words: 3 to 8 lowercase letters, none of the prose words redaction stops at
      fc
        .stringMatching(/^[a-z]{3,8}$/)
        .filter((w) => redactSecrets(Array(12).fill(w).join(" ")) === REDACTED),
      { minLength: n, maxLength: n },
    ),
  )
  .map((words) => words.join(" "));
const credential = hexKey.map((key) =>
  btoa(
    JSON.stringify({ masterAddress: "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy", tradingPrivateKey: key }),
  ),
);
/** Text around a secret: prose, quotes, JSON, field labels. */
const around = fc.constantFrom(
  ["Invalid address ", " (bad format)"],
  ['Invalid hdPath: got "', '"'],
  ['{"amount":"', '"}'],
  ["value=", ""],
  ["", ""],
  ["got ", ", expected a number"],
);

describe("redactSecrets (property)", () => {
  it("never lets a 64-hex key through, with or without 0x, in any case", () => {
    fc.assert(
      fc.property(hexKey, fc.boolean(), fc.boolean(), around, (key, prefixed, upper, [before, after]) => {
        const secret = `${prefixed ? "0x" : ""}${upper ? key.toUpperCase() : key}`;
        const out = redactSecrets(`${before}${secret}${after}`);
        expect(out.toLowerCase()).not.toContain(key);
        expect(out).toContain(REDACTED);
      }),
    );
  });

  it("never lets a mnemonic through, whole or quoted", () => {
    fc.assert(
      fc.property(
        mnemonic,
        fc.constantFrom(["", ""], ['Invalid hdPath: got "', '"'], ['mnemonic "', '" is invalid']),
        (words, [before, after]) => {
          expect(redactSecrets(`${before}${words}${after}`)).not.toContain(words);
        },
      ),
    );
  });

  it("never lets a trading credential (base64 JSON with tradingPrivateKey) through", () => {
    fc.assert(
      fc.property(credential, around, (secret, [before, after]) => {
        expect(redactSecrets(`${before}${secret}${after}`)).not.toContain(secret);
      }),
    );
  });

  it("never lets URL userinfo through, and keeps the host", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/),
        fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%-]{1,20}$/),
        fc.constantFrom("http", "https", "ws", "wss"),
        (user, password, scheme) => {
          const out = redactSecrets(`url: ${scheme}://${user}:${password}@node.example.com:26657/path`);
          expect(out).toBe(`url: ${scheme}://${REDACTED}@node.example.com:26657/path`);
        },
      ),
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.oneof(hexKey, mnemonic, credential, fc.string()), (text) => {
        const once = redactSecrets(text);
        expect(redactSecrets(once)).toBe(once);
      }),
    );
  });

  it("leaves ordinary messages and labelled transaction hashes alone", () => {
    const hash = "AB".repeat(32);
    for (const text of [
      `tx hash: ${hash}`,
      `waiting for tx ${hash} timed out`,
      'Invalid address "perpx1qqqq" (bad checksum)',
      "the node could not be reached",
      "https://rpc.example.com:443/status",
      'Invalid amount: must be a positive integer, got "-5"',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe("PerpxError redacts its message", () => {
  it("a key pasted into the wrong field is not echoed", () => {
    const key = "4f".repeat(32);
    const error = new InvalidArgumentError("amount", `must be a positive integer, got "${key}"`, {
      metaMessages: [`value: ${key}`],
      details: `parsing ${key}`,
    });
    expect(`${error.message} ${error.shortMessage} ${error.details}`).not.toContain(key);
    expect(error.metaMessages.join()).not.toContain(key);
  });
});
