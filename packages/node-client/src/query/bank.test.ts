import { createRouterTransport } from "@connectrpc/connect";
import { cosmosBank, ibcTransfer } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { isQueryError } from "../errors.js";
import { getBalance, getBalances } from "./bank.js";
import { ibcQueries } from "./ibc.js";

const address = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";

/** A node that answers every balance (and the IBC escrow total) with `amount`. */
function nodeAnswering(amount: string) {
  return createNodeClient({
    grpc: createRouterTransport(({ service }) => {
      service(cosmosBank.Query, {
        allBalances: () => ({ balances: [{ denom: "uusdc", amount }] }),
        balance: () => ({ balance: { denom: "uusdc", amount } }),
      } as never);
      service(ibcTransfer.Query, {
        totalEscrowForDenom: () => ({ amount: { denom: "uusdc", amount } }),
      } as never);
    }),
  });
}

async function reads(amount: string): Promise<unknown[]> {
  const client = nodeAnswering(amount);
  const settle = (p: Promise<bigint | undefined>) => p.catch((error: unknown) => error);
  return Promise.all([
    settle(getBalances(client, { address }).then((r) => r[0]?.amount)),
    settle(getBalance(client, { address, denom: "uusdc" }).then((r) => r.amount)),
    settle(ibcQueries.getTotalEscrow(client, { denom: "uusdc" })),
  ]);
}

describe("coin amounts of a node's answers", () => {
  it("are read exactly, past 2^64, and an unset amount is zero as the chain reads it", async () => {
    expect(await reads("123456789012345678901234567890")).toEqual(
      Array(3).fill(123456789012345678901234567890n),
    );
    expect(await reads("0")).toEqual([0n, 0n, 0n]);
    expect(await reads("")).toEqual([0n, 0n, 0n]);
  });

  it("are a QueryError naming the field when they are not decimal digits, never another number", async () => {
    // BigInt("0x10") is 16n, BigInt(" 7 ") 7n, BigInt("0b11") 3n; "1.5" threw a bare SyntaxError.
    for (const amount of ["0x10", "0b11", "0o7", " 7 ", "+7", "-5", "1.5", "1e3", "7\n"]) {
      const answers = await reads(amount);
      for (const [i, answer] of answers.entries()) {
        expect(isQueryError(answer), `${JSON.stringify(amount)} read as ${String(answer)}`).toBe(true);
        const field = ["balances[0].amount", "balance.amount", "amount.amount"][i] as string;
        expect((answer as Error).message).toContain(`the answer's ${field} is not a coin amount`);
      }
    }
  });
});
