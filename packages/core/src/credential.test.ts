import { inspect } from "node:util";
import { addressBytesToBech32, addressBytesToHex } from "@perpx/address";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createCredential,
  decodeCredential,
  encodeCredential,
  isValidCredential,
  TradingCredential,
} from "./credential.js";
import { InvalidCredentialError, type InvalidCredentialReason, isInvalidCredentialError } from "./errors.js";

const ADDRESS_BYTES = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const MASTER = addressBytesToBech32(ADDRESS_BYTES);
const KEY_HEX = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const N_HEX = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const credentialOf = (fields: Record<string, unknown>) => b64(JSON.stringify(fields));

function failure(fn: () => unknown): InvalidCredentialError {
  try {
    fn();
  } catch (error) {
    if (isInvalidCredentialError(error)) return error;
    throw error;
  }
  throw new Error("expected InvalidCredentialError");
}

/** Every way a credential or an error could be printed. */
function renderings(value: unknown): string[] {
  const out = [
    String(value),
    JSON.stringify(value) ?? "",
    inspect(value),
    inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }),
    JSON.stringify({ ...(value as object) }),
    Object.keys(value as object).join(","),
  ];
  if (value instanceof Error) out.push(value.message, value.stack ?? "", inspect(value.cause ?? ""));
  return out;
}

describe("decodeCredential", () => {
  it("decodes a trading credential", () => {
    const credential = decodeCredential(credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: MASTER }));
    expect(credential).toBeInstanceOf(TradingCredential);
    expect(credential.masterAddress).toBe(MASTER);
    expect(credential.readOnly).toBe(false);
    expect(Buffer.from(credential.revealPrivateKey()!).toString("hex")).toBe(KEY_HEX);
  });

  it("accepts a 0x prefix and uppercase hex", () => {
    const credential = decodeCredential(
      credentialOf({ tradingPrivateKey: `0x${KEY_HEX.toUpperCase()}`, masterAddress: MASTER }),
    );
    expect(Buffer.from(credential.revealPrivateKey()!).toString("hex")).toBe(KEY_HEX);
  });

  it("is read-only without a key (absent or null)", () => {
    for (const fields of [{ masterAddress: MASTER }, { masterAddress: MASTER, tradingPrivateKey: null }]) {
      const credential = decodeCredential(credentialOf(fields));
      expect(credential.readOnly).toBe(true);
      expect(credential.revealPrivateKey()).toBeUndefined();
    }
  });

  it("accepts URL-safe base64, missing padding and surrounding whitespace; ignores unknown fields", () => {
    const text = credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: MASTER, note: "x?>" });
    const urlSafe = text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(decodeCredential(` ${urlSafe}\n`).masterAddress).toBe(MASTER);
  });

  it("normalizes an uppercase bech32 address", () => {
    expect(decodeCredential(credentialOf({ masterAddress: MASTER.toUpperCase() })).masterAddress).toBe(
      MASTER,
    );
  });

  it.each<[string, InvalidCredentialReason, string]>([
    ["bad base64", "base64", "not base64!"],
    ["empty", "base64", ""],
    ["impossible base64 length", "base64", "abcde"],
    ["not JSON", "json", b64(`{"tradingPrivateKey":"${KEY_HEX}",`)],
    ["not UTF-8", "json", Buffer.from([0xff, 0xfe, 0x7b]).toString("base64")],
    ["JSON array", "shape", b64("[]")],
    ["JSON string", "shape", b64('"x"')],
    ["no masterAddress", "shape", credentialOf({ tradingPrivateKey: KEY_HEX })],
    ["masterAddress not a string", "shape", credentialOf({ masterAddress: 7 })],
    ["key not a string", "shape", credentialOf({ masterAddress: MASTER, tradingPrivateKey: 12 })],
    [
      "key not hex",
      "hex",
      credentialOf({ masterAddress: MASTER, tradingPrivateKey: `zz${KEY_HEX.slice(2)}` }),
    ],
    ["key empty", "hex", credentialOf({ masterAddress: MASTER, tradingPrivateKey: "" })],
    ["key odd length", "hex", credentialOf({ masterAddress: MASTER, tradingPrivateKey: KEY_HEX.slice(1) })],
    [
      "key 31 bytes",
      "key-length",
      credentialOf({ masterAddress: MASTER, tradingPrivateKey: KEY_HEX.slice(2) }),
    ],
    [
      "key 33 bytes",
      "key-length",
      credentialOf({ masterAddress: MASTER, tradingPrivateKey: `${KEY_HEX}00` }),
    ],
    ["key zero", "key-range", credentialOf({ masterAddress: MASTER, tradingPrivateKey: "00".repeat(32) })],
    ["key = group order", "key-range", credentialOf({ masterAddress: MASTER, tradingPrivateKey: N_HEX })],
    ["bad address", "address", credentialOf({ masterAddress: "perpx1qqqq", tradingPrivateKey: KEY_HEX })],
    [
      "other prefix",
      "address",
      credentialOf({ masterAddress: addressBytesToBech32(ADDRESS_BYTES, "cosmos") }),
    ],
    ["0x address", "address", credentialOf({ masterAddress: addressBytesToHex(ADDRESS_BYTES) })],
  ])("refuses %s with reason %s", (_, reason, text) => {
    const error = failure(() => decodeCredential(text));
    expect(error).toBeInstanceOf(InvalidCredentialError);
    expect(error.code).toBe("INVALID_CREDENTIAL");
    expect(error.reason).toBe(reason);
    expect(isValidCredential(text)).toBe(false);
  });

  it("refuses non-strings", () => {
    expect(failure(() => decodeCredential(42 as unknown as string)).reason).toBe("base64");
  });
});

describe("the private key never leaks", () => {
  const text = credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: MASTER });

  it("from toString, toJSON, JSON.stringify, util.inspect, spread or keys of the credential", () => {
    const credential = decodeCredential(text);
    expect(credential.toJSON()).toEqual({
      masterAddress: MASTER,
      readOnly: false,
      tradingPrivateKey: "[redacted]",
    });
    expect(String(credential)).toBe(`TradingCredential(${MASTER}, trading key [redacted])`);
    expect(inspect(credential)).toBe(String(credential));
    for (const rendering of renderings(credential)) {
      expect(rendering).not.toContain(KEY_HEX);
      expect(rendering.toLowerCase()).not.toContain(KEY_HEX.slice(0, 16));
    }
    expect(Object.keys(credential).sort()).toEqual(["masterAddress", "readOnly"]);
    expect(Object.prototype.toString.call(credential)).toBe("[object TradingCredential]");
  });

  it("from a read-only credential's rendering", () => {
    const credential = decodeCredential(credentialOf({ masterAddress: MASTER }));
    expect(JSON.stringify(credential)).toBe(JSON.stringify({ masterAddress: MASTER, readOnly: true }));
    expect(String(credential)).toBe(`TradingCredential(${MASTER}, read-only)`);
  });

  it("from the errors of a malformed credential that contains it", () => {
    const bad = [
      b64(`{"tradingPrivateKey":"${KEY_HEX}","masterAddress":`), // truncated JSON
      b64(`{"tradingPrivateKey":"${KEY_HEX}" "masterAddress":"${MASTER}"}`), // JSON syntax error after the key
      credentialOf({ tradingPrivateKey: `${KEY_HEX}00`, masterAddress: MASTER }),
      credentialOf({ tradingPrivateKey: `${KEY_HEX}0`, masterAddress: MASTER }),
      credentialOf({ tradingPrivateKey: `${KEY_HEX.slice(0, 62)}zz`, masterAddress: MASTER }),
      credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: "perpx1bad" }),
      credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: KEY_HEX }), // key pasted in the wrong field
      credentialOf({ tradingPrivateKey: KEY_HEX, masterAddress: `0x${KEY_HEX}` }),
      `${text}!`,
    ];
    for (const input of bad) {
      const error = failure(() => decodeCredential(input));
      expect(error.cause).toBeUndefined();
      for (const rendering of renderings(error)) {
        expect(rendering).not.toContain(KEY_HEX.slice(0, 16));
        expect(rendering).not.toContain(input.slice(0, 24));
      }
    }
  });

  it("revealPrivateKey hands out a copy", () => {
    const credential = decodeCredential(text);
    const key = credential.revealPrivateKey()!;
    key.fill(0);
    expect(Buffer.from(credential.revealPrivateKey()!).toString("hex")).toBe(KEY_HEX);
  });

  it("cannot be read or replaced through the object", () => {
    const credential = decodeCredential(text);
    expect(Object.isFrozen(credential)).toBe(true);
    expect(Object.getOwnPropertySymbols(credential)).toEqual([]);
    expect(structuredClone(credential)).toEqual({ masterAddress: MASTER, readOnly: false });
  });
});

describe("createCredential and encodeCredential", () => {
  it("encode base64 JSON with the key first, lowercase hex without 0x", () => {
    const text = encodeCredential({ masterAddress: MASTER, tradingPrivateKey: `0x${KEY_HEX.toUpperCase()}` });
    expect(Buffer.from(text, "base64").toString("utf8")).toBe(
      JSON.stringify({ tradingPrivateKey: KEY_HEX, masterAddress: MASTER }),
    );
  });

  it("encode a read-only credential without the key field", () => {
    const text = encodeCredential({ masterAddress: MASTER });
    expect(JSON.parse(Buffer.from(text, "base64").toString("utf8"))).toEqual({ masterAddress: MASTER });
  });

  it("accept key bytes and a 0x master address, which is converted to bech32", () => {
    const credential = createCredential({
      masterAddress: addressBytesToHex(ADDRESS_BYTES),
      tradingPrivateKey: Uint8Array.from(Buffer.from(KEY_HEX, "hex")),
    });
    expect(credential.masterAddress).toBe(MASTER);
    expect(decodeCredential(encodeCredential(credential)).masterAddress).toBe(MASTER);
  });

  it("validate like decodeCredential", () => {
    expect(failure(() => createCredential({ masterAddress: MASTER, tradingPrivateKey: "abc" })).reason).toBe(
      "hex",
    );
    expect(
      failure(() => createCredential({ masterAddress: MASTER, tradingPrivateKey: new Uint8Array(31) }))
        .reason,
    ).toBe("key-length");
    expect(failure(() => encodeCredential({ masterAddress: "nope" })).reason).toBe("address");
    expect(failure(() => createCredential(null as unknown as { masterAddress: string })).reason).toBe(
      "shape",
    );
  });

  it("round-trip random keys and addresses (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.boolean(),
        (keyBytes, addressBytes, readOnly) => {
          const scalar = BigInt(`0x${Buffer.from(keyBytes).toString("hex")}`);
          fc.pre(scalar > 0n && scalar < BigInt(`0x${N_HEX}`));
          const masterAddress = addressBytesToBech32(addressBytes);
          const input = readOnly ? { masterAddress } : { masterAddress, tradingPrivateKey: keyBytes };
          const decoded = decodeCredential(encodeCredential(input));
          expect(decoded.masterAddress).toBe(masterAddress);
          expect(decoded.readOnly).toBe(readOnly);
          if (!readOnly) {
            expect(decoded.revealPrivateKey()).toEqual(keyBytes);
            const hex = Buffer.from(keyBytes).toString("hex");
            for (const rendering of renderings(decoded)) expect(rendering).not.toContain(hex);
          }
        },
      ),
    );
  });
});
