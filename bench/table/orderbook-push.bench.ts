/**
 * Block commit to the `v4_orderbook` push, at 100 subscribers: each round rests an ask with a
 * good-til-block one block ahead, then mines until the block whose commit removes it; the clock runs
 * from the block's `committedAt` (the app's commit moment) to the update's arrival at the first and at
 * the last of 100 WebSocket subscribers (in a client thread). The floor: a bare `ws` server that
 * sends one message of the same shape to 100 clients (the same thread), timed from its first `send`.
 * Rounds interleaved; p99 over the rounds.
 * Run alone: `npx vitest bench --run --project bench table/orderbook-push`.
 */
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { bench, describe } from "vitest";
import { fundedSigner, signOrderTx } from "../../packages/devnet/test/support/fast-order.js";
import { fmt, interleave, ONE_CALL, once, QUICK, quantile, report } from "./harness.js";
import { GENESIS_ACCOUNTS, startOrderFlow } from "./order-flow.js";

const SUBSCRIBERS = 100;
const require = createRequire(import.meta.url);
const WS = require.resolve("ws");
/** The part of `ws`'s server the floor uses (the package ships no types). */
interface BareServer {
  clients: Set<{ send(data: string): void }>;
  address(): AddressInfo;
  once(event: "listening", listener: () => void): void;
  close(): void;
}
const { WebSocketServer } = require("ws") as {
  WebSocketServer: new (options: { host: string; port: number }) => BareServer;
};

/**
 * The subscribers: `connect` opens them on a URL (subscribing to BTC-USD's book when asked); `arm`
 * resolves with the arrival times (epoch ms, fractional) of the next `channel_data` at every one.
 */
const CLIENTS_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { performance } = require("node:perf_hooks");
const WebSocket = require(${JSON.stringify(WS)});
let sockets = [];
let armed = null;
parentPort.on("message", async (m) => {
  if (m.connect) {
    sockets = await Promise.all(Array.from({ length: m.count }, () => new Promise((resolve, reject) => {
      const socket = new WebSocket(m.connect);
      socket.on("error", reject);
      if (!m.subscribe) socket.on("open", () => resolve(socket));
      socket.on("message", (data) => {
        const message = JSON.parse(String(data));
        if (message.type === "connected" && m.subscribe) {
          socket.send(JSON.stringify({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" }));
        } else if (message.type === "subscribed") {
          resolve(socket);
        } else if (message.type === "channel_data" && armed !== null && armed.times[socket.index] === undefined) {
          armed.times[socket.index] = performance.timeOrigin + performance.now();
          if (++armed.count === sockets.length) { const done = armed; armed = null; parentPort.postMessage(done.times); }
        }
      });
    })));
    sockets.forEach((s, i) => { s.index = i; });
    parentPort.postMessage("connected");
  } else if (m.arm) {
    armed = { count: 0, times: new Array(sockets.length) };
    parentPort.postMessage("armed");
  } else if (m.close) {
    for (const s of sockets) s.terminate();
    parentPort.postMessage("closed");
  }
});
`;

function clients() {
  const worker = new Worker(CLIENTS_SOURCE, { eval: true });
  const ask = <T>(message: object) =>
    new Promise<T>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.postMessage(message);
    });
  return {
    connect: (url: string, subscribe: boolean) =>
      ask<string>({ connect: url, count: SUBSCRIBERS, subscribe }),
    /** Arms the clients; `arrivals` then resolves with the next message's arrival times. */
    async arm(): Promise<{ arrivals: Promise<number[]> }> {
      const arrivals = new Promise<number[]>((resolve) => {
        const listen = (message: unknown) => {
          if (Array.isArray(message)) resolve(message as number[]);
          else worker.once("message", listen);
        };
        worker.once("message", listen);
      });
      await new Promise<void>((resolve) => {
        worker.once("message", () => resolve());
        worker.postMessage({ arm: true });
      });
      return { arrivals };
    },
    close: async () => {
      await ask({ close: true });
      await worker.terminate();
    },
  };
}

describe("block commit to the v4_orderbook push vs a bare ws fan-out", () => {
  bench(
    "commit to push at 100 subscribers (interleaved with a bare ws fan-out)",
    once(async () => {
      const rounds = QUICK ? 15 : 50;
      const flow = await startOrderFlow();
      const { devnet } = flow;
      const maker = fundedSigner(0, GENESIS_ACCOUNTS.length);
      const commits: number[] = [];
      const off = devnet.app.onBlock((_block, at) => {
        commits.push(at);
      });
      const ours = clients();
      await ours.connect(devnet.endpoints.indexerWs, true);
      const floorServer = new WebSocketServer({ host: "127.0.0.1", port: 0 });
      await new Promise<void>((resolve) => floorServer.once("listening", resolve));
      const bare = clients();
      await bare.connect(`ws://127.0.0.1:${floorServer.address().port}`, false);
      // A level update as the indexer sends it, for the floor to fan out.
      const sample = JSON.stringify({
        type: "channel_data",
        connection_id: "00000000-0000-4000-8000-000000000000",
        message_id: 1,
        id: "BTC-USD",
        channel: "v4_orderbook",
        version: "1.0.0",
        contents: { asks: [["66000", "0"]] },
      });
      let clientId = 1;
      const first = { ours: [] as number[], floor: [] as number[] };
      const all = { ours: [] as number[], floor: [] as number[] };
      const record = (lane: "ours" | "floor", start: number, times: number[]) => {
        first[lane].push(Math.min(...times) - start);
        all[lane].push(Math.max(...times) - start);
      };
      try {
        await interleave(rounds, {
          ours: async () => {
            const height = Number(devnet.app.latestBlock().height);
            const placed = await ours.arm();
            const tx = signOrderTx(maker, devnet.chainId, {
              owner: maker.address,
              clientId: clientId++,
              side: "sell",
              quantums: 1_000_000n,
              subticks: 6_600_000_000n + BigInt(clientId) * 100_000n,
              goodTilBlock: height + 1,
            });
            const result = devnet.app.checkTx(tx);
            if (result.code !== 0) throw new Error(`the ask was refused: ${result.log}`);
            await placed.arrivals;
            const removed = await ours.arm();
            let times: number[] | undefined;
            for (let blocks = 0; times === undefined; blocks++) {
              if (blocks === 5) throw new Error("no block removed the expired ask");
              devnet.mine(1);
              // A state, not a time: the next block is mined only if this one pushed nothing yet.
              times = await Promise.race([
                removed.arrivals,
                new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000)),
              ]);
            }
            // The commit the push came from: the last one before its first arrival.
            const arrived = Math.min(...times);
            const commit = commits.filter((at) => at <= arrived).at(-1) as number;
            record("ours", commit, await removed.arrivals);
            return 0;
          },
          floor: async () => {
            const sent = await bare.arm();
            const start = performance.timeOrigin + performance.now();
            for (const socket of floorServer.clients) socket.send(sample);
            record("floor", start, await sent.arrivals);
            return 0;
          },
        });
        const p99 = (values: number[]) => quantile(values, 0.99);
        for (const [id, label, lane, goal] of [
          ["4a-push-first", "block commit -> v4_orderbook push p99, first subscriber", first, 20],
          ["4b-push-all", "block commit -> v4_orderbook push p99, all 100", all, 30],
        ] as const) {
          const ratio = p99(lane.ours) / p99(lane.floor);
          report({
            id,
            metric: label,
            floor: `${fmt(p99(lane.floor), "ms")} (bare ws fan-out)`,
            ours: fmt(p99(lane.ours), "ms"),
            ratio: `${ratio.toFixed(2)}x`,
            goal: `<= ${goal} ms`,
            met: p99(lane.ours) <= goal,
            note: `${rounds} interleaved rounds; medians ours ${fmt(quantile(lane.ours, 0.5), "ms")}, floor ${fmt(quantile(lane.floor, 0.5), "ms")}`,
          });
        }
      } finally {
        off();
        await ours.close();
        await bare.close();
        floorServer.close();
        await devnet.stop();
      }
    }),
    ONE_CALL,
  );
});
