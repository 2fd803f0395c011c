import { isInvalidArgumentError } from "@perpx/errors";
import { createNodeClient, isQueryError } from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import { recordingSigner } from "../test/support.js";
import type { ClientContext } from "./client.js";
import { wrapRedeemUsdc, wrapWithdrawUsdc } from "./wrapBridge.js";

/**
 * A context whose node answers the wrap module's Backing query with `remaining` (one voucher per
 * balance, `ibc/V0`, `ibc/V1`, ...), records what is signed and the voucher of each redeem or
 * withdraw asked for (which then fails, unsent); any other call fails.
 */
function backedBy(remaining: string[]): { context: ClientContext; signed: unknown[]; vouchers: string[] } {
  const answer = (method: { name: string }) => {
    if (method.name !== "Backing") throw new Error(`not served: ${method.name}`);
    const backings = remaining.map((r, i) => ({ voucherDenom: `ibc/V${i}`, remainingBalance: r }));
    return { stream: false, header: new Headers(), trailer: new Headers(), message: { backings } };
  };
  const grpc = {
    unary: async (method: { name: string }) => answer(method),
    stream: async () => {
      throw new Error("no streams");
    },
  };
  const wallet = LocalWallet.generate();
  const { signer, signed } = recordingSigner(wallet);
  const vouchers: string[] = [];
  const client = createNodeClient({ grpc: grpc as never });
  // the message sent, taken before it is signed
  const send = async (params: { voucherDenom: string }) => {
    vouchers.push(params.voucherDenom);
    throw new Error("not sent");
  };
  const context = {
    node: { ...client, wrapRedeem: send, wrapWithdraw: send },
    trader: { kind: "wallet", signer, owner: wallet.address },
  } as unknown as ClientContext;
  return { context, signed, vouchers };
}

const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";

describe("the voucher a wrap redeem or withdraw picks", () => {
  it("reads a node's remaining balance as base-10 digits: a hex or padded one is a QueryError, never signed", async () => {
    // 1.5 USDC is 1,500,000 uusdc; "0x1000000" read by BigInt is 16,777,216 and would cover it
    for (const remaining of [
      "0x1000000",
      " 2000000",
      "2000000 ",
      "2e6",
      "-2000000",
      "0b111111111111111111111111",
    ]) {
      const { context, signed, vouchers } = backedBy([remaining]);
      for (const move of [
        () => wrapRedeemUsdc(context, { amount: "1.5" }),
        () => wrapWithdrawUsdc(context, { amount: "1.5", receiver: NOBLE }),
      ]) {
        const error = await move().catch((e: unknown) => e);
        expect(isQueryError(error) && error.path, `${remaining}: ${String(error)}`).toBe(
          "/perpx.wrap.v1.Query/Backing",
        );
        expect((error as Error).message).toContain("backings[0].remainingBalance is not a coin amount");
      }
      expect([signed, vouchers]).toEqual([[], []]);
    }
  });

  it("picks the first voucher whose remaining balance covers the amount, and refuses when none does", async () => {
    const covered = backedBy(["1499999", "", "1500000", "9000000"]);
    await wrapRedeemUsdc(covered.context, { amount: "1.5" }).catch(() => undefined);
    await wrapWithdrawUsdc(covered.context, { amount: "1.5", receiver: NOBLE }).catch(() => undefined);
    await wrapRedeemUsdc(covered.context, { amount: "1.500001" }).catch(() => undefined);
    expect(covered.vouchers).toEqual(["ibc/V2", "ibc/V2", "ibc/V3"]);
    const short = backedBy(["1499999", ""]);
    const none = await wrapRedeemUsdc(short.context, { amount: "1.5" }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(none) && none.message).toMatch(
      /no voucher backs 1500000 uusdc \(2 backing/,
    );
    expect(short.signed).toEqual([]);
  });
});
