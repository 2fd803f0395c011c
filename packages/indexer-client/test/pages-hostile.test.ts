/**
 * Page iteration (`iterate*Pages`) against servers that break the paging contract: one that
 * ignores `page` (with or without metadata), cycles through a few pages, shuffles one page, or
 * sends metadata that is not numbers of their range must end the walk (with an
 * `IndexerDecodeError`), never page forever; an honest server without metadata, and a newest-first
 * list that moves by exactly a page between two requests, still page to the end.
 */
import { expect, it } from "vitest";
import { createIndexerClient, createStaticFetch } from "../src/index.js";
import { ADDRESS } from "./support/fixture-server.js";

const SUB = { owner: ADDRESS, number: 0 };
const LIMIT = 2;

interface Row {
  id: string;
  createdAtHeight: string;
}

const row = (i: number): Row => ({ id: `r${i}`, createdAtHeight: String(100 - i) });

/** A client whose `/v4/fills` answers `body(page, call)`; `calls` counts the requests. */
function clientAnswering(body: (page: number, call: number) => unknown) {
  const state = { calls: 0 };
  const client = createIndexerClient({
    baseUrl: "http://indexer.test",
    retry: false,
    fetch: createStaticFetch({
      "/v4/fills": (url) => {
        state.calls++;
        return Response.json(body(Number(url.searchParams.get("page")), state.calls));
      },
    }),
  });
  return { client, state };
}

/** Up to `max` pages (their row ids), then the error that ended the walk, if any. */
async function pagesOf(client: ReturnType<typeof clientAnswering>["client"], max = 50) {
  const pages: string[][] = [];
  try {
    for await (const page of client.iterateFillPages({ ...SUB, limit: LIMIT })) {
      pages.push(page.fills.map((fill) => fill.id));
      if (pages.length >= max) break;
    }
  } catch (error) {
    return { pages, error };
  }
  return { pages, error: undefined };
}

it("a server that ignores page and sends no metadata: the page is yielded once, then the walk fails", async () => {
  const { client, state } = clientAnswering(() => ({ fills: [row(0), row(1)] }));
  const { pages, error } = await pagesOf(client);
  expect(pages).toEqual([["r0", "r1"]]);
  expect(error).toMatchObject({ name: "IndexerDecodeError" });
  expect(String(error)).toMatch(/ignored page/);
  expect(state.calls).toBe(3);
});

it("a server that ignores page but sends metadata (offset 0, a large total) fails on page 2", async () => {
  const { client, state } = clientAnswering(() => ({
    fills: [row(0), row(1)],
    pageSize: LIMIT,
    offset: 0,
    totalResults: 1_000_000,
  }));
  const { pages, error } = await pagesOf(client);
  expect(pages).toEqual([["r0", "r1"]]);
  expect(error).toMatchObject({ name: "IndexerDecodeError" });
  expect(String(error)).toMatch(/offset 0, not 2/);
  expect(state.calls).toBe(2);
});

it("a server cycling through two pages, or shuffling one, ends the walk", async () => {
  const cycle = clientAnswering((page) => ({ fills: page % 2 ? [row(0), row(1)] : [row(2), row(3)] }));
  const cycled = await pagesOf(cycle.client);
  expect(cycled.pages).toEqual([
    ["r0", "r1"],
    ["r2", "r3"],
  ]);
  expect(cycled.error).toMatchObject({ name: "IndexerDecodeError" });

  const shuffle = clientAnswering((page) => ({ fills: page % 2 ? [row(0), row(1)] : [row(1), row(0)] }));
  const shuffled = await pagesOf(shuffle.client);
  expect(shuffled.pages).toEqual([["r0", "r1"]]);
  expect(shuffled.error).toMatchObject({ name: "IndexerDecodeError" });
});

it("metadata that is not a number of its range, or rows that are not a list, is an IndexerDecodeError", async () => {
  const rows = [row(0), row(1)];
  for (const body of [
    { fills: rows, pageSize: 0 },
    { fills: rows, pageSize: -2 },
    { fills: rows, pageSize: "2" },
    { fills: rows, pageSize: 1001 },
    { fills: rows, pageSize: 2.5 },
    { fills: rows, offset: "x" },
    { fills: rows, offset: -1 },
    { fills: rows, totalResults: null },
    { fills: rows, totalResults: 1e300 },
    {},
    { fills: "none" },
  ]) {
    const { client, state } = clientAnswering(() => body);
    const { pages, error } = await pagesOf(client);
    expect(error, JSON.stringify(body)).toMatchObject({ name: "IndexerDecodeError" });
    expect(pages, JSON.stringify(body)).toEqual([]);
    expect(state.calls).toBe(1);
  }
});

it("an honest server without metadata pages to its short page", async () => {
  const all = [0, 1, 2, 3, 4].map(row);
  const { client, state } = clientAnswering((page) => ({
    fills: all.slice((page - 1) * LIMIT, page * LIMIT),
  }));
  const { pages, error } = await pagesOf(client);
  expect(error).toBeUndefined();
  expect(pages).toEqual([["r0", "r1"], ["r2", "r3"], ["r4"]]);
  expect(state.calls).toBe(3);
});

it("a newest-first list that moves by exactly a page between two requests: each row it held once, no error", async () => {
  // Rows newest first; two new rows arrive between the first and the second request.
  let list = [2, 3, 4, 5, 6].map(row);
  const { client } = clientAnswering((page, call) => {
    if (call === 2) list = [row(0), row(1), ...list];
    const offset = (page - 1) * LIMIT;
    return {
      fills: list.slice(offset, offset + LIMIT),
      pageSize: LIMIT,
      offset,
      totalResults: list.length,
    };
  });
  const { pages, error } = await pagesOf(client);
  expect(error).toBeUndefined();
  // Page 2 held page 1's rows again (not yielded); page 3 went on where page 1 ended.
  expect(pages).toEqual([["r2", "r3"], ["r4", "r5"], ["r6"]]);
});
