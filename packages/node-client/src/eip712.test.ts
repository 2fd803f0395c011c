import { keccak_256 } from "@noble/hashes/sha3.js";
import { addressBytes } from "@perpx/address";
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { toHexString } from "./bytes.js";
import {
  APPROVE_AGENT_PRIMARY_TYPE,
  approveAgentTypedData,
  encodeType,
  hashApproveAgent,
  hashStruct,
  hashTypedData,
  recoverAddress,
  type TypedData,
  verifyApproveAgent,
} from "./eip712.js";
import { EvmWallet } from "./wallet/evmWallet.js";
import { LocalWallet } from "./wallet/localWallet.js";

/** The example of the EIP-712 specification, with its published hashes and signature. */
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

describe("EIP-712", () => {
  it("reproduces the specification's Mail example", () => {
    expect(encodeType(MAIL.types, "Mail")).toBe(
      "Mail(Person from,Person to,string contents)Person(string name,address wallet)",
    );
    expect(toHexString(hashStruct(MAIL.types, "EIP712Domain", MAIL.domain))).toBe(
      "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f",
    );
    expect(toHexString(hashStruct(MAIL.types, "Mail", MAIL.message))).toBe(
      "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e",
    );
    expect(toHexString(hashTypedData(MAIL))).toBe(
      "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2",
    );
  });

  it("signs the Mail example exactly as the specification does (key = keccak256('cow'))", () => {
    const cow = EvmWallet.fromPrivateKey(keccak_256(new TextEncoder().encode("cow")));
    expect(cow.evmAddress).toBe("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
    const signature = cow.signTypedData(MAIL);
    expect(signature).toBe(
      "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
        "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562" +
        "1c",
    );
    expect(recoverAddress(hashTypedData(MAIL), signature)).toBe(cow.evmAddress);
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
    expect(bad({ ...typedData.message, neg: 40000 })).toThrow(/out of range/);
    expect(bad({ ...typedData.message, fixed: ["0x01"] })).toThrow(/expected 2 elements/);
    expect(bad({ ...typedData.message, flag: "yes" })).toThrow(/boolean/);
    expect(() => hashTypedData({ ...typedData, primaryType: "Nope" })).toThrow(/unknown type/);
  });
});

describe("ServiceTransaction:ApproveAgent", () => {
  const master = EvmWallet.fromMnemonic("test test test test test test test test test test test junk");
  const agent = LocalWallet.fromPrivateKey("11".repeat(32));
  const params = {
    evmChainId: 31337,
    masterAddress: master.address,
    agentPublicKey: agent.publicKey,
    nonce: 1_700_000_000_000,
  };

  it("builds the documented typed data", () => {
    const typedData = approveAgentTypedData(params);
    expect(typedData.primaryType).toBe(APPROVE_AGENT_PRIMARY_TYPE);
    expect(typedData.domain).toEqual({ name: "perpx", version: "1", chainId: 31337n });
    expect(encodeType(typedData.types, typedData.primaryType)).toBe(
      "ServiceTransaction:ApproveAgent(address masterAddress,address agentAddress,bytes agentPublicKey,uint64 nonce,uint64 expiry)",
    );
    expect(typedData.message.masterAddress).toBe(master.evmAddress);
    expect(String(typedData.message.agentAddress).toLowerCase()).toBe(
      `0x${toHexString(addressBytes(agent.address))}`,
    );
    expect(typedData.message.expiry).toBe(0n);
  });

  it("is signed by the EVM wallet and verified; any change breaks it", () => {
    const signature = master.signApproveAgent({
      evmChainId: 31337,
      agentPublicKey: agent.publicKey,
      nonce: params.nonce,
    });
    expect(verifyApproveAgent(params, signature)).toBe(true);
    expect(recoverAddress(hashApproveAgent(params), signature)).toBe(master.evmAddress);
    expect(verifyApproveAgent({ ...params, evmChainId: 202006 }, signature)).toBe(false);
    expect(verifyApproveAgent({ ...params, nonce: params.nonce + 1 }, signature)).toBe(false);
    expect(
      verifyApproveAgent({ ...params, agentPublicKey: LocalWallet.generate().publicKey }, signature),
    ).toBe(false);
    const flipped = signature.endsWith("1b") ? "1c" : "1b";
    expect(verifyApproveAgent(params, `${signature.slice(0, -2)}${flipped}`)).toBe(false);
    expect(verifyApproveAgent(params, "0x1234")).toBe(false);
  });

  it("honours expiry", () => {
    const withExpiry = { ...params, expiry: 1_800_000_000 };
    const signature = master.signApproveAgent({ ...withExpiry, masterAddress: master.evmAddress });
    expect(verifyApproveAgent(withExpiry, signature, 1_799_999_999)).toBe(true);
    expect(verifyApproveAgent(withExpiry, signature, 1_800_000_001)).toBe(false);
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
