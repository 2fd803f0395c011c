/**
 * The client side of the indexer bench, run in a worker thread so that its sockets, parsing and
 * clocks do not share the devnet's event loop (a node's clients are other processes). The source
 * is plain CommonJS evaluated by `new Worker(source, { eval: true, workerData: { wsPath } })`;
 * `wsPath` is the resolved path of the `ws` package.
 *
 * Requests (one at a time; each is answered with one message):
 * - `{ op: "subscribe", url, count, channel, id }`: opens `count` more connections that each
 *   subscribe (unbatched) and answers once every one got `subscribed`. Connections are numbered
 *   across calls, in the order they were opened (0 is the first of the first call).
 * - `{ op: "fanout", rpc, txs, inFlight, expected, timeoutMs }`: sends the txs (base64) with
 *   `broadcast_tx_sync`, `inFlight` at a time, and counts `channel_data` messages over every
 *   connection until `expected`; answers `{ received, started, lastDataAt, refusal }` (absolute
 *   times of the first send and of the last message).
 * - `{ op: "mark" }` then `{ op: "expect", count, timeoutMs }`: waits until `count` data messages
 *   arrived since the mark; `{ received, lastDataAt }`.
 * - `{ op: "checkTxDelay", rpc, orders: [{ tx, price, side }] }`: for each order in turn, the time
 *   from sending it to the first update of connection 0 that sets its price level, and to the
 *   moment every connection had its update, and the absolute send times; `{ delays, allDelays,
 *   sentAts }`.
 * - `{ op: "watch", prices: [{ price, side }] }` then `{ op: "collect", timeoutMs }`: the absolute
 *   times (`timeOrigin + now`) at which connection 0 first saw each price level set, and at which
 *   every connection had; `{ times, allTimes }`.
 * - `{ op: "rest", url, count }`: `count` sequential GETs over one keep-alive connection;
 *   `{ latencies, status }`.
 * - `{ op: "close" }`.
 */
export const INDEXER_BENCH_CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const WebSocket = require(workerData.wsPath);
const now = () => performance.timeOrigin + performance.now();
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
let sockets = [];
let dataCount = 0;
let lastDataAt = 0;
/** Level watchers of connection 0: key "side:price" -> callback. */
const watchers = new Map();
/** Level watchers of every connection: key "side:price" -> { seen: Set of connection indexes, done }. */
const allWatchers = new Map();
const levelKey = (side, price) => side + ":" + Number(price);

function onLevel(index, contents) {
  for (const side of ["bids", "asks"]) {
    for (const level of contents[side] ?? []) {
      const price = Array.isArray(level) ? level[0] : level.price;
      const size = Array.isArray(level) ? level[1] : level.size;
      if (Number(size) === 0) continue;
      const key = levelKey(side, price);
      const watcher = index === 0 ? watchers.get(key) : undefined;
      if (watcher !== undefined) { watchers.delete(key); watcher(now()); }
      const all = allWatchers.get(key);
      if (all !== undefined && !all.seen.has(index)) {
        all.seen.add(index);
        if (all.seen.size === sockets.length) { allWatchers.delete(key); all.done(now()); }
      }
    }
  }
}

function post(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => { try { resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))); } catch (e) { reject(e); } });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
const broadcast = (rpc, tx) => post(rpc, '{"jsonrpc":"2.0","id":1,"method":"broadcast_tx_sync","params":{"tx":"' + tx + '"}}');

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

function subscribe(url, count, channel, id) {
  return Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const index = sockets.length;
    sockets.push(socket);
    socket.on("error", reject);
    socket.on("open", () => socket.send(JSON.stringify({ type: "subscribe", channel, id })));
    socket.on("message", (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === "subscribed") resolve();
      else if (message.type === "channel_data" || message.type === "channel_batch_data") {
        dataCount++;
        lastDataAt = now();
        const list = message.type === "channel_batch_data" ? message.contents : [message.contents];
        for (const contents of list) onLevel(index, contents);
      } else if (message.type === "error") reject(new Error(JSON.stringify(message)));
    });
  })));
}

async function fanout({ rpc, txs, inFlight, expected, timeoutMs }) {
  const from = dataCount;
  const started = now();
  let next = 0;
  let refusal = null;
  const lane = async () => {
    while (refusal === null && next < txs.length) {
      const answer = await broadcast(rpc, txs[next++]);
      if (answer.result?.code !== 0) refusal = JSON.stringify(answer);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const deadline = started + timeoutMs;
  while (refusal === null && dataCount - from < expected && now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { received: dataCount - from, started, lastDataAt, refusal };
}

let marked = 0;
async function expectData({ count, timeoutMs }) {
  const deadline = now() + timeoutMs;
  while (dataCount - marked < count && now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { received: dataCount - marked, lastDataAt };
}

/** Promises of the moments connection 0, and every connection, first see a level set. */
function watch(side, price) {
  const key = levelKey(side, price);
  return {
    first: new Promise((resolve) => watchers.set(key, resolve)),
    all: new Promise((resolve) => allWatchers.set(key, { seen: new Set(), done: resolve })),
  };
}
const within = (promise, timeoutMs) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(undefined), timeoutMs))]);

async function checkTxDelay({ rpc, orders, timeoutMs }) {
  const delays = [];
  const allDelays = [];
  const sentAts = [];
  for (const { tx, price, side } of orders) {
    const seen = watch(side, price);
    const sentAt = now();
    const answer = await broadcast(rpc, tx);
    if (answer.result?.code !== 0) return { delays, allDelays, sentAts, refusal: JSON.stringify(answer) };
    const [at, allAt] = await Promise.all([within(seen.first, timeoutMs), within(seen.all, timeoutMs)]);
    if (at === undefined || allAt === undefined)
      return { delays, allDelays, sentAts, refusal: "no v4_orderbook update for " + side + " " + price };
    delays.push(at - sentAt);
    allDelays.push(allAt - sentAt);
    sentAts.push(sentAt);
  }
  return { delays, allDelays, sentAts, refusal: null };
}

let watched = [];
async function handle(request) {
  switch (request.op) {
    case "subscribe":
      await subscribe(request.url, request.count, request.channel, request.id);
      return { ok: true };
    case "fanout":
      return fanout(request);
    case "mark":
      marked = dataCount;
      return { ok: true };
    case "expect":
      return expectData(request);
    case "checkTxDelay":
      return checkTxDelay(request);
    case "watch":
      watched = request.prices.map(({ side, price }) => watch(side, price));
      return { ok: true };
    case "collect": {
      const timeout = new Promise((resolve) => setTimeout(() => resolve(undefined), request.timeoutMs));
      const times = await Promise.all(watched.map((p) => Promise.race([p.first, timeout])));
      const allTimes = await Promise.all(watched.map((p) => Promise.race([p.all, timeout])));
      watchers.clear();
      allWatchers.clear();
      return { times, allTimes };
    }
    case "rest": {
      const latencies = [];
      let status = 0;
      for (let i = 0; i < request.count; i++) {
        const t = performance.now();
        status = await get(request.url);
        latencies.push(performance.now() - t);
      }
      return { latencies, status };
    }
    case "close":
      for (const socket of sockets) socket.terminate();
      sockets = [];
      agent.destroy();
      return { ok: true };
  }
  throw new Error("unknown op " + request.op);
}

parentPort.on("message", (request) => {
  handle(request).then(
    (answer) => parentPort.postMessage({ answer }),
    (error) => parentPort.postMessage({ error: String(error && error.stack || error) }),
  );
});
`;
