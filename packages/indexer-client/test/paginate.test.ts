/**
 * The iterators against a local server that pages like the reference: walking back by
 * `createdBeforeOrAtHeight` yields every row once, newest first, even when a page ends in the
 * middle of a height; page iteration stops on a short page or at `totalResults`.
 */
import { isInvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndexerClient } from "../src/index.js";
import {
  ADDRESS,
  type FixtureAnswer,
  type FixtureServer,
  startFixtureServer,
} from "./support/fixture-server.js";

interface Row {
  id: string;
  createdAtHeight: string;
}

/** Rows as the server stores them, newest first: height descending, then id descending. */
function sorted(rows: Row[]): Row[] {
  return [...rows].sort(
    (a, b) => Number(b.createdAtHeight) - Number(a.createdAtHeight) || (a.id < b.id ? 1 : -1),
  );
}

/** The reference's list semantics: inclusive height bound (0 = absent), limit default 1000, `page` ascending with metadata. */
function answer(rows: Row[], url: URL): FixtureAnswer {
  const limit = Number(url.searchParams.get("limit") ?? 1000);
  const before = Number(url.searchParams.get("createdBeforeOrAtHeight") ?? 0);
  const matching = sorted(rows).filter((row) => !before || Number(row.createdAtHeight) <= before);
  const pageText = url.searchParams.get("page");
  if (pageText === null) return { body: { fills: matching.slice(0, limit) } };
  const page = Number(pageText);
  const ascending = [...matching].reverse();
  const offset = (page - 1) * limit;
  return {
    body: {
      fills: ascending.slice(offset, offset + limit),
      pageSize: limit,
      offset,
      totalResults: matching.length,
    },
  };
}

let server: FixtureServer;
let rows: Row[] = [];
beforeAll(async () => {
  server = await startFixtureServer({ "/v4/fills": (url) => answer(rows, url) });
});
afterAll(() => server.close());

const client = () => createIndexerClient({ baseUrl: server.baseUrl, retry: false });
const SUB = { owner: ADDRESS, number: 0 };

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe("walking back by height", () => {
  it("yields every row once, newest first, across page ends inside a height", async () => {
    rows = [
      { id: "a", createdAtHeight: "10" },
      { id: "b", createdAtHeight: "10" },
      { id: "c", createdAtHeight: "9" },
      { id: "d", createdAtHeight: "9" },
      { id: "e", createdAtHeight: "9" },
      { id: "f", createdAtHeight: "7" },
      { id: "g", createdAtHeight: "3" },
    ];
    server.requests.length = 0;
    const got = await collect(client().iterateFills({ ...SUB, limit: 3 }));
    expect(got.map((row) => row.id)).toEqual(sorted(rows).map((row) => row.id));
    // Height 9 fills the second page, so it is asked again with the largest page, which ends the walk.
    expect(
      server.requests.map((r) => [r.query.get("createdBeforeOrAtHeight"), r.query.get("limit")]),
    ).toEqual([
      [null, "3"],
      ["9", "3"],
      ["9", "3"],
      ["9", "1000"],
    ]);
  });

  it("starts at the caller's height", async () => {
    rows = [
      { id: "a", createdAtHeight: "10" },
      { id: "b", createdAtHeight: "5" },
    ];
    const got = await collect(client().iterateFills({ ...SUB, createdBeforeOrAtHeight: 6 }));
    expect(got.map((row) => row.id)).toEqual(["b"]);
  });

  it("asks a crowded height again with the largest page", async () => {
    rows = [1, 2, 3, 4, 5].map((i) => ({ id: `x${i}`, createdAtHeight: "8" }));
    rows.push({ id: "y", createdAtHeight: "2" });
    server.requests.length = 0;
    const got = await collect(client().iterateFills({ ...SUB, limit: 2 }));
    expect(got.map((row) => row.id)).toEqual(sorted(rows).map((row) => row.id));
    expect(server.requests.map((r) => r.query.get("limit"))).toEqual(["2", "2", "1000"]);
  });

  it("fails rather than skip rows when more than 1000 rows share a height", async () => {
    rows = Array.from({ length: 1001 }, (_, i) => ({
      id: `z${String(i).padStart(4, "0")}`,
      createdAtHeight: "8",
    }));
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const row of client().iterateFills({ ...SUB, limit: 1000 })) seen.push(row.id);
    } catch (caught) {
      error = caught;
    }
    expect(seen).toHaveLength(1000);
    expect(isInvalidArgumentError(error) && error.argument).toBe("limit");
  });

  it("never repeats or loses a row, whatever the heights and the limit (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (heights, limit) => {
          rows = heights.map((height, i) => ({
            id: `r${String(i).padStart(3, "0")}`,
            createdAtHeight: String(height),
          }));
          const perHeight = new Map<string, number>();
          for (const row of rows)
            perHeight.set(row.createdAtHeight, (perHeight.get(row.createdAtHeight) ?? 0) + 1);
          const crowded = [...perHeight.values()].some((count) => count >= limit);
          try {
            const got = await collect(client().iterateFills({ ...SUB, limit }));
            expect(got.map((row) => row.id)).toEqual(sorted(rows).map((row) => row.id));
          } catch (error) {
            expect(crowded && isInvalidArgumentError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("page by page", () => {
  it("walks pages until totalResults, oldest first as the server pages", async () => {
    rows = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, createdAtHeight: String(i + 1) }));
    server.requests.length = 0;
    const pages = await collect(client().iterateFillPages({ ...SUB, limit: 3 }));
    expect(pages.map((page) => page.fills.map((row) => row.id))).toEqual([
      ["p0", "p1", "p2"],
      ["p3", "p4", "p5"],
      ["p6"],
    ]);
    expect(server.requests.map((r) => r.query.get("page"))).toEqual(["1", "2", "3"]);
  });

  it("stops on an exactly full last page by totalResults, and starts at firstPage", async () => {
    rows = Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, createdAtHeight: String(i + 1) }));
    server.requests.length = 0;
    const pages = await collect(client().iterateFillPages({ ...SUB, limit: 3 }));
    expect(pages).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    const later = await collect(client().iterateFillPages({ ...SUB, limit: 3, firstPage: 2 }));
    expect(later.map((page) => page.offset)).toEqual([3]);
  });
});
