import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { InvalidArgumentError } from "@perpx/errors";

/** The shortest server secret accepted (characters). */
const MIN_SECRET_LENGTH = 32;
const VERSION = "v1";

/**
 * A fresh opaque token: 32 random bytes, base64url (43 characters).
 *
 * @example
 * ```ts
 * randomToken().length; // 43
 * ```
 */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the store keeps of a token, code or request id: SHA-256, hex. The token itself is never
 * stored.
 *
 * @example
 * ```ts
 * hashToken("abc").length; // 64
 * ```
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(`perpx-mcp-oauth:${token}`).digest("hex");
}

/**
 * Encrypts and decrypts what the store keeps secret (trading credentials, client secrets) with
 * AES-256-GCM under a key derived (HKDF-SHA256) from the server secret.
 *
 * @example
 * ```ts
 * const sealer = createSealer("a server secret of at least 32 characters!!");
 * sealer.open(sealer.seal("hello")); // "hello"
 * ```
 */
export interface Sealer {
  /** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
  seal(plaintext: string): string;
  /**
   * The plaintext of a sealed value.
   * @throws {InvalidArgumentError} when it was not sealed under this secret or was altered.
   */
  open(sealed: string): string;
}

/**
 * A {@link Sealer} for a server secret.
 *
 * @throws {InvalidArgumentError} when the secret is shorter than 32 characters (never echoed).
 *
 * @example
 * ```ts
 * const sealer = createSealer("a server secret of at least 32 characters");
 * sealer.open(sealer.seal("a trading key")); // "a trading key"
 * createSealer("too short"); // throws InvalidArgumentError
 * ```
 */
export function createSealer(secret: string): Sealer {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new InvalidArgumentError(
      "oauth.secret",
      `must be a string of at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 48\`)`,
    );
  }
  const key = Buffer.from(hkdfSync("sha256", secret, "perpx-mcp", "oauth store encryption", 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) {
        throw new InvalidArgumentError("sealed", "is not a value sealed by this server");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new InvalidArgumentError(
          "sealed",
          "cannot be decrypted: it was sealed under another server secret, or altered",
        );
      }
    },
  };
}
