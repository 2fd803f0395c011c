import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as browser from "./platform-browser.js";
import * as node from "./platform-node.js";

describe("crypto platform seam", () => {
  it("hashes the same bytes on both sides (SHA-256 and its upper-case hex)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        expect(Array.from(browser.sha256Digest(bytes))).toEqual(Array.from(node.sha256Digest(bytes)));
        expect(browser.sha256HexUpper(bytes)).toBe(node.sha256HexUpper(bytes));
      }),
    );
  });

  it("knows the SHA-256 of the empty string", () => {
    const empty = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";
    expect(browser.sha256HexUpper(new Uint8Array())).toBe(empty);
    expect(node.sha256HexUpper(new Uint8Array())).toBe(empty);
  });

  it("the browser side has no native addon", () => {
    expect(() => browser.requireSecp256k1Bindings()).toThrow(/cannot load in a browser/);
  });

  it("the Node side loads the addon's bindings (installed and built in this workspace)", () => {
    const bindings = node.requireSecp256k1Bindings() as { ecdsaSign?: unknown };
    expect(typeof bindings.ecdsaSign).toBe("function");
  });
});
