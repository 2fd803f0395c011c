/**
 * A child process for the "nothing leaks on stop" test: starts the indexer WebSocket server over a
 * fake feed, connects clients (one subscribed and batched with a batch pending, one mid-snapshot,
 * one that never answers pings), stops the server and closes the clients, then prints `stopped` and
 * lets the event loop drain. The process must exit on its own: any timer, socket or listener left
 * behind keeps it alive.
 */
import WebSocket from "ws";
import { startIndexerWsServer } from "../../src/indexer/ws/server.js";
import { bookUpdate, FakeFeed } from "./indexer-ws.js";

const feed = new FakeFeed().set("v4_orderbook", "BTC-USD", {
  kind: "snapshot",
  contents: { bids: [], asks: [] },
});
const server = await startIndexerWsServer({ feed, port: 0, pingIntervalMs: 10, pongTimeoutMs: 60_000 });

function open(options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const socket = new WebSocket(server.url, options);
  return new Promise((resolve, reject) => {
    socket.once("message", () => resolve(socket));
    socket.once("error", reject);
  });
}
function nextFrame(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => socket.once("message", (data) => resolve(data.toString())));
}

const batched = await open();
batched.send(JSON.stringify({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true }));
await nextFrame(batched);
feed.push(bookUpdate("BTC-USD", "1", "1"));

const silent = await open({ autoPong: false });
const pending = await open();
feed.hold = true;
pending.send(JSON.stringify({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" }));
while (feed.heldCount === 0) await new Promise((resolve) => setImmediate(resolve));

const closed = [batched, silent, pending].map(
  (socket) => new Promise((resolve) => socket.once("close", (code) => resolve(code))),
);
await server.close();
const codes = await Promise.all(closed);
feed.release();
process.stdout.write(
  `stopped ${JSON.stringify({ codes, listeners: feed.listenerCount, connections: server.connectionCount, topics: server.topicCount })}\n`,
);
