/**
 * The incumbent's socket client (`@dydxprotocol/v4-client-js` `SocketClient`, unchanged) against the
 * devnet's indexer WebSocket: it connects to `endpoints.indexerWs`, gets `connected`, subscribes
 * with its own helpers (batched markets and order book, unbatched block height) and receives the
 * snapshots and a batched update, as it would from the public indexer.
 */
import { IndexerConfig, SocketClient } from "@dydxprotocol/v4-client-js";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { afterAll, beforeAll, expect, it } from "vitest";

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.mine(1);
});
afterAll(async () => {
  await devnet?.stop();
});

it("SocketClient connects, subscribes with its helpers and receives snapshots and batches", async () => {
  const frames: Array<Record<string, unknown>> = [];
  let opened = false;
  let closed = false;
  const socket = new SocketClient(
    new IndexerConfig(devnet.endpoints.indexer, devnet.endpoints.indexerWs),
    () => {
      opened = true;
    },
    () => {
      closed = true;
    },
    (event) => frames.push(JSON.parse(String(event.data))),
    () => undefined,
  );
  socket.connect();
  await expect.poll(() => opened).toBe(true);
  await expect.poll(() => frames[0]?.type).toBe("connected");
  socket.subscribeToMarkets();
  socket.subscribeToOrderbook("BTC-USD");
  socket.subscribe("v4_block_height");
  await expect.poll(() => frames.filter((f) => f.type === "subscribed").length).toBe(3);
  const [markets, book, height] = frames.filter((f) => f.type === "subscribed");
  expect(markets).toMatchObject({ channel: "v4_markets", message_id: 1 });
  expect((markets as { contents: { markets: object } }).contents.markets).toHaveProperty("BTC-USD");
  expect(book).toMatchObject({ channel: "v4_orderbook", id: "BTC-USD", contents: { bids: [], asks: [] } });
  expect(height).toMatchObject({
    channel: "v4_block_height",
    contents: { height: String(devnet.app.latestBlock().height) },
  });

  devnet.app.control.setOraclePrice("BTC-USD", "70000");
  devnet.mine(1);
  await expect
    .poll(() => frames.some((f) => f.type === "channel_batch_data" && f.channel === "v4_markets"), {
      timeout: 10_000,
    })
    .toBe(true);
  await expect
    .poll(() => frames.some((f) => f.type === "channel_data" && f.channel === "v4_block_height"))
    .toBe(true);
  socket.close();
  await expect.poll(() => closed).toBe(true);
});
