/**
 * Order-book intake on one local flood of `v4_orderbook` updates (one level per message, absolute
 * sizes, as the indexer sends them), in one run:
 * - `@perpx/indexer-client`: `watchOrderBook` over `connectIndexerSocket`, so every message is
 *   parsed, checked for `message_id` gaps, routed to its subscription and applied to a maintained
 *   book (sorted levels, exact decimal keys);
 * - the incumbent `@dydxprotocol/v4-client-js` `SocketClient`, handing each raw message to a
 *   callback that only `JSON.parse`s it (its raw intake: it keeps no book);
 * - the book alone, in-process: `JSON.parse` then `OrderBook.applyUpdate`, no socket.
 * The flood server runs in a child process. Each call floods 2,000 messages and waits for the last;
 * the summary prints messages per second of wall time and per second of this process's CPU time
 * (steadier when other processes share the cores), and ours / incumbent for both (goal >= 1). Both
 * clients are built JavaScript loaded by Node: ours from `dist/` (run `pnpm build` first, as for the
 * cold-import bench).
 * Run: `pnpm bench` (or `npx vitest bench --run --project bench indexer-orderbook`).
 */
import { fork } from "node:child_process";
import { createRequire } from "node:module";
import { IndexerConfig, SocketClient } from "@dydxprotocol/v4-client-js";
import type * as IndexerClient from "@perpx/indexer-client";
import { afterAll, bench, describe } from "vitest";
import { Timings } from "./timings.js";

const FLOOD = 2_000;
const require = createRequire(import.meta.url);
// The built package (`pnpm build` first), loaded by Node as users load it, like the incumbent: the
// test runner's source transform (every import a property lookup) stays out of the figures.
const { connectIndexerSocket, OrderBook, watchOrderBook } =
  require("@perpx/indexer-client") as typeof IndexerClient;
const server = fork(new URL("./indexer-flood-server.mjs", import.meta.url), { stdio: "inherit" });
const { port } = await new Promise<{ port: number }>((resolve) =>
  server.once("message", (message) => resolve(message as { port: number })),
);
const url = `ws://127.0.0.1:${port}`;

/** Messages received per client, and who waits for a count. */
const received = { perpx: 0, incumbent: 0 };
const waiters: { perpx?: () => void; incumbent?: () => void } = {};
let target = 0;
function arrived(who: "perpx" | "incumbent"): void {
  if (++received[who] === target) waiters[who]?.();
}
function flood(who: "perpx" | "incumbent"): Promise<void> {
  return new Promise((resolve) => {
    target = received[who] + FLOOD;
    waiters[who] = resolve;
    server.send({ path: `/${who}`, count: FLOOD });
  });
}

// Ours: the maintained book.
const socket = await connectIndexerSocket({ url: `${url}/perpx` });
const live = watchOrderBook(socket, { market: "BTC-USD" });
await live.ready();
live.on("change", ({ cause }) => cause === "update" && arrived("perpx"));

// The incumbent: raw messages to a callback that parses them.
const incumbent = await new Promise<SocketClient>((resolve) => {
  const client: SocketClient = new SocketClient(
    new IndexerConfig("http://127.0.0.1:1", `${url}/incumbent`),
    () => resolve(client),
    () => {},
    (event) => {
      const message = JSON.parse(String(event.data)) as { type: string };
      if (message.type === "channel_data") arrived("incumbent");
    },
    () => {},
  );
  client.connect();
});

// The book alone: the same update frames, parsed and applied in-process.
const frames: string[] = [];
for (let i = 0; i < 4096; i++) {
  const bid = i % 2 === 0;
  const price = bid ? (9999.5 - (i % 200) / 2).toString() : (10000.5 + (i % 200) / 2).toString();
  const size = i % 5 === 0 ? "0" : ((i % 997) / 100 + 0.01).toFixed(2);
  frames.push(
    `{"type":"channel_data","connection_id":"x","message_id":${i + 1},"id":"BTC-USD","channel":"v4_orderbook","version":"1.0.0","contents":{"${bid ? "bids" : "asks"}":[["${price}","${size}"]]}}`,
  );
}
const offline = new OrderBook();
let cursor = 0;
function applyOffline(): void {
  for (let i = 0; i < FLOOD; i++) {
    const frame = JSON.parse(frames[cursor++ & 4095] as string) as {
      contents: { bids?: [string, string][] };
    };
    offline.applyUpdate(frame.contents);
  }
}

const timings = new Timings(3);
/** This process's CPU time (user + system), ms: the flood server is another process. */
const cpuTimings = new Timings(3, () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
});
const options = { time: 6_000, warmupIterations: 3 };

describe(`order-book intake, ${FLOOD} messages per call`, () => {
  // Interleaved, so both clients see the same machine load (a shared, busy machine drifts).
  const perpx = timings.async(
    "perpx book",
    cpuTimings.async("perpx book", () => flood("perpx")),
  );
  const raw = timings.async(
    "incumbent raw",
    cpuTimings.async("incumbent raw", () => flood("incumbent")),
  );
  bench(
    "perpx book + incumbent raw, interleaved",
    async () => {
      await perpx();
      await raw();
    },
    options,
  );
  bench("book in-process", timings.sync("book in-process", applyOffline), options);
});

afterAll(async () => {
  const perMessage = (of: Timings, name: string) =>
    Math.round(FLOOD * of.rate(name))
      .toLocaleString("en-US")
      .padStart(10);
  const lines = [
    "",
    `order-book intake (messages per second of wall time / of this process's CPU time, median of calls of ${FLOOD}):`,
  ];
  for (const name of ["perpx book", "incumbent raw", "book in-process"]) {
    const cpu = name === "book in-process" ? "" : ` ${perMessage(cpuTimings, name)} msgs/cpu-s`;
    lines.push(`  ${name.padEnd(16)} ${perMessage(timings, name)} msgs/s${cpu}`);
  }
  const ratio = (of: Timings) => (of.rate("perpx book") / of.rate("incumbent raw")).toFixed(2);
  lines.push(`  perpx book / incumbent raw, wall time      ${ratio(timings)}x  (goal >= 1)`);
  lines.push(`  perpx book / incumbent raw, CPU time       ${ratio(cpuTimings)}x  (goal >= 1)`);
  lines.push(
    `  book levels at the end: ${live.book.depth("bids").length} bids, ${live.book.depth("asks").length} asks`,
  );
  console.log(lines.join("\n"));
  incumbent.close();
  await socket.close();
  server.send("stop");
});
