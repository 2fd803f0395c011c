import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import { describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS } from "./genesis-accounts.js";

describe("genesis accounts", () => {
  it("holds five distinct 24-word mnemonics", () => {
    expect(GENESIS_ACCOUNTS).toHaveLength(5);
    expect(new Set(GENESIS_ACCOUNTS.map((a) => a.mnemonic)).size).toBe(5);
    for (const account of GENESIS_ACCOUNTS) expect(account.mnemonic.split(" ")).toHaveLength(24);
  });

  it.each(GENESIS_ACCOUNTS.map((a) => [a.name, a] as const))(
    "%s: the hard-coded address is what cosmjs derives (m/44'/118'/0'/0/0, prefix perpx)",
    async (_name, account) => {
      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: "perpx" });
      const [derived] = await wallet.getAccounts();
      expect(derived?.address).toBe(account.address);
    },
  );
});
