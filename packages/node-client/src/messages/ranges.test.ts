import { isInvalidArgumentError } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeTxBody } from "../tx/encode.js";
import { LocalWallet } from "../wallet/localWallet.js";
import { bankSendMsg, depositToSubaccountMsg, transferMsg, withdrawFromSubaccountMsg } from "./transfers.js";

const owner = LocalWallet.fromPrivateKey("07".repeat(32)).address;
const sub = { owner, number: 0 };
const U64 = (1n << 64n) - 1n;

/** Every way a quantums amount reaches a uint64 field of a transfer message. */
const quantumsBuilders = {
  depositToSubaccountMsg: (q: bigint) =>
    depositToSubaccountMsg({ sender: owner, recipient: sub, quantums: q }),
  withdrawFromSubaccountMsg: (q: bigint) =>
    withdrawFromSubaccountMsg({ sender: sub, recipient: owner, quantums: q }),
  transferMsg: (q: bigint) => transferMsg({ sender: sub, recipient: { owner, number: 1 }, quantums: q }),
};

describe("integer ranges of the transfer builders", () => {
  for (const [name, build] of Object.entries(quantumsBuilders)) {
    it(`${name} refuses quantums above 2^64 - 1 instead of wrapping (property)`, () => {
      fc.assert(
        fc.property(fc.bigInt({ min: U64 + 1n, max: U64 << 8n }), (quantums) => {
          let error: unknown;
          try {
            build(quantums);
          } catch (e) {
            error = e;
          }
          expect(isInvalidArgumentError(error)).toBe(true);
        }),
        { numRuns: 50 },
      );
    });

    it(`${name} encodes every quantums value of 1..2^64-1 (property)`, () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 1n, max: U64 }), (quantums) => {
          expect(encodeTxBody({ messages: [build(quantums)] }).length).toBeGreaterThan(0);
        }),
        { numRuns: 50 },
      );
    });
  }

  it("a deposit of 2^64 + 5,000,000 quantums is refused, naming quantums", () => {
    expect(() => quantumsBuilders.depositToSubaccountMsg(U64 + 5_000_001n)).toThrow(
      /Invalid quantums: must fit in a uint64/,
    );
  });

  it("a bank amount of 2^256 is refused and 2^256 - 1 accepted", () => {
    const send = (amount: bigint) =>
      bankSendMsg({ from: owner, to: owner, amount: [{ denom: "uusdc", amount }] });
    expect(() => send(1n << 256n)).toThrow(/Invalid amount\[0\]\.amount: must be below 2\^256/);
    expect(() => send((1n << 256n) - 1n)).not.toThrow();
  });
});
