import { inspect } from "node:util";
import { stringToPath } from "@cosmjs/crypto";
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet, makeSignBytes } from "@cosmjs/proto-signing";
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { fromBase64, toHexString } from "../bytes.js";
import { verifyCosmos, verifyEthereum } from "../crypto/secp256k1.js";
import { EvmWallet } from "./evmWallet.js";
import { cosmosHdPath, evmHdPath, generateMnemonic24, isValidMnemonic } from "./hd.js";
import { LocalWallet } from "./localWallet.js";

const MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon " +
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art";
const HARDHAT = "test test test test test test test test test test test junk";
const HARDHAT_KEY = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

describe("LocalWallet", () => {
  it("derives index 0 by default and any index, matching cosmjs", async () => {
    for (const index of [0, 1, 7]) {
      const ours =
        index === 0 ? LocalWallet.fromMnemonic(MNEMONIC) : LocalWallet.fromMnemonic(MNEMONIC, { index });
      const theirs = await DirectSecp256k1HdWallet.fromMnemonic(MNEMONIC, {
        prefix: "perpx",
        hdPaths: [stringToPath(cosmosHdPath(index))],
      });
      const [account] = await theirs.getAccounts();
      expect(ours.address).toBe(account?.address);
      expect(toHexString(ours.publicKey)).toBe(toHexString(account!.pubkey));
    }
  });

  it("honours prefix, hdPath and passphrase", () => {
    const base = LocalWallet.fromMnemonic(MNEMONIC);
    expect(LocalWallet.fromMnemonic(MNEMONIC, { prefix: "cosmos" }).address).toMatch(/^cosmos1/);
    expect(LocalWallet.fromMnemonic(MNEMONIC, { hdPath: "m/44'/118'/0'/0/1" }).address).toBe(
      LocalWallet.fromMnemonic(MNEMONIC, { index: 1 }).address,
    );
    expect(LocalWallet.fromMnemonic(MNEMONIC, { passphrase: "x" }).address).not.toBe(base.address);
    expect(LocalWallet.fromMnemonic(`  ${MNEMONIC.replaceAll(" ", "   ")} `).address).toBe(base.address);
  });

  it("signs the same bytes as cosmjs (deterministic, low-S) and verifies", async () => {
    const ours = LocalWallet.fromMnemonic(MNEMONIC);
    const theirs = await DirectSecp256k1HdWallet.fromMnemonic(MNEMONIC, { prefix: "perpx" });
    const doc = {
      bodyBytes: new Uint8Array([1, 2, 3]),
      authInfoBytes: new Uint8Array([4, 5]),
      chainId: "perpx-local-1",
      accountNumber: 9n,
    };
    const { signature } = await theirs.signDirect(ours.address, doc);
    const signBytes = makeSignBytes(doc);
    const mine = ours.signDirect(doc, signBytes);
    expect(toHexString(mine.signature)).toBe(toHexString(fromBase64(signature.signature)));
    expect(mine.signature.length).toBe(64);
    expect(verifyCosmos(mine.signature, signBytes, ours.publicKey)).toBe(true);
  });

  it("imports private keys as bytes or hex, and generates fresh keys", () => {
    const a = LocalWallet.fromPrivateKey(HARDHAT_KEY);
    const b = LocalWallet.fromPrivateKey(`0x${HARDHAT_KEY}`);
    expect(a.address).toBe(b.address);
    expect(a.exportPrivateKeyHex()).toBe(HARDHAT_KEY);
    expect(LocalWallet.generate().address).not.toBe(LocalWallet.generate().address);
    const { mnemonic, wallet } = LocalWallet.generateWithMnemonic({ index: 2 });
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(LocalWallet.fromMnemonic(mnemonic, { index: 2 }).address).toBe(wallet.address);
  });

  it("rejects bad input with typed errors that never echo secrets", () => {
    const badMnemonic = MNEMONIC.replace("art", "zoo");
    const attempts: Array<() => unknown> = [
      () => LocalWallet.fromMnemonic(badMnemonic),
      () => LocalWallet.fromMnemonic(MNEMONIC, { index: -1 }),
      () => LocalWallet.fromPrivateKey(`${HARDHAT_KEY}00`),
      () => LocalWallet.fromPrivateKey("f".repeat(64)),
      () => LocalWallet.fromPrivateKey(new Uint8Array(32)),
    ];
    for (const attempt of attempts) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(isInvalidArgumentError(caught)).toBe(true);
      const text = `${String(caught)} ${inspect(caught, { depth: 5 })} ${JSON.stringify(caught)}`;
      expect(text).not.toContain(HARDHAT_KEY);
      expect(text).not.toContain("abandon abandon");
    }
  });

  it("never shows the private key in toJSON, toString, util.inspect or structuredClone", () => {
    const wallet = LocalWallet.fromPrivateKey(HARDHAT_KEY);
    const shown = [
      JSON.stringify(wallet),
      JSON.stringify({ nested: { wallet } }),
      String(wallet),
      `${wallet}`,
      inspect(wallet),
      inspect(wallet, { showHidden: true, depth: 10, customInspect: false }),
      inspect({ wallet }, { depth: 10 }),
      JSON.stringify(Object.entries(wallet)),
      JSON.stringify(structuredClone(wallet)),
    ].join("\n");
    expect(shown).not.toMatch(new RegExp(HARDHAT_KEY, "i"));
    expect(shown).not.toContain(toHexString(new Uint8Array(Buffer.from(HARDHAT_KEY, "hex")).subarray(0, 8)));
    expect(JSON.parse(JSON.stringify(wallet))).toEqual({
      address: wallet.address,
      keyType: "secp256k1",
      publicKey: Buffer.from(wallet.publicKey).toString("base64"),
    });
    expect(inspect(wallet)).toContain(wallet.address);
  });
});

describe("EvmWallet", () => {
  it("derives the well-known hardhat account at m/44'/60'/0'/0/0", () => {
    const wallet = EvmWallet.fromMnemonic(HARDHAT);
    expect(wallet.evmAddress).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(wallet.address).toMatch(/^perpx1/);
    expect(EvmWallet.fromPrivateKey(HARDHAT_KEY).evmAddress).toBe(wallet.evmAddress);
    expect(EvmWallet.fromMnemonic(HARDHAT, { index: 1 }).evmAddress).toBe(
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    );
    expect(wallet.keyType).toBe("eth_secp256k1");
  });

  it("matches cosmjs's eth_secp256k1 wallet: address and signature r||s over Keccak-256", async () => {
    const ours = EvmWallet.fromMnemonic(MNEMONIC, { index: 3 });
    const theirs = await DirectEthSecp256k1HdWallet.fromMnemonic(MNEMONIC, {
      prefix: "perpx",
      hdPaths: [stringToPath(evmHdPath(3))],
    });
    const [account] = await theirs.getAccounts();
    expect(ours.address).toBe(account?.address);
    const doc = {
      bodyBytes: new Uint8Array([9]),
      authInfoBytes: new Uint8Array([8]),
      chainId: "c",
      accountNumber: 1n,
    };
    const signBytes = makeSignBytes(doc);
    const { signature } = await theirs.signDirect(ours.address, doc);
    const mine = ours.signDirect(doc, signBytes).signature;
    expect(mine.length).toBe(65);
    expect(toHexString(mine.subarray(0, 64))).toBe(toHexString(fromBase64(signature.signature)));
    expect([0, 1]).toContain(mine[64]);
    expect(verifyEthereum(mine, signBytes, ours.publicKey)).toBe(true);
  });

  it("keeps its key out of every printed form", () => {
    const wallet = EvmWallet.fromPrivateKey(HARDHAT_KEY);
    const shown = [
      JSON.stringify(wallet),
      String(wallet),
      inspect(wallet, { showHidden: true, depth: 10 }),
    ].join();
    expect(shown).not.toMatch(new RegExp(HARDHAT_KEY, "i"));
    expect(shown).toContain(wallet.evmAddress);
    expect(EvmWallet.generate().evmAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(EvmWallet.generateWithMnemonic().mnemonic.split(" ")).toHaveLength(24);
  });
});

describe("mnemonics", () => {
  it("generates valid 24-word mnemonics", () => {
    const mnemonic = generateMnemonic24();
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(isValidMnemonic(mnemonic)).toBe(true);
    expect(isValidMnemonic("not a mnemonic")).toBe(false);
  });
});

describe("SecretKey", () => {
  it("prints as [redacted] everywhere and copies its input", async () => {
    const { SecretKey } = await import("./secretKey.js");
    const bytes = new Uint8Array(32).fill(7);
    const key = SecretKey.from(bytes);
    bytes.fill(0);
    expect(key.use((b) => b[0])).toBe(7);
    expect(String(key)).toBe("[redacted]");
    expect(JSON.stringify({ key })).toBe('{"key":"[redacted]"}');
    expect(inspect(key, { showHidden: true, depth: 5 })).toBe("[redacted]");
    expect(inspect({ key })).not.toContain("7, 7");
  });
});
