import { inspect } from "node:util";
import { isInvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { toHexString } from "../bytes.js";
import { EvmWallet } from "../wallet/evmWallet.js";
import { LocalWallet } from "../wallet/localWallet.js";
import {
  activeSignerBackend,
  jsSignerBackend,
  loadNativeSignerBackend,
  resolveSignerBackend,
  type SignerBackend,
} from "./backend.js";
import { sha256Digest } from "./platform-node.js";
import {
  compressedPublicKey,
  isValidPrivateKey,
  signCosmos,
  signDigestRecoverable,
  signEthereum,
  verifyCosmos,
  verifyEthereum,
} from "./secp256k1.js";

const native = loadNativeSignerBackend();
const KEY = "1f".repeat(32);

const privateKeys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter(isValidPrivateKey);
const digests = fc.uint8Array({ minLength: 32, maxLength: 32 });
const hex = (bytes: Uint8Array) => toHexString(bytes);

describe("signer backends", () => {
  it("loads the native addon here (it is installed and built in this workspace) and auto picks it", () => {
    expect(native.name).toBe("native");
    expect(activeSignerBackend()).toBe("native");
    expect(resolveSignerBackend()).toBe(native);
    expect(resolveSignerBackend("native")).toBe(native);
    expect(resolveSignerBackend("js")).toBe(jsSignerBackend);
  });

  it("native and js give byte-identical signatures, recoverable signatures and public keys", () => {
    fc.assert(
      fc.property(privateKeys, digests, (key, digest) => {
        expect(hex(native.publicKey(key))).toBe(hex(jsSignerBackend.publicKey(key)));
        const signature = native.sign(digest, key);
        expect(signature.length).toBe(64);
        expect(hex(signature)).toBe(hex(jsSignerBackend.sign(digest, key)));
        const recoverable = native.signRecoverable(digest, key);
        expect(recoverable.length).toBe(65);
        expect(hex(recoverable)).toBe(hex(jsSignerBackend.signRecoverable(digest, key)));
        expect(hex(recoverable.subarray(0, 64))).toBe(hex(signature));
      }),
      { numRuns: 300 },
    );
  });

  it("signCosmos / signEthereum / signDigestRecoverable agree across backends and verify (low-S)", () => {
    const n = (1n << 256n) - 0x14551231950b75fc4402da1732fc9bebfn;
    fc.assert(
      fc.property(privateKeys, fc.uint8Array({ maxLength: 600 }), (key, message) => {
        const publicKey = compressedPublicKey(key, { backend: "js" });
        expect(hex(compressedPublicKey(key, { backend: "native" }))).toBe(hex(publicKey));
        const cosmos = signCosmos(key, message, { backend: "native" });
        expect(hex(cosmos)).toBe(hex(signCosmos(key, message, { backend: "js" })));
        expect(hex(cosmos)).toBe(hex(signCosmos(key, message)));
        expect(verifyCosmos(cosmos, message, publicKey)).toBe(true);
        expect(BigInt(`0x${hex(cosmos.subarray(32))}`) <= n / 2n).toBe(true);
        const eth = signEthereum(key, message, { backend: "native" });
        expect(hex(eth)).toBe(hex(signEthereum(key, message, { backend: "js" })));
        expect(verifyEthereum(eth, message, publicKey)).toBe(true);
        const digest = sha256Digest(message);
        expect(hex(signDigestRecoverable(key, digest, { backend: "native" }))).toBe(
          hex(signDigestRecoverable(key, digest, { backend: "js" })),
        );
      }),
      { numRuns: 100 },
    );
  });

  it("falls back to js under auto when the native backend cannot load, and refuses under native", () => {
    const missing = () => {
      throw new Error("Cannot find module 'secp256k1/bindings'");
    };
    expect(resolveSignerBackend("auto", missing)).toBe(jsSignerBackend);
    expect(() => resolveSignerBackend("native", missing)).toThrow("secp256k1/bindings");
    expect(resolveSignerBackend("js", missing)).toBe(jsSignerBackend);
  });

  it("uses an injected backend object as given and rejects unknown names", () => {
    expect(resolveSignerBackend(jsSignerBackend)).toBe(jsSignerBackend);
    let error: unknown;
    try {
      resolveSignerBackend("wasm" as never);
    } catch (caught) {
      error = caught;
    }
    expect(isInvalidArgumentError(error)).toBe(true);
    expect(String(error)).toContain('"wasm"');
  });
});

describe("the wallets' backend option", () => {
  function spying(inner: SignerBackend) {
    const calls: string[] = [];
    const backend: SignerBackend = {
      name: inner.name,
      sign(digest, key) {
        calls.push("sign");
        return inner.sign(digest, key);
      },
      signRecoverable(digest, key) {
        calls.push("signRecoverable");
        return inner.signRecoverable(digest, key);
      },
      publicKey(key) {
        calls.push("publicKey");
        return inner.publicKey(key);
      },
    };
    return { backend, calls };
  }

  it('defaults to "auto" (native here) and takes "native", "js" or a backend object', () => {
    const message = new Uint8Array([1, 2, 3]);
    const byDefault = LocalWallet.fromPrivateKey(KEY);
    const js = LocalWallet.fromPrivateKey(KEY, { backend: "js" });
    const nat = LocalWallet.fromPrivateKey(KEY, { backend: "native" });
    expect(byDefault.signerBackend).toBe("native");
    expect(js.signerBackend).toBe("js");
    expect(nat.signerBackend).toBe("native");
    expect(hex(js.sign(message))).toBe(hex(nat.sign(message)));
    expect(js.address).toBe(nat.address);

    const { backend, calls } = spying(jsSignerBackend);
    const injected = LocalWallet.fromPrivateKey(KEY, { backend });
    expect(hex(injected.sign(message))).toBe(hex(nat.sign(message)));
    expect(calls).toEqual(["publicKey", "sign"]);
    const fromMnemonic = LocalWallet.fromMnemonic(
      "test test test test test test test test test test test junk",
      { backend: "js" },
    );
    expect(fromMnemonic.signerBackend).toBe("js");
    expect(LocalWallet.generate({ backend: "js" }).signerBackend).toBe("js");
  });

  it("drives the EVM wallet too (Keccak digest, recoverable signatures, EIP-712)", () => {
    const message = new Uint8Array([4, 5, 6]);
    const js = EvmWallet.fromPrivateKey(KEY, { backend: "js" });
    const nat = EvmWallet.fromPrivateKey(KEY, { backend: "native" });
    expect(EvmWallet.fromPrivateKey(KEY).signerBackend).toBe("native");
    expect([js.signerBackend, nat.signerBackend]).toEqual(["js", "native"]);
    expect(hex(js.sign(message))).toBe(hex(nat.sign(message)));
    const approval = { evmChainId: 1, agentPublicKey: js.publicKey, nonce: 1 };
    expect(js.signApproveAgent(approval)).toBe(nat.signApproveAgent(approval));

    const { backend, calls } = spying(native);
    const injected = EvmWallet.fromPrivateKey(KEY, { backend });
    expect(hex(injected.sign(message))).toBe(hex(js.sign(message)));
    injected.signApproveAgent(approval);
    expect(calls).toEqual(["publicKey", "signRecoverable", "signRecoverable"]);
  });

  it("never shows the key, whichever backend signs", () => {
    for (const backend of ["native", "js"] as const) {
      const wallet = LocalWallet.fromPrivateKey(KEY, { backend });
      const shown = [
        JSON.stringify(wallet),
        String(wallet),
        inspect(wallet, { showHidden: true, depth: 10 }),
      ];
      expect(shown.join()).not.toContain(KEY);
      expect(shown.join()).not.toContain(backend === "native" ? "Secp256k1" : "noble");
    }
  });
});

describe("without the addon", () => {
  it("auto signs with js, byte-identical, and native is refused with a typed error that shows no key", async () => {
    vi.resetModules();
    vi.doMock("node:module", async (importOriginal) => {
      const actual = await importOriginal<typeof import("node:module")>();
      const createRequire = (url: string | URL) => {
        const real = actual.createRequire(url);
        return Object.assign((id: string) => {
          if (id.startsWith("secp256k1")) throw new Error(`Cannot find module '${id}'`);
          return real(id);
        }, real);
      };
      return { ...actual, createRequire, default: { ...actual, createRequire } };
    });
    try {
      const backends = await import("./backend.js");
      const wallets = await import("../wallet/localWallet.js");
      expect(backends.activeSignerBackend()).toBe("js");
      let error: unknown;
      try {
        backends.loadNativeSignerBackend();
      } catch (caught) {
        error = caught;
      }
      expect(isInvalidArgumentError(error)).toBe(true);
      expect((error as Error).cause).toBeInstanceOf(Error);
      expect(String((error as Error).cause)).toContain("secp256k1/bindings");
      expect(() => wallets.LocalWallet.fromPrivateKey(KEY, { backend: "native" })).toThrow(/not available/);
      try {
        wallets.LocalWallet.fromPrivateKey(KEY, { backend: "native" });
      } catch (caught) {
        expect(String(caught)).not.toContain(KEY);
      }
      const fallback = wallets.LocalWallet.fromPrivateKey(KEY);
      expect(fallback.signerBackend).toBe("js");
      const message = new Uint8Array([7, 8, 9]);
      expect(hex(fallback.sign(message))).toBe(hex(LocalWallet.fromPrivateKey(KEY).sign(message)));
    } finally {
      vi.doUnmock("node:module");
      vi.resetModules();
    }
  });
});
