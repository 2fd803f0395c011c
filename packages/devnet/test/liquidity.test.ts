/**
 * `startDevnet({ liquidity })` end to end: the devnet-owned maker's ladder rests in the memclob, a
 * trader's signed IOC order sent over CometBFT RPC fills against it, and the fill settles in the
 * next block's proposed operations.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx, decodeSerializableInt, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderStreamMessage } from "../src/app/contract.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

let devnet: Devnet;
let alice: TestSigner;
const stream: OrderStreamMessage[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, liquidity: { levels: 2, refreshBlocks: 1 } });
  alice = await testSigner(devnet.accounts[0]!.mnemonic, 0);
  devnet.app.control.fundSubaccount(alice.address, 0, 100_000_000_000n);
  devnet.app.onOrderStream((messages) => stream.push(...messages));
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

function btcPosition(owner: string): bigint {
  const answer = devnet.app.query(
    "/perpx.subaccounts.v1.Query/Subaccount",
    toBinary(
      subaccounts.QueryGetSubaccountRequestSchema,
      create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
    ),
  );
  const found = fromBinary(subaccounts.QuerySubaccountResponseSchema, answer.value).subaccount;
  const p = found?.perpetualPositions.find((x) => x.perpetualId === 0);
  return p === undefined ? 0n : decodeSerializableInt(p.quantums);
}

/** The orders resting in the memclob, from the order stream. */
function liveOrders(): clob.Order[] {
  const live = new Map<string, clob.Order>();
  const key = (id: clob.OrderId | undefined) =>
    `${id?.subaccountId?.owner}/${id?.clobPairId}/${id?.clientId}`;
  for (const m of stream) {
    if (m.kind === "place" || m.kind === "replace") live.set(key(m.order.orderId), m.order);
    if (m.kind === "remove") live.delete(key(m.orderId));
  }
  return [...live.values()];
}

describe("--liquidity", () => {
  it("lets a trader's IOC buy fill against the maker's ask, settled in the next block", async () => {
    const btc = liveOrders().filter((o) => o.orderId?.clobPairId === 0);
    const maker = btc[0]?.orderId?.subaccountId?.owner ?? "";
    const asks = btc.filter((o) => o.side === clob.Order_Side.SELL).map((o) => o.subticks);
    const bestAsk = [...asks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0] ?? 0n;
    expect(bestAsk > 0n).toBe(true);
    const height = Number(devnet.app.latestBlock().height);
    const order = placeMsg({
      owner: alice.address,
      clientId: 7,
      side: "buy",
      quantums: 1_000_000n,
      subticks: bestAsk,
      goodTilBlock: height + 5,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    const tx = await signMsgs(alice, devnet.chainId, 0n, [order], 0n);
    const answer = (await (
      await fetch(devnet.endpoints.nodeRpc, {
        method: "POST",
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "broadcast_tx_sync",
          params: { tx: Buffer.from(tx).toString("base64") },
        }),
      })
    ).json()) as { result: { code: number; log: string } };
    expect(answer.result.code, answer.result.log).toBe(0);
    const [block] = devnet.mine(1);
    const first = block?.txs[0];
    const body = fromBinary(
      cosmosTx.TxBodySchema,
      fromBinary(cosmosTx.TxRawSchema, first ?? new Uint8Array()).bodyBytes,
    );
    const operations = fromBinary(
      clob.MsgProposedOperationsSchema,
      body.messages[0]?.value ?? new Uint8Array(),
    );
    const matches = operations.operationsQueue.filter((op) => op.operation.case === "match");
    expect(matches).toHaveLength(1);
    expect(btcPosition(alice.address)).toBe(1_000_000n);
    expect(btcPosition(maker)).toBe(-1_000_000n);
  });

  it("keeps quoting as blocks pass: every market has bids and asks after ten blocks", () => {
    devnet.mine(10);
    for (const clobPairId of [0, 1, 2]) {
      const sides = liveOrders()
        .filter((o) => o.orderId?.clobPairId === clobPairId)
        .map((o) => o.side);
      expect(sides).toContain(clob.Order_Side.BUY);
      expect(sides).toContain(clob.Order_Side.SELL);
    }
  });

  it("shows its ladder in the indexer's order book", async () => {
    const book = (await (
      await fetch(`${devnet.endpoints.indexer}/v4/orderbooks/perpetualMarket/ETH-USD`)
    ).json()) as {
      bids: Array<{ price: string; size: string }>;
      asks: Array<{ price: string; size: string }>;
    };
    expect(book.bids.length).toBeGreaterThanOrEqual(2);
    expect(book.asks.length).toBeGreaterThanOrEqual(2);
    expect(Number(book.bids[0]?.price)).toBeLessThan(Number(book.asks[0]?.price));
  });
});
