import { redactSecrets } from "@perpx/errors";

/**
 * A refused value as an error message shows it: a string quoted and cut to `max` characters, with
 * any secret in it (a private key, a mnemonic, a credential pasted into the wrong field) redacted
 * before it is cut (a cut secret no longer looks like one, so the error's own redaction would miss
 * it); a number, boolean, null or bigint as itself; anything else by its type. Never throws.
 *
 * @param value - the value the caller gave.
 * @param max - the most characters of a string shown.
 * @returns the text to put in the message.
 * @example
 * ```ts
 * showValue("buy"); // '"buy"'
 * showValue("ab".repeat(32)); // '"[redacted]"'
 * showValue(Number.NaN); // "NaN"
 * ```
 */
export function showValue(value: unknown, max = 100): string {
  if (typeof value === "string") {
    const safe = redactSecrets(value);
    if (safe.length <= max) return JSON.stringify(safe);
    return `${JSON.stringify(`${safe.slice(0, max)}...`)} (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
