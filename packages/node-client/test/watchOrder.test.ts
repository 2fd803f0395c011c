import { create, toBinary } from "@bufbuild/protobuf";
import { isInvalidArgumentError } from "@perpx/errors";
import { cosmosTx } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { watchShortTermOrder } from "../src/index.js";
import { fillsOf, proposedOperations } from "../src/tx.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

describe("following a short-term order from the node alone", () => {
  it("returns at CheckTx even in commit mode, then finds the fill as taker and as maker in a block's proposed operations", async () => {
    const [maker, taker] = [net.wallets[0]!, net.wallets[1]!];
    for (const wallet of [maker, taker]) {
      await net.client.depositToSubaccount({
        signer: wallet,
        sender: wallet.address,
        recipient: { owner: wallet.address, number: 0 },
        quantums: 1_000_000_000n,
      });
    }
    const goodTilBlock = Number((await net.client.getLatestBlock()).height) + 20;
    const order = {
      clobPairId: 0,
      quantums: 2_000_000n,
      subticks: 6_000_000_000n,
      kind: "short-term",
      goodTilBlock,
    } as const;
    const resting = await net.client.placeOrder({
      signer: maker,
      subaccount: { owner: maker.address, number: 0 },
      clientId: 71,
      side: "SELL",
      ...order,
      tx: { broadcastMode: "commit" },
    });
    expect([resting.shortTerm, resting.mode, resting.height]).toEqual([true, "sync", undefined]);
    const taking = await net.client.placeOrder({
      signer: taker,
      subaccount: { owner: taker.address, number: 0 },
      clientId: 72,
      side: "BUY",
      timeInForce: "IOC",
      ...order,
      quantums: 1_000_000n,
    });
    const asTaker = await watchShortTermOrder(net.client, {
      orderId: taking.orderId!,
      goodTilBlock,
      quantums: 1_000_000n,
      fromHeight: taking.latestHeight! + 1n,
      pollIntervalMs: 20,
    });
    expect(asTaker.totalFilled).toBe(1_000_000n);
    expect(asTaker.fills.map((f) => [f.role, f.quantums, f.counterparty.clientId])).toEqual([
      ["taker", 1_000_000n, 71],
    ]);
    expect(asTaker.lastHeight).toBe(asTaker.fills[0]!.height);
    // The maker's view up to that block: half of its order filled, as maker (the client's method).
    const asMaker = await net.client.watchShortTermOrder({
      orderId: resting.orderId!,
      goodTilBlock: asTaker.fills[0]!.height,
      fromHeight: resting.latestHeight! + 1n,
    });
    expect(asMaker.fills.map((f) => [f.role, f.quantums, f.counterparty.clientId])).toEqual([
      ["maker", 1_000_000n, 72],
    ]);
    expect(asMaker.totalFilled).toBe(1_000_000n);
    expect(asMaker.lastHeight).toBe(asTaker.fills[0]!.height);
    // Nothing of it is a tx of its own.
    expect(await net.client.getTx({ hash: taking.hash })).toBeUndefined();
  });

  it("refuses a bad order id or height before asking the node", async () => {
    const orderId = {
      subaccountId: { owner: net.wallets[0]!.address, number: 0 },
      clientId: 1,
      orderFlags: 0,
      clobPairId: 0,
    };
    const refusal = (params: unknown) =>
      net.client
        .watchShortTermOrder(params as Parameters<typeof watchShortTermOrder>[1])
        .catch((e: unknown) => e);
    for (const [params, argument] of [
      [{ goodTilBlock: 10 }, "orderId"],
      [{ orderId, goodTilBlock: -1 }, "goodTilBlock"],
      [{ orderId, goodTilBlock: 10, fromHeight: -2n }, "fromHeight"],
    ] as const) {
      const error = await refusal(params);
      expect(isInvalidArgumentError(error), String(error)).toBe(true);
      expect((error as Error).message).toContain(argument);
    }
  });

  it("reads a block's operations only from a proposed-operations tx; other orders' fills are not this order's", () => {
    const bank = toBinary(
      cosmosTx.TxRawSchema,
      create(cosmosTx.TxRawSchema, {
        bodyBytes: toBinary(
          cosmosTx.TxBodySchema,
          create(cosmosTx.TxBodySchema, {
            messages: [
              {
                $typeName: "google.protobuf.Any",
                typeUrl: "/cosmos.bank.v1beta1.MsgSend",
                value: new Uint8Array(),
              },
            ],
          }),
        ),
      }),
    );
    expect(proposedOperations(bank)).toBeUndefined();
    expect(proposedOperations(new Uint8Array([1, 2, 3]))).toBeUndefined();
    const empty = fillsOf(
      { $typeName: "perpx.clob.v1.MsgProposedOperations", operationsQueue: [] },
      { $typeName: "perpx.clob.v1.OrderId", clientId: 1, orderFlags: 0, clobPairId: 0 },
      1n,
    );
    expect(empty).toEqual([]);
  });
});
