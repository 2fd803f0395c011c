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
/**
 * Common words of English prose and of this SDK's messages that are not BIP-39 English words: a
 * run of prose words ("the node runs the messages and says how much gas they used") is broken by
 * them, while no mnemonic holds one (node-client's tests hold this list to the BIP-39 word list).
 */
const NOT_MNEMONIC_WORDS =
  "the|and|for|not|with|from|are|was|were|has|how|them|their|its|but|got|does|did|should|would|could|" +
  "which|than|these|those|been|being|each|every|per|via|yet|our|out|uses|his|her|she|him|who|why|may|" +
  "might|shall|most|less|least|some|too|both|nor|while|after|within|without|further|here|given|" +
  "expected|means|needs|takes|made|orders|node|nodes|block|blocks|chain|errors|string|array|null|none|" +
  "keys|value|values|data|fields";
const MNEMONIC_WORD = `(?!(?:${NOT_MNEMONIC_WORDS})(?![a-z]))[a-z]{3,8}`;
/** Between two words: white space, or a comma with the quotes of an echoed array around it. */
const MNEMONIC_GAP = `(?:\\s+|["']?,\\s*["']?)`;
/**
 * A run of 12 or more words of 3 to 8 letters (BIP-39 English words; 12 to 24 of them make a
 * mnemonic, in any case: one copied in sentence case still is one), wherever it stands: whole,
 * quoted, after `got `, or as the words of an array echoed by `String()` (`a,b`),
 * `JSON.stringify()` (`"a","b"`) or `util.inspect()` (`'a', 'b'`). Ordinary messages break such a
 * run with a short word, punctuation or one of {@link NOT_MNEMONIC_WORDS}.
 */
const MNEMONIC_RUN = new RegExp(
  `(?<![A-Za-z])${MNEMONIC_WORD}(?:${MNEMONIC_GAP}${MNEMONIC_WORD}){11,}(?![A-Za-z])`,
  "gi",
);

const SECRET_JSON_KEY = /"(?:tradingPrivateKey|privateKey|mnemonic)"/;
/** Where the base64 of a `{` can start: an `e` and a character of value 48 to 63. */
const JSON_START = /e[w-z0-9+/_-]/g;

/**
 * True when a base64 run decodes to JSON with a secret field: the whole run, or the run from a
 * place where the base64 of `{` can start (a credential glued to other base64 characters, such as
 * `perpx1` or a stray letter, no longer decodes from the run's first character). The first 16 such
 * places are tried, 1024 characters from each.
 */
function holdsSecretJson(run: string): boolean {
  const whole = base64Decode(run);
  if (whole !== undefined && SECRET_JSON_KEY.test(whole)) return true;
  let tries = 0;
  for (const start of run.matchAll(JSON_START)) {
    if (++tries > 16) break;
    const part = run.slice(start.index, start.index + 1024).replace(/=+$/, "");
    const decoded = base64Decode(part.slice(0, part.length - (part.length % 4)));
    if (decoded?.startsWith("{") && SECRET_JSON_KEY.test(decoded)) return true;
  }
  return false;
}

function base64Decode(text: string): string | undefined {
  if (typeof atob !== "function") return undefined;
  try {
    const standard = text.replace(/-/g, "+").replace(/_/g, "/");
    return atob(standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "="));
  } catch {
    return undefined;
  }
}

/**
 * Replaces what looks like a secret in `text` with `[redacted]`: URL userinfo, 64 hex digits (a
 * private key; a value labelled `hash` or `tx` is kept, it names a transaction), base64 that
 * decodes to JSON with a `tradingPrivateKey`, `privateKey` or `mnemonic` field (also when other
 * base64 characters are glued to it), such fields in
 * plain JSON, and anywhere in the text a run of 12 or more words of 3 to 8 letters (the shape of a
 * BIP-39 mnemonic), separated by spaces, commas or quotes (the words of an echoed array).
 *
 * @param text - a message, a value to echo, or a URL.
 * @returns the text with every secret replaced.
 *
 * @example
 * ```ts
 * redactSecrets("https://alice:hunter2@rpc.example.com"); // "https://[redacted]@rpc.example.com"
 * redactSecrets(`Invalid address "${"ab".repeat(32)}"`); // 'Invalid address "[redacted]"'
 * redactSecrets(`got ${"abandon ".repeat(11)}about, expected BUY`); // "got [redacted], expected BUY"
 * ```
 */
export function redactSecrets(text: string): string {
  if (typeof text !== "string" || text === "") return text;
  let out = text.replace(URL_USERINFO, `$1${REDACTED}@`);
  out = out.replace(HEX_KEY, (match, before: string, _hex: string, offset: number, whole: string) =>
    HASH_LABEL.test(whole.slice(Math.max(0, offset - 12), offset + before.length))
      ? match
      : `${before}${REDACTED}`,
  );
  out = out.replace(SECRET_FIELDS, (field) => `${field.slice(0, field.indexOf(":") + 1)}"${REDACTED}"`);
  out = out.replace(BASE64_RUN, (run) => (holdsSecretJson(run) ? REDACTED : run));
  return out.replace(MNEMONIC_RUN, REDACTED);
}

/**
 * Redacts `text` (see {@link redactSecrets}), then shortens it to `max` characters followed by
 * `...`. In that order: a secret cut in half (a 24-word mnemonic cut to its first 15 words, a key
 * cut to 60 hex digits) no longer looks like one, so redacting after the cut would let it through.
 * Every package that echoes a caller's value in an error shows it through this (or
 * {@link showValue}).
 *
 * @param text - the value to show, as text.
 * @param max - the most characters kept (of the redacted text).
 * @returns the redacted text, cut to `max` characters plus `...` when it was longer.
 *
 * @example
 * ```ts
 * const mnemonic = "abandon ".repeat(23) + "art";
 * shortenRedacted(`perpx1${mnemonic}`, 20); // "perpx1[redacted]"
 * shortenRedacted("x".repeat(150), 100).length; // 103
 * ```
 */
export function shortenRedacted(text: string, max: number): string {
  const safe = redactSecrets(text);
  return safe.length > max ? `${safe.slice(0, max)}...` : safe;
}

/**
 * A value a caller gave, as an error message shows it: a string quoted, with any secret in it
 * redacted, then cut to `max` characters (see {@link shortenRedacted}); a number, boolean, null,
 * undefined or bigint as itself; anything else by its type (an object or array is never written out: its
 * fields could hold a key). Never throws.
 *
 * @param value - the value the caller gave.
 * @param max - the most characters of a string shown.
 * @returns the text to put in the message.
 *
 * @example
 * ```ts
 * showValue("buy"); // '"buy"'
 * showValue("ab".repeat(32)); // '"[redacted]"'
 * showValue(Number.NaN); // "NaN"
 * showValue(["abandon", "ability"]); // "an array"
 * ```
 */
export function showValue(value: unknown, max = 100): string {
  if (typeof value === "string") {
    const safe = redactSecrets(value);
    if (safe.length <= max) return JSON.stringify(safe);
    return `${JSON.stringify(`${safe.slice(0, max)}...`)} (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
