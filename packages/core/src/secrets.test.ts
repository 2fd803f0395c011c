import { describe, expect, it } from "vitest";
import {
  refusalOf,
  shownError,
  TEST_KEY,
  TEST_MNEMONIC_12,
  TEST_MNEMONIC_24,
} from "../../../tests/support/shown-error.js";
import { parseInteger } from "./decimal.js";
import { validateEndpointUrl } from "./endpoints.js";
import { InvalidAmountError, UnknownNetworkError } from "./errors.js";
import { Exact } from "./exact.js";
import { assertKnownKeys, optionKeys } from "./options.js";
import { decimalToUnits, priceToSubticks, sizeToQuantums } from "./quantums.js";

const btc = {
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};
const key = TEST_KEY;
const mnemonic24 = TEST_MNEMONIC_24;
const mnemonic12 = TEST_MNEMONIC_12;
/** A secret with a prefix that pushes part of it past a 100-character cut. */
const SECRETS = [
  key,
  `0x${key}`,
  mnemonic24,
  mnemonic12,
  `${"9".repeat(70)} ${mnemonic12}`,
  `${"-".repeat(60)}${key}`,
];

/** True when `text` holds the secret or 8 words of it in a row (a cut mnemonic), or half a key. */
function leaks(text: string, secret: string): boolean {
  const words = secret
    .trim()
    .split(/\s+/)
    .filter((w) => /^[a-z]+$/.test(w));
  for (let i = 0; i + 8 <= words.length; i++) if (text.includes(words.slice(i, i + 8).join(" "))) return true;
  return text.toLowerCase().includes(key.slice(0, 32));
}

describe("core errors never show a secret given as a value", () => {
  it.each(SECRETS.map((s, i) => [i, s] as const))("an amount, size or price (%i)", (_, secret) => {
    const errors = [
      refusalOf(() => sizeToQuantums(secret, btc)),
      refusalOf(() => priceToSubticks(secret, btc)),
      refusalOf(() => decimalToUnits(secret, 6)),
      refusalOf(() => parseInteger(secret, "gasLimit")),
      refusalOf(() => new Exact(secret, "size")),
      refusalOf(() => validateEndpointUrl("nodeRpc", secret)),
    ];
    for (const error of errors) {
      expect(leaks(shownError(error), secret), shownError(error)).toBe(false);
      expect((error as Error).message).toContain("[redact"); // "[redacte..." when the cut falls on it
    }
    // the message still names what was wrong
    expect((errors[0] as InvalidAmountError).message).toMatch(/^Invalid size /);
    expect((errors[4] as Error).message).toMatch(/^Invalid size: /);
  });

  it("InvalidAmountError keeps no raw value in its fields", () => {
    for (const secret of SECRETS) {
      const error = new InvalidAmountError({
        kind: "size",
        value: secret,
        reason: "not-a-decimal",
        problem: "bad",
      });
      expect(leaks(shownError(error), secret)).toBe(false);
      expect(error.value).toContain("[redacted]");
    }
  });

  it("an unknown option key that is a secret is not kept in argument", () => {
    const keys = optionKeys<{ amount: string }>({ amount: true });
    for (const secret of SECRETS) {
      const error = refusalOf(() => assertKnownKeys({ [secret]: 1 }, keys, "withdraw"));
      expect(leaks(shownError(error), secret)).toBe(false);
      expect((error as { argument: string }).argument).toContain("[redacted]");
    }
  });

  it("an unknown network name that is a secret is not kept in network", () => {
    for (const secret of SECRETS) {
      const error = new UnknownNetworkError(secret, ["mainnet"], "PERPX_NETWORK");
      expect(leaks(shownError(error), secret)).toBe(false);
    }
  });
});
