/**
 * Keeps secrets out of error messages: a private key, a mnemonic or a trading credential pasted
 * into the wrong field (an address, an amount, an HD path) and echoed back, and the userinfo of a
 * URL (`https://user:password@host`).
 */

/**
 * What replaces a secret in an error message.
 *
 * @example
 * ```ts
 * redactSecrets(`got ${"ab".repeat(32)}`) === `got ${REDACTED}`; // true
 * ```
 */
export const REDACTED = "[redacted]";

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]*@/gi;
/** 32 bytes of hex (a secp256k1 private key), with or without 0x, unless labelled as a hash. */
const HEX_KEY = /(^|[^0-9a-z])((?:0x)?[0-9a-f]{64})(?![0-9a-z])/gi;
const HASH_LABEL = /(?:hash|tx)[:=]?\s*$/i;
/** A run of base64 (standard or URL-safe) long enough to hold a credential. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g;
const SECRET_FIELDS = /"(?:tradingPrivateKey|privateKey|mnemonic|secret)"\s*:\s*"[^"]*"/g;
const MNEMONIC_WORD_COUNTS: ReadonlySet<number> = new Set([12, 15, 18, 21, 24]);
const WORD = /^[a-z]{3,8}$/;

function base64Decode(text: string): string | undefined {
  if (typeof atob !== "function") return undefined;
  try {
    const standard = text.replace(/-/g, "+").replace(/_/g, "/");
    return atob(standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "="));
  } catch {
    return undefined;
  }
}

/** True for text that is 12, 15, 18, 21 or 24 short lowercase words (the shape of a BIP-39 mnemonic). */
function isMnemonicShaped(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return MNEMONIC_WORD_COUNTS.has(words.length) && words.every((w) => WORD.test(w));
}

/**
 * Replaces what looks like a secret in `text` with `[redacted]`: URL userinfo, 64 hex digits (a
 * private key; a value labelled `hash` or `tx` is kept, it names a transaction), base64 that
 * decodes to JSON with a `tradingPrivateKey`, `privateKey` or `mnemonic` field, such fields in
 * plain JSON, and a quoted value (or the whole text) shaped like a BIP-39 mnemonic (12, 15, 18, 21
 * or 24 lowercase words).
 *
 * @param text - a message, a value to echo, or a URL.
 * @returns the text with every secret replaced.
 *
 * @example
 * ```ts
 * redactSecrets("https://alice:hunter2@rpc.example.com"); // "https://[redacted]@rpc.example.com"
 * redactSecrets(`Invalid address "${"ab".repeat(32)}"`); // 'Invalid address "[redacted]"'
 * ```
 */
export function redactSecrets(text: string): string {
  if (typeof text !== "string" || text === "") return text;
  if (isMnemonicShaped(text)) return REDACTED;
  let out = text.replace(URL_USERINFO, `$1${REDACTED}@`);
  out = out.replace(HEX_KEY, (match, before: string, _hex: string, offset: number, whole: string) =>
    HASH_LABEL.test(whole.slice(Math.max(0, offset - 12), offset + before.length))
      ? match
      : `${before}${REDACTED}`,
  );
  out = out.replace(SECRET_FIELDS, (field) => `${field.slice(0, field.indexOf(":") + 1)}"${REDACTED}"`);
  out = out.replace(BASE64_RUN, (run) => {
    const decoded = base64Decode(run);
    return decoded !== undefined && /"(?:tradingPrivateKey|privateKey|mnemonic)"/.test(decoded)
      ? REDACTED
      : run;
  });
  return out.replace(/"([^"\n]*)"/g, (quoted, inner: string) =>
    isMnemonicShaped(inner) ? `"${REDACTED}"` : quoted,
  );
}
