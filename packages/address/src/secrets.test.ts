import { describe, expect, it } from "vitest";
import {
  refusalOf,
  shownError,
  TEST_KEY,
  TEST_MNEMONIC_12,
  TEST_MNEMONIC_24,
} from "../../../tests/support/shown-error.js";
import { parseAddress } from "./address.js";
import { InvalidAddressError, InvalidSubaccountError } from "./errors.js";
import { addressBytesToHex } from "./hex.js";
import { parseSubaccountId } from "./subaccount.js";

const key = TEST_KEY;
const mnemonic24 = TEST_MNEMONIC_24;
const mnemonic12 = TEST_MNEMONIC_12;
/** Secrets, some behind a prefix that puts part of them past the 120-character cut of the message. */
const SECRETS = [
  key,
  mnemonic24,
  mnemonic12,
  `perpx1${"q".repeat(50)} ${mnemonic24}`,
  `${"x".repeat(100)} ${mnemonic12}`,
  `${"-".repeat(90)}${key}`,
];

/** True when `text` holds 6 words of the secret in a row (a cut mnemonic), or 24 hex digits of the key. */
function leaks(text: string, secret: string): boolean {
  const words = secret.split(/\s+/).filter((w) => /^[a-z]{3,8}$/.test(w));
  for (let i = 0; i + 6 <= words.length; i++) if (text.includes(words.slice(i, i + 6).join(" "))) return true;
  return secret.includes(key) && text.toLowerCase().includes(key.slice(0, 24));
}

describe("address errors never show a secret given as an address", () => {
  it.each(SECRETS.map((s, i) => [i, s] as const))(
    "a secret pasted as an address or subaccount (%i)",
    (_, secret) => {
      const errors = [
        refusalOf(() => parseAddress(secret)),
        refusalOf(() => parseSubaccountId(`${secret}/0`)),
        refusalOf(() => parseSubaccountId(`perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/${secret}`)),
        new InvalidAddressError("bad-format", secret),
        new InvalidSubaccountError("bad-format", secret),
      ];
      for (const error of errors) {
        const text = shownError(error);
        expect(leaks(text, secret), text).toBe(false);
        expect((error as Error).message).toMatch(/^Invalid (address|subaccount) /);
      }
    },
  );

  it("a private key given as an array of byte values is not echoed", () => {
    const bytes = Array.from({ length: 32 }, (_, i) => 200 + (i % 50));
    const text = bytes.join(",");
    for (const error of [
      refusalOf(() => parseAddress(bytes as unknown as string)),
      refusalOf(() => addressBytesToHex(bytes as unknown as Uint8Array)),
    ]) {
      expect(shownError(error)).not.toContain(text.slice(0, 40));
    }
  });
});
