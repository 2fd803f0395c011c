import { inspect } from "node:util";
import { createCredential, encodeCredential, isInvalidCredentialError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { LocalWallet } from "./localWallet.js";
import { tradingKeyFromCredential } from "./tradingKey.js";

describe("trading key from a credential", () => {
  const master = LocalWallet.fromPrivateKey("0b".repeat(32));
  const key = LocalWallet.fromPrivateKey("0c".repeat(32));
  const credential = encodeCredential({
    masterAddress: master.address,
    tradingPrivateKey: key.exportPrivateKeyHex(),
  });

  it("decodes the key and the master address (base64 or decoded)", () => {
    const tradingKey = tradingKeyFromCredential(credential);
    expect(tradingKey.masterAddress).toBe(master.address);
    expect(tradingKey.wallet.address).toBe(key.address);
    expect(
      tradingKeyFromCredential(
        createCredential({ masterAddress: master.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
      ).wallet.address,
    ).toBe(key.address);
  });

  it("refuses read-only and malformed credentials without showing the key", () => {
    const readOnly = encodeCredential({ masterAddress: master.address });
    expect(() => tradingKeyFromCredential(readOnly)).toThrow(/read-only/);
    let error: unknown;
    try {
      tradingKeyFromCredential("not base64!");
    } catch (e) {
      error = e;
    }
    expect(isInvalidCredentialError(error)).toBe(true);
    const tradingKey = tradingKeyFromCredential(credential);
    const shown = `${JSON.stringify(tradingKey)} ${inspect(tradingKey, { depth: 10, showHidden: true })}`;
    expect(shown).not.toContain(key.exportPrivateKeyHex());
  });
});
