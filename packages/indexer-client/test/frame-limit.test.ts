/**
 * `maxFrameBytes` in Node: `ws` is told the limit, so a frame over it is refused from its header,
 * before its payload is buffered, whatever its size (`ws`'s own default limit, 100 MiB, no longer
 * decides), and the refusal is an `IndexerFrameError` and a resync.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { watchOrderBook } from "../src/book/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

vi.setConfig({ testTimeout: 60_000 });

let fake: FakeIndexer;
beforeEach(async () => {
  fake = await startFakeIndexer();
});
afterEach(() => fake.stop());

const FAST = { initialDelayMs: 1, maxDelayMs: 4 };

it("a frame over ws's own 100 MiB limit is an IndexerFrameError and a resync, not a bare close", async () => {
  const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
  fake.setLevel("BTC-USD", "bids", "100", "1");
  const live = watchOrderBook(socket, { market: "BTC-USD" });
  await live.ready();
  const errors: unknown[] = [];
  const disconnects: string[] = [];
  const resyncs: string[] = [];
  socket.on("error", (error) => errors.push(error));
  socket.on("disconnect", ({ cause }) => disconnects.push(cause));
  live.on("resync", ({ reason }) => resyncs.push(reason));
  fake.sendRaw(new Uint8Array(101 * 1024 * 1024).fill(0x20));
  await vi.waitFor(() => expect(resyncs.length).toBeGreaterThan(0));
  expect(resyncs).toEqual(["gap"]);
  expect(disconnects).toEqual(["malformed"]);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ name: "IndexerFrameError", path: "" });
  expect(String(errors[0])).toMatch(/maxFrameBytes \(8388608\)/);
  await socket.close();
});
