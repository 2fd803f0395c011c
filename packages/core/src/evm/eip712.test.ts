import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import fc from "fast-check";
import * as OxTypedData from "ox/TypedData";
import { describe, expect, it } from "vitest";
import { APPROVE_AGENT_PRIMARY_TYPE, approveAgentTypedData } from "../approve-agent.js";
import { addressBytesToHex, isInvalidArgumentError } from "../index.js";
import type { TypedData } from "../typed-data.js";
import { encodeType, hashStruct, hashTypedData } from "./eip712.js";
import { recoverAddress, verifyApproveAgent, verifyEthSignature } from "./recover.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** An EVM key: private key, 0x address (keccak of the uncompressed key). */
function evmKey(secret: Uint8Array) {
  const publicKey = secp256k1.getPublicKey(secret, false);
  return { secret, address: addressBytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)) };
}

/** `r || s || v` (v = 27/28) over a digest. */
function signDigest(secret: Uint8Array, digest: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(digest, secret, { prehash: false, format: "recovered" });
  const out = new Uint8Array(65);
  out.set(recovered.subarray(1), 0);
  out[64] = (recovered[0] as number) + 27;
  return out;
}

const MAIL: TypedData = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};

describe("EIP-712 (core)", () => {
  it("reproduces the specification's Mail example, hashes and signature", () => {
    expect(encodeType(MAIL.types, "Mail")).toBe(
      "Mail(Person from,Person to,string contents)Person(string name,address wallet)",
    );
    expect(hex(hashStruct(MAIL.types, "EIP712Domain", MAIL.domain))).toBe(
      "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f",
    );
    expect(hex(hashTypedData(MAIL))).toBe("be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
    const cow = evmKey(keccak_256(new TextEncoder().encode("cow")));
    expect(cow.address).toBe("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
    const signature = signDigest(cow.secret, hashTypedData(MAIL));
    expect(hex(signature)).toBe(
      "4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
        "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c",
    );
    expect(recoverAddress(hashTypedData(MAIL), signature)).toBe(cow.address);
  });

  it("encodes arrays, bytesN, signed ints and bools", () => {
    const types = {
      EIP712Domain: [{ name: "name", type: "string" }],
      T: [
        { name: "xs", type: "uint8[]" },
        { name: "fixed", type: "bytes4[2]" },
        { name: "neg", type: "int16" },
        { name: "flag", type: "bool" },
      ],
    };
    const typedData: TypedData = {
      types,
      primaryType: "T",
      domain: { name: "x" },
      message: { xs: [1, 2], fixed: ["0x01020304", new Uint8Array([5, 6, 7, 8])], neg: -2, flag: true },
    };
    expect(hashTypedData(typedData)).toHaveLength(32);
    const bad = (message: TypedData["message"]) => () => hashTypedData({ ...typedData, message });
    expect(bad({ ...typedData.message, neg: 40000 })).toThrow(/typedData.message.neg: 40000 is out of range/);
    expect(bad({ ...typedData.message, fixed: ["0x01"] })).toThrow(/expected 2 elements/);
    expect(bad({ ...typedData.message, flag: "yes" })).toThrow(/boolean/);
    expect(bad({ ...typedData.message, fixed: ["0x01020304", "0x0102"] })).toThrow(
      /typedData.message.fixed\[1\]: expected 4 bytes for bytes4, got 2/,
    );
    expect(() => hashTypedData({ ...typedData, primaryType: "Nope" })).toThrow(/unknown type/);
  });

  it("gives ox's own sign payload, the domain alone when the primary type is the domain", () => {
    const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
    const oxPayload = (typedData: TypedData) =>
      OxTypedData.getSignPayload(
        typedData as unknown as OxTypedData.Definition<OxTypedData.TypedData, string>,
      );
    expect(hex(hashTypedData(MAIL))).toBe(oxPayload(MAIL));
    const domainOnly: TypedData = { ...MAIL, primaryType: "EIP712Domain", message: MAIL.domain };
    expect(hex(hashTypedData(domainOnly))).toBe(oxPayload(domainOnly));
  });

  it("rejects malformed values and signatures with InvalidArgumentError", () => {
    expect(() => hashTypedData({ ...MAIL, primaryType: "Nope" })).toThrow(/unknown type/);
    try {
      recoverAddress(new Uint8Array(32), new Uint8Array(10));
      expect.unreachable();
    } catch (error) {
      expect(isInvalidArgumentError(error)).toBe(true);
    }
  });
});

describe("ServiceTransaction:ApproveAgent (core)", () => {
  const master = evmKey(new Uint8Array(32).fill(7));
  const agentKey = secp256k1.getPublicKey(new Uint8Array(32).fill(9), true);
  const params = {
    evmChainId: 31337,
    masterAddress: master.address,
    agentPublicKey: agentKey,
    nonce: 1_700_000_000_000,
  };

  it("builds the documented typed data (agentAddress = RIPEMD-160(SHA-256(agent key)))", () => {
    const typedData = approveAgentTypedData(params);
    expect(typedData.primaryType).toBe(APPROVE_AGENT_PRIMARY_TYPE);
    expect(typedData.domain).toEqual({ name: "perpx", version: "1", chainId: 31337n });
    expect(String(typedData.message.agentAddress).toLowerCase()).toBe(
      `0x${hex(ripemd160(sha256(agentKey)))}`,
    );
    expect(typedData.message.agentPublicKey).toBe(`0x${hex(agentKey)}`);
    expect(typedData.message.expiry).toBe(0n);
  });

  it("verifies the master's signature; any change, another signer or an expiry breaks it", () => {
    const signature = signDigest(master.secret, hashTypedData(approveAgentTypedData(params)));
    expect(verifyApproveAgent(params, signature)).toBe(true);
    expect(verifyApproveAgent(params, `0x${hex(signature)}`)).toBe(true);
    expect(verifyApproveAgent({ ...params, nonce: params.nonce + 1 }, signature)).toBe(false);
    expect(verifyApproveAgent({ ...params, evmChainId: 202006 }, signature)).toBe(false);
    const other = evmKey(new Uint8Array(32).fill(8));
    expect(
      verifyApproveAgent(params, signDigest(other.secret, hashTypedData(approveAgentTypedData(params)))),
    ).toBe(false);
    const expiring = { ...params, expiry: 1_000 };
    const signed = signDigest(master.secret, hashTypedData(approveAgentTypedData(expiring)));
    expect(verifyApproveAgent(expiring, signed, 999)).toBe(true);
    expect(verifyApproveAgent(expiring, signed, 1_001)).toBe(false);
    expect(() => approveAgentTypedData({ ...params, agentPublicKey: new Uint8Array(32) })).toThrow(
      /compressed/,
    );
  });

  it("rejects malformed parameters", () => {
    for (const bad of [
      { ...params, agentPublicKey: new Uint8Array(32) },
      { ...params, evmChainId: 0 },
      { ...params, nonce: 0 },
      { ...params, expiry: -1 },
      { ...params, masterAddress: "0x1234" },
    ]) {
      let caught: unknown;
      try {
        approveAgentTypedData(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(Error);
      expect((caught as { code?: string }).code).toMatch(/INVALID_/);
      if (isInvalidArgumentError(caught)) expect(caught.argument).toBeTruthy();
    }
  });
});

describe("verifyEthSignature", () => {
  it("accepts r||s||v and r||s from the address's key only (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k)),
        fc.uint8Array({ maxLength: 200 }),
        (secret, message) => {
          const key = evmKey(secret);
          const digest = keccak_256(message);
          const signature = signDigest(secret, digest);
          expect(verifyEthSignature(digest, signature, key.address)).toBe(true);
          expect(verifyEthSignature(digest, signature.subarray(0, 64), key.address)).toBe(true);
          const tampered = keccak_256(digest);
          expect(verifyEthSignature(tampered, signature, key.address)).toBe(false);
          expect(verifyEthSignature(digest, signature.subarray(0, 63), key.address)).toBe(false);
        },
      ),
      { numRuns: 25 },
    );
  });
});
