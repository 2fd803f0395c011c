/**
 * Walking back by height against answers that break the contract: a server that ignores
 * `createdBeforeOrAtHeight` (an old indexer, a proxy that drops the query) must not make the
 * iterator yield the same rows again and again, and a page without its list or with a height that
 * is not a height is an `IndexerDecodeError`, not a `TypeError` from inside the iterator.
 */
import { isPerpxError } from "@perpx/errors";
import { expect, it } from "vitest";
import { createIndexerClient, createStaticFetch } from "../src/index.js";
import { ADDRESS } from "./support/fixture-server.js";

const SUB = { owner: ADDRESS, number: 0 };

/** Up to `max` rows of an iteration, then the error that ended it (if any). */
async function walk(
  rows: AsyncIterable<{ id: string }>,
  max = 20,
): Promise<{ ids: string[]; error?: unknown }> {
  const ids: string[] = [];
  try {
    for await (const row of rows) {
      ids.push(row.id);
      if (ids.length >= max) break;
    }
  } catch (error) {
    return { ids, error };
  }
  return { ids };
}

function clientAnswering(body: unknown) {
  return createIndexerClient({
    baseUrl: "http://indexer.test",
    retry: false,
    fetch: createStaticFetch({ "/v4/fills": () => Response.json(body) }),
  });
}

it("a server that ignores the height cursor: no row is yielded twice, the walk fails", async () => {
  // Always the same full page, whatever createdBeforeOrAtHeight says.
  const client = clientAnswering({
    fills: [
      { id: "a", createdAtHeight: "10" },
      { id: "b", createdAtHeight: "9" },
    ],
  });
  const { ids, error } = await walk(client.iterateFills({ ...SUB, limit: 2 }));
  expect(ids).toEqual(["a", "b"]);
  expect(error).toMatchObject({ name: "IndexerDecodeError" });
  expect(String(error)).toMatch(/createdBeforeOrAtHeight/);
});

it("a page without its list, or with a height that is not one, is an IndexerDecodeError", async () => {
  for (const body of [
    {},
    { fills: "none" },
    { fills: [{ id: "a", createdAtHeight: "ten" }] },
    { fills: [{ id: "a" }] },
  ]) {
    const { error } = await walk(clientAnswering(body).iterateFills({ ...SUB, limit: 1 }));
    expect(isPerpxError(error), `${JSON.stringify(body)}: ${String(error)}`).toBe(true);
    expect(error).toMatchObject({ name: "IndexerDecodeError" });
  }
});
