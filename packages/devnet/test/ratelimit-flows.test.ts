/**
 * x/ratelimit over the wire: an incoming ICS-20 transfer (devnet control `ibc/receive`, wrapped to
 * `uusdc`) adds its amount to every `uusdc` limiter (read over REST), and an outgoing `MsgTransfer`
 * past the smallest capacity is ratelimit 1002 in the real chain's words, signed with cosmjs and
 * broadcast over RPC.
 */
import { create } from "@bufbuild/protobuf";
import { ibcTransfer } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, signWire } from "./support/wire.js";

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function capacities(): Promise<bigint[]> {
  const { status, body } = await restGet(
    devnet.endpoints.nodeRest,
    "/perpx/ratelimit/v1/capacity_by_denom?denom=uusdc",
  );
  expect(status).toBe(200);
  return (body.limiter_capacity_list as Loose[]).map((c) => BigInt(c.capacity));
}

describe("ratelimit flows", () => {
  it("adds an incoming transfer to every limiter of the denom it credits", async () => {
    const before = await capacities();
    const received = await fetch(`${devnet.endpoints.devnetControl}/devnet/ibc/receive`, {
      method: "POST",
      body: JSON.stringify({
        channel: "channel-0",
        denom: "uusdc",
        amount: "7000000",
        sender: "noble1sender",
        receiver: devnet.accounts[1]!.address,
      }),
    });
    expect(received.status).toBe(200);
    expect(await received.json()).toMatchObject({ wrapped: true, creditedDenom: "uusdc" });
    expect(await capacities()).toEqual(before.map((c) => c + 7_000_000n));
  });

  it("refuses a transfer past the smallest capacity with ratelimit 1002", async () => {
    const [hourly] = await capacities();
    const sender = devnet.accounts[0]!;
    const { accountNumber, sequence } = await accountOf(devnet.endpoints.nodeRest, sender.address);
    const transfer = msg(
      ibcTransfer.MsgTransferSchema,
      create(ibcTransfer.MsgTransferSchema, {
        sourcePort: "transfer",
        sourceChannel: "channel-0",
        token: { $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: String(hourly! + 1n) },
        sender: sender.address,
        receiver: "noble1receiver",
        timeoutTimestamp: (BigInt(devnet.app.latestBlock().time.getTime()) + 3_600_000n) * 1_000_000n,
      }),
    );
    const tx = await signWire(sender.mnemonic, [transfer], {
      chainId: devnet.chainId,
      accountNumber,
      sequence,
      feeUusdc: 50_000n,
      gasLimit: 400_000n,
    });
    const checked = await broadcastSync(devnet.endpoints.nodeRpc, tx);
    expect(checked.code, checked.log).toBe(0);
    const [block] = devnet.mine(1);
    const delivered = block!.txResults.at(-1)!;
    expect([delivered.codespace, delivered.code]).toEqual(["ratelimit", 1002]);
    // The capacity at delivery: the excess of the incoming transfer decays toward the baseline
    // with block time, so it is at most the capacity read before.
    const words =
      /capacity\(index: 0\) = (\d+), amount = (\d+): withdrawal amount would exceed rate-limit capacity$/;
    const [, capacity, amount] = words.exec(delivered.log) ?? [];
    expect(delivered.log).toContain("denom = uusdc, ");
    expect(BigInt(amount ?? "0")).toBe(hourly! + 1n);
    expect(BigInt(capacity ?? "-1")).toBeLessThanOrEqual(hourly!);
  });
});
