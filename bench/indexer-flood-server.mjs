// The local flood for the order-book intake bench, in a child process so the server's sending
// shares neither the bench's thread nor its CPU time (the bench counts its own process's CPU time
// per flood): a WebSocket server speaking just enough of the indexer protocol
// (connected, subscribed with a snapshot, channel_data with per-connection message ids) that floods
// a connection, chosen by its URL path, with `v4_orderbook` updates when the bench asks.
import { WebSocketServer } from "ws";

// Deterministic updates: bids 9900..9999.5 and asks 10000.5..10100 by 0.5, absolute sizes, 1 in 5 zero.
let state = 7;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const parts = [];
for (let i = 0; i < 4096; i++) {
  const bid = random() < 0.5;
  const step = Math.floor(random() * 200) / 2;
  const price = bid ? (9999.5 - step).toString() : (10000.5 + step).toString();
  const size = random() < 0.2 ? "0" : (Math.floor(random() * 1000) / 100 + 0.01).toFixed(2);
  parts.push(`"contents":{"${bid ? "bids" : "asks"}":[["${price}","${size}"]]}}`);
}
const snapshot = {
  bids: Array.from({ length: 100 }, (_, i) => ({ price: (9999.5 - i / 2).toString(), size: "1" })),
  asks: Array.from({ length: 100 }, (_, i) => ({ price: (10000.5 + i / 2).toString(), size: "1" })),
};

const conns = new Map();
const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
wss.on("listening", () => process.send({ port: wss.address().port }));
wss.on("connection", (socket, request) => {
  const conn = { socket, messageId: 0, next: 0 };
  conns.set(request.url, conn);
  socket.send(JSON.stringify({ type: "connected", connection_id: "flood", message_id: 0 }));
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (message.type !== "subscribe") return;
    conn.messageId++;
    socket.send(
      JSON.stringify({
        type: "subscribed",
        connection_id: "flood",
        message_id: conn.messageId,
        channel: message.channel,
        id: message.id,
        contents: snapshot,
      }),
    );
  });
});

process.on("message", (request) => {
  if (request === "stop") {
    for (const conn of conns.values()) conn.socket.terminate();
    wss.close(() => process.disconnect());
    return;
  }
  const conn = conns.get(request.path);
  // One corked write per flood: the server's syscalls stay out of the clients' intake rates.
  const raw = conn.socket._socket;
  raw.cork();
  for (let i = 0; i < request.count; i++) {
    conn.messageId++;
    const part = parts[conn.next++ & 4095];
    conn.socket.send(
      `{"type":"channel_data","connection_id":"flood","message_id":${conn.messageId},"id":"BTC-USD","channel":"v4_orderbook","version":"1.0.0",${part}`,
    );
  }
  raw.uncork();
});
