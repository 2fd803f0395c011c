/**
 * batchCancel removes short-term orders only (the chain's MsgBatchCancel): the id of a stateful
 * order this client placed is refused before signing, so that order is never marked cancelled
 * while it rests, and cancelAll still cancels it.
 */
import { isInvalidArgumentError, isInvalidOrderError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { fundedWallet, reachState, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();

describe("batchCancel", () => {
  it("refuses a stateful order's id before signing; cancelAll then cancels that order", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const bid = { market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" } as const;
    const short = await client.placeOrder({ ...bid, goodTil: { blocks: 40 } });
    const long = await client.placeOrder(bid);
    await reachState(long, "RESTING");
    const signedBefore = signed.length;

    const mixed = { market: "BTC-USD", clientIds: [short.clientId, long.clientId] };
    const error = await client.batchCancel(mixed).catch((e: unknown) => e);
    expect(isInvalidOrderError(error) && error.field, String(error)).toBe("clientIds");
    expect(String(error)).toContain(String(long.clientId));
    for (const clientIds of [5, "1", [], undefined]) {
      const shape = await client
        .batchCancel({ market: "BTC-USD", clientIds } as never)
        .catch((e: unknown) => e);
      expect(isInvalidArgumentError(shape) && shape.argument, String(shape)).toBe("clientIds");
    }
    expect(signed).toHaveLength(signedBefore);

    // Both orders are still open, and cancelAll removes both.
    const cancelled = await client.cancelAll({ market: "BTC-USD" });
    expect([...(cancelled["BTC-USD"] ?? [])].sort()).toEqual([short.clientId, long.clientId].sort());
    const order = { subaccount: client.subaccount, clientId: long.clientId, clobPairId: btc.clobPairId };
    expect(
      await client.context.node.getStatefulOrder({ order: { ...order, kind: "long-term" } }),
    ).toBeUndefined();
    expect((await reachState(long, "CANCELED")).status).toBe("CANCELED");
  }, 120_000);
});
