import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import type { BridgeDepositStatus } from "../src/index.js";
import { devnetControl, fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();
const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";

async function bank(address: string, denom: string): Promise<bigint> {
  const url = `${net.devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`;
  return BigInt(((await (await fetch(url)).json()) as { balance: { amount: string } }).balance.amount);
}

describe("wrap and bridge deposits", () => {
  it("redeems and withdraws wrapped USDC in human units; refuses without backing before signing", async () => {
    const wallet = await fundedWallet(net.devnet);
    const { signer, signed } = recordingSigner(wallet);
    const client = await net.connect({ signer });
    const none = await client.wrapRedeem({ amount: "1000000" }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(none) && none.message).toMatch(/no voucher backs/);
    expect(signed).toEqual([]);
    const received = await devnetControl(net, "/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "5000000",
      sender: NOBLE,
      receiver: wallet.address,
    });
    const voucher = received.voucherDenom as string;
    const before = await bank(wallet.address, voucher);
    await client.wrapRedeem({ amount: "1.5" });
    expect(await bank(wallet.address, voucher)).toBe(before + 1_500_000n);
    const withdrawn = await client.wrapWithdraw({ amount: "0.25", receiver: NOBLE, voucherDenom: voucher });
    expect(withdrawn.events.some((e) => e.type === "send_packet")).toBe(true);
  });

  it("tracks a bridge deposit until the chain credited it", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    const ethTxHash = `0x${"ab".repeat(32)}`;
    const observed = await devnetControl(net, "/bridge/deposit", {
      sender: `0x${"12".repeat(20)}`,
      address: wallet.address,
      amount: "7000000",
      txHash: ethTxHash,
    });
    const denom = (observed.coin as { denom: string }).denom;
    const before = await bank(wallet.address, denom);
    const steps: BridgeDepositStatus["status"][] = [];
    const done = await client.trackBridgeDeposit({ ethTxHash, onStatus: (s) => steps.push(s.status) });
    expect(done).toMatchObject({ status: "COMPLETED", coin: { denom, amount: "7000000" } });
    expect(steps.at(-1)).toBe("COMPLETED");
    expect(steps.length).toBeGreaterThan(1);
    expect(await bank(wallet.address, denom)).toBe(before + 7_000_000n);
  });
});
