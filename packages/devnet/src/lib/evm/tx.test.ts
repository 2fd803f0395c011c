import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SELECTORS, TOPICS } from "../../source-chain/ledger.js";
import {
  BRIDGE_ABI,
  decodeEvmRevert,
  decodeEvmString,
  decodeEvmWords,
  ERROR_SELECTOR,
  encodeEvmCall,
  encodeEvmRevert,
  encodeEvmString,
  evmEventTopic,
  evmSelector,
} from "./abi.js";
import { decodeSignedEvmTx, type EvmTx, type EvmTxSigner, evmTxSigningPayload, signEvmTx } from "./tx.js";

/** A test signer over a raw key, signing as EvmWallet.sign does (r || s || v over Keccak-256). */
function keySigner(secret: Uint8Array): EvmTxSigner {
  const publicKey = secp256k1.getPublicKey(secret, false);
  return {
    evmAddress: addressBytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)),
    sign(bytes) {
      const sig = secp256k1.sign(keccak_256(bytes), secret, { prehash: false, format: "recovered" });
      return Uint8Array.from([...sig.subarray(1), sig[0] as number]);
    },
  };
}

describe("EVM transactions", () => {
  it("decodes the EIP-155 example transaction and recovers its sender", () => {
    // EIP-155's worked example: nonce 9, 20 gwei, 21000 gas, to 0x3535..., 1 ether, chain id 1,
    // key 0x4646...46.
    const raw =
      "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";
    const decoded = decodeSignedEvmTx(raw);
    expect(decoded.tx).toMatchObject({
      type: 0,
      chainId: 1n,
      nonce: 9n,
      gasPrice: 20_000_000_000n,
      gasLimit: 21_000n,
      value: 10n ** 18n,
    });
    expect(decoded.from).toBe("0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F");
    expect(bytesToHex(keccak_256(evmTxSigningPayload(decoded.tx)))).toBe(
      "daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53",
    );
    const signer = keySigner(hexToBytes("46".repeat(32)));
    expect(signer.evmAddress).toBe(decoded.from);
    expect(signEvmTx(decoded.tx, signer)).toBe(raw);
  });

  const txArb: fc.Arbitrary<EvmTx> = fc.oneof(
    fc.record({
      type: fc.constant(2 as const),
      chainId: fc.bigInt({ min: 1n, max: 1n << 40n }),
      nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      maxPriorityFeePerGas: fc.bigInt({ min: 0n, max: 1n << 80n }),
      maxFeePerGas: fc.bigInt({ min: 0n, max: 1n << 80n }),
      gasLimit: fc.bigInt({ min: 0n, max: 30_000_000n }),
      to: fc.option(
        fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => addressBytesToHex(b)),
        { nil: undefined },
      ),
      value: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
      data: fc.uint8Array({ maxLength: 200 }),
    }),
    fc.record({
      type: fc.constant(0 as const),
      chainId: fc.option(fc.bigInt({ min: 1n, max: 1n << 40n }), { nil: undefined }),
      nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      gasPrice: fc.bigInt({ min: 0n, max: 1n << 80n }),
      gasLimit: fc.bigInt({ min: 0n, max: 30_000_000n }),
      to: fc.option(
        fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => addressBytesToHex(b)),
        { nil: undefined },
      ),
      value: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
      data: fc.uint8Array({ maxLength: 200 }),
    }),
  );

  it("signs, encodes, decodes and recovers the signer of any transaction (property)", () => {
    fc.assert(
      fc.property(txArb, fc.uint8Array({ minLength: 32, maxLength: 32 }), (tx, seed) => {
        const signer = keySigner(keccak_256(seed));
        const raw = signEvmTx(tx, signer);
        const decoded = decodeSignedEvmTx(raw);
        expect(decoded.tx).toEqual(tx);
        expect(decoded.from).toBe(signer.evmAddress);
        expect(decoded.hash).toBe(`0x${bytesToHex(keccak_256(hexToBytes(raw.slice(2))))}`);
      }),
      { numRuns: 60 },
    );
  });

  it("a changed byte changes the recovered sender or is refused (property)", () => {
    const signer = keySigner(hexToBytes("11".repeat(32)));
    const tx: EvmTx = {
      type: 2,
      chainId: 5n,
      nonce: 3n,
      maxPriorityFeePerGas: 1n,
      maxFeePerGas: 9n,
      gasLimit: 50_000n,
      to: signer.evmAddress as `0x${string}`,
      value: 7n,
      data: Uint8Array.of(1, 2, 3),
    };
    const raw = hexToBytes(signEvmTx(tx, signer).slice(2));
    fc.assert(
      fc.property(fc.nat(raw.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const bad = Uint8Array.from(raw);
        bad[at] = (bad[at] as number) ^ flip;
        try {
          expect(decodeSignedEvmTx(bad).from).not.toBe(signer.evmAddress);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidArgumentError);
        }
      }),
    );
  });

  it("refuses unsupported types, bad hex and high-s signatures", () => {
    expect(() => decodeSignedEvmTx("0x01c0")).toThrow(/type 1 not supported/);
    expect(() => decodeSignedEvmTx("0xzz")).toThrow(InvalidArgumentError);
    expect(() => decodeSignedEvmTx("0x02c0")).toThrow(/list of 12 fields/);
  });
});

describe("ABI", () => {
  it("computes the well-known ERC-20 selectors and topics", () => {
    expect(evmSelector(BRIDGE_ABI.transfer)).toBe("0xa9059cbb");
    expect(evmSelector(BRIDGE_ABI.approve)).toBe("0x095ea7b3");
    expect(evmSelector(BRIDGE_ABI.balanceOf)).toBe("0x70a08231");
    expect(evmSelector(BRIDGE_ABI.allowance)).toBe("0xdd62ed3e");
    expect(evmSelector(BRIDGE_ABI.transferFrom)).toBe("0x23b872dd");
    expect(evmSelector(BRIDGE_ABI.decimals)).toBe("0x313ce567");
    expect(evmSelector(BRIDGE_ABI.symbol)).toBe("0x95d89b41");
    expect(evmEventTopic(BRIDGE_ABI.approvalEvent)).toBe(
      "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925",
    );
  });

  it("writes out the selectors and topics the contracts use as the hashes of their signatures", () => {
    const functions = (Object.keys(BRIDGE_ABI) as (keyof typeof BRIDGE_ABI)[]).filter(
      (k) => !k.endsWith("Event"),
    );
    expect(SELECTORS).toEqual(Object.fromEntries(functions.map((k) => [evmSelector(BRIDGE_ABI[k]), k])));
    expect(TOPICS).toEqual({
      transfer: evmEventTopic(BRIDGE_ABI.transferEvent),
      approval: evmEventTopic(BRIDGE_ABI.approvalEvent),
      deposit: evmEventTopic(BRIDGE_ABI.depositEvent),
    });
    expect(ERROR_SELECTOR).toBe(evmSelector("Error(string)"));
  });

  it("encodes calls word by word and round-trips strings and revert reasons (property)", () => {
    const call = encodeEvmCall(BRIDGE_ABI.deposit, [5n, "0x3535353535353535353535353535353535353535"]);
    expect(decodeEvmWords(call.subarray(4))).toEqual([5n, 0x3535353535353535353535353535353535353535n]);
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(decodeEvmString(encodeEvmString(text))).toBe(text);
        expect(decodeEvmRevert(encodeEvmRevert(text))).toBe(text);
      }),
    );
    expect(bytesToHex(encodeEvmRevert("x").subarray(0, 4))).toBe("08c379a0");
    expect(decodeEvmRevert(Uint8Array.of(1, 2, 3, 4))).toBeUndefined();
    expect(() => encodeEvmCall(BRIDGE_ABI.transfer, ["0x12", 1n])).toThrow(/not a 0x address/);
    expect(() => encodeEvmCall(BRIDGE_ABI.transfer, [-1n, 1n])).toThrow(/out of range/);
  });
});
