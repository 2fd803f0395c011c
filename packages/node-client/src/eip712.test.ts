import { approveAgentTypedData } from "@perpx/core";
import { hashTypedData } from "@perpx/core/evm";
import { recoverAddress, verifyApproveAgent } from "@perpx/core/evm-verify";
import { describe, expect, it } from "vitest";
import { EvmWallet } from "./wallet/evmWallet.js";
import { LocalWallet } from "./wallet/localWallet.js";

/** The pure typed data and hashing live in @perpx/core (tested there); this proves the wallets sign it. */
describe("ServiceTransaction:ApproveAgent signed by an EvmWallet", () => {
  const master = EvmWallet.fromMnemonic("test test test test test test test test test test test junk");
  const agent = LocalWallet.fromPrivateKey("11".repeat(32));
  const params = {
    evmChainId: 31337,
    masterAddress: master.address,
    agentPublicKey: agent.publicKey,
    nonce: 1_700_000_000_000,
  };

  it("is signed by the EVM wallet and verified; any change breaks it", () => {
    const signature = master.signApproveAgent({
      evmChainId: 31337,
      agentPublicKey: agent.publicKey,
      nonce: params.nonce,
    });
    expect(verifyApproveAgent(params, signature)).toBe(true);
    expect(recoverAddress(hashTypedData(approveAgentTypedData(params)), signature)).toBe(master.evmAddress);
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
});
