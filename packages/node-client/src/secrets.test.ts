import { encodeCredential } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { createNodeClient } from "./client.js";
import { bankSendMsg, depositToSubaccountMsg } from "./messages/transfers.js";
import { queryActions } from "./queries.js";
import { generateMnemonic24 } from "./wallet/hd.js";
import { LocalWallet } from "./wallet/localWallet.js";

const wallet = LocalWallet.fromPrivateKey("07".repeat(32));
const privateKey = "5a".repeat(32);
const mnemonic =
  "abandon ability able about above absent absorb abstract absurd abuse access accident acoustic acquire across act actor actress actual adapt address adjust admit adult";
const credential = encodeCredential({ masterAddress: wallet.address, tradingPrivateKey: privateKey });
const SECRETS = [privateKey, `0x${privateKey}`, mnemonic, credential];

/** Everything an error shows: its message, its fields and its cause's message. */
function shown(error: unknown): string {
  const fields = Object.entries(error as object).map(
    ([k, v]) => `${k}=${typeof v === "bigint" ? v : JSON.stringify(v)}`,
  );
  return `${(error as Error).message}\n${fields.join("\n")}`;
}

async function caught(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("errors never carry a secret", () => {
  const client = createNodeClient({ grpc: "http://127.0.0.1:9" });

  it.each(SECRETS)(
    "a secret pasted into an address, an amount or an HD path is not echoed (%#)",
    async (secret) => {
      const errors = [
        await caught(() => client.getBalance({ address: secret, denom: "uusdc" })),
        await caught(() =>
          bankSendMsg({ from: wallet.address, to: secret, amount: [{ denom: "uusdc", amount: 1n }] }),
        ),
        await caught(() =>
          bankSendMsg({
            from: wallet.address,
            to: wallet.address,
            amount: [{ denom: "uusdc", amount: secret }],
          }),
        ),
        await caught(() =>
          depositToSubaccountMsg({
            sender: wallet.address,
            recipient: { owner: wallet.address, number: 0 },
            quantums: secret,
          }),
        ),
        await caught(() => LocalWallet.fromMnemonic(generateMnemonic24(), { hdPath: secret })),
      ];
      for (const error of errors) {
        const text = shown(error);
        expect(text).not.toContain(secret);
        expect(text).toContain("[redacted]");
      }
    },
  );

  it("a password in an RPC or REST URL stays out of a TransportError", async () => {
    for (const options of [
      { nodeRpc: "http://alice:hunter2@127.0.0.1:9" },
      { nodeRest: "http://alice:hunter2@127.0.0.1:9" },
    ]) {
      const withPassword = createNodeClient({ ...options, timeoutMs: 5_000 }).extend(queryActions);
      const error = await caught(() =>
        "nodeRpc" in options
          ? withPassword.getLatestBlock()
          : withPassword.getNodeInfo({ transport: "rest" }),
      );
      const text = shown(error);
      expect((error as Error).name).toBe("TransportError");
      expect(text).not.toContain("hunter2");
      withPassword.close();
    }
  });
});
