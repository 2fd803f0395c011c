import { bytesToHex } from "@noble/hashes/utils.js";
import { DEFAULT_PREFIX, isInvalidAddressError, parseAddress } from "@perpx/address";
import { InvalidCredentialError } from "./errors.js";

/** Order of the secp256k1 group; a private key must be in [1, N - 1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const PRIVATE_KEY_BYTES = 32;
const INSPECT = Symbol.for("nodejs.util.inspect.custom");
const REDACTED = "[redacted]";

/**
 * The fields of a trading credential, as given to {@link createCredential} and
 * {@link encodeCredential}.
 *
 * @example
 * ```ts
 * const input: TradingCredentialInput = { masterAddress: "perpx1...", tradingPrivateKey: "0x..." };
 * ```
 */
export interface TradingCredentialInput {
  /** The account the key is authorized for: `perpx1...` (a `0x` address is converted). */
  masterAddress: string;
  /**
   * The scoped trading private key: 32 bytes, as hex (optional `0x`) or bytes. Omit for a
   * read-only credential.
   */
  tradingPrivateKey?: string | Uint8Array | undefined;
}

/**
 * What `JSON.stringify` of a {@link TradingCredential} prints: never the key.
 *
 * @example
 * ```ts
 * const credential = createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
 * JSON.stringify(credential);
 * // '{"masterAddress":"perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c","readOnly":false,"tradingPrivateKey":"[redacted]"}'
 * ```
 */
export interface TradingCredentialJson {
  masterAddress: string;
  readOnly: boolean;
  /** `"[redacted]"` when the credential holds a key; absent when it does not. */
  tradingPrivateKey?: "[redacted]";
}

function shapeError(problem: string): InvalidCredentialError {
  return new InvalidCredentialError("shape", problem);
}

function parseKey(key: unknown): Uint8Array {
  let bytes: Uint8Array;
  if (key instanceof Uint8Array) {
    bytes = Uint8Array.from(key);
  } else if (typeof key === "string") {
    const hex = key.startsWith("0x") || key.startsWith("0X") ? key.slice(2) : key;
    if (hex.length === 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
      throw new InvalidCredentialError("hex", "tradingPrivateKey is not hexadecimal");
    }
    if (hex.length % 2 !== 0) {
      throw new InvalidCredentialError("hex", "tradingPrivateKey has an odd number of hex digits");
    }
    bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  } else {
    throw shapeError(`tradingPrivateKey must be a hex string, got ${key === null ? "null" : typeof key}`);
  }
  if (bytes.length !== PRIVATE_KEY_BYTES) {
    throw new InvalidCredentialError(
      "key-length",
      `tradingPrivateKey must be ${PRIVATE_KEY_BYTES} bytes, got ${bytes.length}`,
    );
  }
  const scalar = BigInt(`0x${bytesToHex(bytes)}`);
  if (scalar === 0n || scalar >= SECP256K1_N) {
    bytes.fill(0);
    throw new InvalidCredentialError("key-range", "tradingPrivateKey is not a valid secp256k1 private key");
  }
  return bytes;
}

function parseMasterAddress(address: unknown, allowHex: boolean): string {
  if (typeof address !== "string") {
    throw shapeError(`masterAddress must be a string, got ${address === null ? "null" : typeof address}`);
  }
  try {
    const parsed = parseAddress(address, { prefix: DEFAULT_PREFIX });
    if (parsed.prefix === undefined && !allowHex) {
      throw new InvalidCredentialError(
        "address",
        `masterAddress must be in the native ${DEFAULT_PREFIX}1... form, not the 0x form`,
      );
    }
    return parsed.bech32;
  } catch (error) {
    // The address is not echoed (nor kept as the cause): a key pasted into the wrong field must not leak.
    if (isInvalidAddressError(error)) {
      throw new InvalidCredentialError(
        "address",
        `masterAddress is not a ${DEFAULT_PREFIX}1... account address (${error.reason})`,
      );
    }
    throw error;
  }
}

/** Builds a credential from validated parts; only this module can (the constructor is private). */
let construct: (masterAddress: string, key: Uint8Array | undefined) => TradingCredential;

/**
 * A decoded trading credential. The private key is held privately: it never appears in
 * `toString()`, `toJSON()`, `JSON.stringify`, `util.inspect`, object spread or `Object.keys`, and
 * is handed out only by {@link TradingCredential.revealPrivateKey}.
 *
 * @example
 * ```ts
 * import { decodeCredential, encodeCredential } from "@perpx/core";
 *
 * const bearer = encodeCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
 * const credential = decodeCredential(bearer);
 * credential.masterAddress; // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * credential.readOnly; // false
 * credential.revealPrivateKey()?.length; // 32
 * ```
 */
export class TradingCredential {
  /** The account the key is authorized for, `perpx1...`. */
  readonly masterAddress: string;
  /** True when the credential carries no trading key (market data and account reads only). */
  readonly readOnly: boolean;
  readonly #key: Uint8Array | undefined;

  private constructor(masterAddress: string, key: Uint8Array | undefined) {
    this.masterAddress = masterAddress;
    this.readOnly = key === undefined;
    this.#key = key;
    Object.freeze(this);
  }

  static {
    construct = (masterAddress, key) => new TradingCredential(masterAddress, key);
  }

  /**
   * The trading private key, 32 bytes (a fresh copy the caller may wipe).
   *
   * @returns the key, or `undefined` for a read-only credential.
   *
   * @example
   * ```ts
   * const credential = createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
   * credential.revealPrivateKey(); // new Uint8Array(32).fill(0x11)
   * ```
   */
  revealPrivateKey(): Uint8Array | undefined {
    return this.#key === undefined ? undefined : Uint8Array.from(this.#key);
  }

  /**
   * A JSON-safe summary without the key.
   *
   * @returns the master address and whether the credential is read-only; the key's field, when
   *   there is a key, holds `"[redacted]"`.
   * @example
   * ```ts
   * const credential = createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
   * credential.toJSON(); // { masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", readOnly: false, tradingPrivateKey: "[redacted]" }
   * ```
   */
  toJSON(): TradingCredentialJson {
    return this.readOnly
      ? { masterAddress: this.masterAddress, readOnly: true }
      : { masterAddress: this.masterAddress, readOnly: false, tradingPrivateKey: REDACTED };
  }

  /**
   * A one-line description without the key.
   *
   * @returns `TradingCredential(<masterAddress>, trading key [redacted])`, or `..., read-only)`.
   * @example
   * ```ts
   * const credential = createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
   * String(credential); // "TradingCredential(perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c, trading key [redacted])"
   * ```
   */
  toString(): string {
    return `TradingCredential(${this.masterAddress}, ${this.readOnly ? "read-only" : `trading key ${REDACTED}`})`;
  }

  /**
   * What Node's `util.inspect` and `console.log` print: the same as {@link TradingCredential.toString}.
   *
   * @returns the one-line description, without the key.
   */
  [INSPECT](): string {
    return this.toString();
  }

  /** @returns `"TradingCredential"` for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return "TradingCredential";
  }
}

/**
 * Validates the fields of a trading credential and builds a {@link TradingCredential}.
 *
 * @param input - `masterAddress` (`perpx1...`, or `0x...` which is converted) and the optional
 *   `tradingPrivateKey` (32 bytes, hex with optional `0x`, or bytes).
 * @returns the credential.
 * @throws {InvalidCredentialError} with `reason` `"shape"`, `"hex"`, `"key-length"`, `"key-range"` or `"address"`.
 *
 * @example
 * ```ts
 * const credential = createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: `0x${"1f".repeat(32)}` });
 * credential.readOnly; // false
 * createCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" }).readOnly; // true
 * ```
 */
export function createCredential(input: TradingCredentialInput): TradingCredential {
  if (typeof input !== "object" || input === null) throw shapeError("expected an object");
  const masterAddress = parseMasterAddress(input.masterAddress, true);
  const key = input.tradingPrivateKey === undefined ? undefined : parseKey(input.tradingPrivateKey);
  return construct(masterAddress, key);
}

function base64ToBytes(text: string): Uint8Array {
  // Standard or URL-safe alphabet, padding optional, surrounding whitespace ignored.
  const compact = text.trim();
  if (compact.length === 0 || !/^[A-Za-z0-9+/\-_]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new InvalidCredentialError("base64", "the credential is not base64");
  }
  const standard = compact.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Decodes and validates a trading credential: base64 of the JSON
 * `{"tradingPrivateKey"?: hex, "masterAddress": "perpx1..."}`. Unknown fields are ignored; a
 * `null` key counts as absent.
 *
 * @param credential - the base64 text (standard or URL-safe alphabet, padding optional).
 * @returns the credential; read-only when it has no key.
 * @throws {InvalidCredentialError} with `reason` `"base64"`, `"json"`, `"shape"`, `"hex"`,
 *   `"key-length"`, `"key-range"` or `"address"`; the message never contains the key.
 *
 * @example
 * ```ts
 * import { decodeCredential, encodeCredential } from "@perpx/core";
 *
 * const bearerToken = encodeCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: "11".repeat(32) });
 * decodeCredential(bearerToken).readOnly; // false
 * decodeCredential("not base64!"); // throws InvalidCredentialError (base64)
 * ```
 */
export function decodeCredential(credential: string): TradingCredential {
  if (typeof credential !== "string") {
    throw new InvalidCredentialError("base64", `expected a base64 string, got ${typeof credential}`);
  }
  const bytes = base64ToBytes(credential);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    // The parser's message can quote the input (and so the key): it is not kept.
    throw new InvalidCredentialError("json", "the decoded credential is not UTF-8 JSON");
  } finally {
    bytes.fill(0);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw shapeError("expected a JSON object with masterAddress and an optional tradingPrivateKey");
  }
  const fields = json as Record<string, unknown>;
  if (!("masterAddress" in fields)) throw shapeError("masterAddress is missing");
  const masterAddress = parseMasterAddress(fields.masterAddress, false);
  const rawKey = fields.tradingPrivateKey;
  const key =
    rawKey === undefined || rawKey === null
      ? undefined
      : typeof rawKey === "string"
        ? parseKey(rawKey)
        : (() => {
            throw shapeError(`tradingPrivateKey must be a hex string, got ${typeof rawKey}`);
          })();
  return construct(masterAddress, key);
}

/**
 * Encodes a trading credential as base64 of
 * `{"tradingPrivateKey": "<64 lowercase hex digits>", "masterAddress": "perpx1..."}` (the key is
 * left out of a read-only credential).
 *
 * @param credential - a {@link TradingCredential}, or its fields (validated as by {@link createCredential}).
 * @returns the base64 text, ready for `Authorization: Bearer <credential>`.
 * @throws {InvalidCredentialError} when the fields are not valid.
 *
 * @example
 * ```ts
 * const key = new Uint8Array(32).fill(0x11);
 * const bearer = encodeCredential({ masterAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", tradingPrivateKey: key });
 * decodeCredential(bearer).masterAddress; // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * ```
 */
export function encodeCredential(credential: TradingCredential | TradingCredentialInput): string {
  const parsed = credential instanceof TradingCredential ? credential : createCredential(credential);
  const key = parsed.revealPrivateKey();
  // Field order as the specification lists it: tradingPrivateKey, then masterAddress.
  const json =
    key === undefined
      ? { masterAddress: parsed.masterAddress }
      : { tradingPrivateKey: bytesToHex(key), masterAddress: parsed.masterAddress };
  key?.fill(0);
  return bytesToBase64(new TextEncoder().encode(JSON.stringify(json)));
}

/**
 * True when {@link decodeCredential} would accept `credential`.
 *
 * @param credential - the base64 text of a credential.
 * @returns `true` when it decodes to a valid credential, `false` otherwise (it never throws).
 * @example
 * ```ts
 * isValidCredential("not base64!"); // false
 * ```
 */
export function isValidCredential(credential: string): boolean {
  try {
    decodeCredential(credential);
    return true;
  } catch {
    return false;
  }
}
