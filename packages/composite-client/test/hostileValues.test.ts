/**
 * Values no field takes, refused before signing with an error that names the field the caller gave.
 */
import { inspect } from "node:util";
import { encodeCredential, isInvalidAmountError, isInvalidArgumentError, type PerpxError } from "@perpx/core";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import type { HumanOrder } from "../src/index.js";
import { fundedWallet, recordingSigner, useDevnet } from "./support.js";

/** Everything an error shows of itself: its text, its JSON and its inspection. */
function everything(error: unknown): string {
  const json = JSON.stringify(error, (_key, value: unknown) =>
    typeof value === "bigint" ? `${value}` : value,
  );
  return `${String(error)}\n${json}\n${inspect(error, { depth: 5 })}`;
}

const net = useDevnet();

describe("hostile values", () => {
  it("deposit, withdraw and transfer refuse a zero or beyond-uint64 amount as the amount, and a bad recipient by name", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const moves = {
      deposit: (amount: string) => client.deposit({ amount }),
      withdraw: (amount: string) => client.withdraw({ amount }),
      transfer: (amount: string) => client.transfer({ amount, to: { number: 1 } }),
    };
    // 2^64 quote quantums is 18446744073709.551616 USDC: the largest amount is one quantum less.
    const refused = {
      "0": "not-positive",
      "0.000000": "not-positive",
      "18446744073709.551616": "out-of-range",
    };
    for (const [name, move] of Object.entries(moves)) {
      for (const [amount, reason] of Object.entries(refused)) {
        const error = await move(amount).catch((e: unknown) => e);
        const shown = `${name} ${amount}: ${String(error)}`;
        expect(isInvalidAmountError(error) && [error.kind, error.reason], shown).toEqual(["amount", reason]);
      }
    }
    const recipients = [
      `${signer.address.slice(0, -1)}${signer.address.endsWith("q") ? "p" : "q"}`, // bad checksum
      "cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a", // another chain's prefix
    ];
    for (const recipient of recipients) {
      const error = await client.withdraw({ amount: "1", recipient }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error) && error.argument, String(error)).toBe("recipient");
    }
    expect(signed).toEqual([]);
  });

  it("a secret pasted into a field is never shown, whole or in part, by the error that refuses it", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    await client.getMarket({ ticker: "BTC-USD" });
    const key = LocalWallet.generate();
    const hex = key.exportPrivateKeyHex().replace(/^0x/, "");
    const mnemonic = net.devnet.accounts[2]!.mnemonic;
    const credential = encodeCredential({ masterAddress: key.address, tradingPrivateKey: hex });
    // Pieces that give a secret away: 16 hex digits of the key, 3 words of the mnemonic, 24
    // characters of the credential.
    const pieces = (secret: string) =>
      secret === mnemonic
        ? mnemonic
            .split(" ")
            .flatMap((_, i, words) => (i + 3 <= words.length ? [words.slice(i, i + 3).join(" ")] : []))
        : Array.from({ length: secret.length - 15 }, (_, i) =>
            secret.slice(i, i + (secret === hex ? 16 : 24)),
          );
    const order = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" } as const;
    const place = (fields: Record<string, unknown>) =>
      client.placeOrder({ ...order, ...fields } as HumanOrder);
    const fields: Record<string, (secret: string) => Promise<unknown>> = {
      "transfer to.owner": (s) => client.transfer({ amount: "1", to: { owner: s, number: 1 } }),
      "transfer amount": (s) => client.transfer({ amount: s, to: { number: 1 } }),
      "deposit amount": (s) => client.deposit({ amount: s }),
      "withdraw amount": (s) => client.withdraw({ amount: s }),
      "withdraw recipient": (s) => client.withdraw({ amount: "1", recipient: s }),
      "placeOrder side": (s) => place({ side: s }),
      "placeOrder type": (s) => place({ type: s }),
      "placeOrder timeInForce": (s) => place({ timeInForce: s }),
      "placeOrder rounding": (s) => place({ rounding: s }),
      "placeOrder clientId": (s) => place({ clientId: s }),
      "placeOrder postOnly": (s) => place({ postOnly: s }),
      "placeOrder goodTil": (s) => place({ goodTil: s }),
      "placeOrder slippage": (s) =>
        client.placeOrder({ market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: s }),
      "placeOrder slippage beside a price": (s) => place({ type: "MARKET", slippage: s }),
      "placeOrder twap.priceTolerance": (s) =>
        place({ type: "TWAP", twap: { durationSeconds: 300, intervalSeconds: 60, priceTolerance: s } }),
      "cancelOrder market": (s) => client.cancelOrder({ market: s, clientId: 1 }),
      "setLeverage leverage": (s) => client.setLeverage({ market: "BTC-USD", leverage: s }),
    };
    const leaks: string[] = [];
    for (const [field, refuse] of Object.entries(fields)) {
      for (const secret of [hex, `0x${hex}`, mnemonic, credential]) {
        const error = await refuse(secret).catch((e: unknown) => e);
        expect((error as PerpxError).code, `${field}: ${String(error)}`).toBeDefined();
        const shown = everything(error);
        if (pieces(secret).some((piece) => shown.includes(piece))) leaks.push(`${field}: ${String(error)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(signed).toEqual([]);
  });
});
