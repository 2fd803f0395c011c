/**
 * How the secret-redaction tests see an error: every way a program shows one, the refusal a call
 * makes, and the secrets they paste into fields.
 */
import { inspect } from "node:util";

/**
 * Everything `error` shows: its message, `String()`, `JSON.stringify` and `util.inspect` (which
 * prints each cause), one after the other.
 */
export function shownError(error: unknown): string {
  return [(error as Error).message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })].join(
    "\n",
  );
}

/** What `call` throws; fails the test when it returns. */
export function refusalOf(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

/** A private key (hex) the redaction tests paste into fields. */
export const TEST_KEY = "5a".repeat(32);

/** A 24-word and a 12-word mnemonic (BIP-39 words) the redaction tests paste into fields. */
export const TEST_MNEMONIC_24 =
  "abandon ability able about above absent absorb abstract absurd abuse access accident acoustic acquire across act actor actress actual adapt address adjust admit adult";
export const TEST_MNEMONIC_12 = "legal winner thank year wave sausage worth useful legal winner thank yellow";
