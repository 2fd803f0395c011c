/**
 * Lists as async iterators: page by page (`page` = 1, 2, ...), or walking back in time by
 * `createdBeforeOrAtHeight` until a page comes back shorter than `limit`, without repeating the
 * rows of the boundary height.
 */
import { INDEXER_LIMIT_DEFAULT, INDEXER_LIMIT_MAX, type PageMetadata } from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import { IndexerDecodeError } from "../errors.js";
import type { IndexerConnection } from "./connection.js";
import type { HeightInput } from "./validate.js";

type PagedAction<P, R> = (client: IndexerConnection, params: P) => Promise<R>;

/**
 * Params of a page-by-page iteration: the action's params without `page`, plus where to start.
 *
 * @example
 * ```ts
 * const params: PageIterationParams<{ limit?: number; page?: number }> = { limit: 100, firstPage: 3 };
 * ```
 */
export type PageIterationParams<P> = Omit<P, "page"> & {
  /**
   * The first page to fetch.
   * @default 1
   */
  readonly firstPage?: number;
};

/** Two 32-bit FNV-1a lanes (different offsets and primes) over a text, as one key. */
function textKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`;
}

/** A key of a page's rows that does not depend on their order: pages holding the same rows share it. */
function pageKey(rows: readonly unknown[]): string {
  return textKey(
    rows
      .map((row) => JSON.stringify(row) ?? "undefined")
      .sort()
      .join("\n"),
  );
}

/**
 * The page metadata of one answer, checked: each present field a JSON number of its range, and
 * `offset` the one of the page asked for.
 *
 * @throws IndexerDecodeError naming the field.
 */
function checkPaging(
  client: IndexerConnection,
  answer: PageMetadata,
  page: number,
): { pageSize: number | undefined; offset: number | undefined; totalResults: number | undefined } {
  const refuse = (problem: string) => new IndexerDecodeError(client.baseUrl, problem);
  const field = (name: keyof PageMetadata, min: number, max: number): number | undefined => {
    const value: unknown = answer[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
      throw refuse(
        `a page whose ${name} is not an integer from ${min} to ${max}: ${JSON.stringify(value) ?? String(value)}`,
      );
    }
    return value;
  };
  const pageSize = field("pageSize", 1, INDEXER_LIMIT_MAX);
  const offset = field("offset", 0, Number.MAX_SAFE_INTEGER);
  const totalResults = field("totalResults", 0, Number.MAX_SAFE_INTEGER);
  if (pageSize !== undefined && offset !== undefined && offset !== (page - 1) * pageSize) {
    throw refuse(
      `a page ${page} at offset ${offset}, not ${(page - 1) * pageSize} (pageSize ${pageSize}): the server ignored page`,
    );
  }
  return { pageSize, offset, totalResults };
}

/**
 * Walks a paged list: pages `firstPage`, `firstPage + 1`, ... until one is short of `limit`, empty,
 * or reaches `totalResults`. Every walk against a server that answers from a limited set of pages
 * (always the same one, or a cycle of them) ends: a page holding the same rows as an earlier page (in any order) is not yielded (a
 * newest-first list can move by exactly a page between two requests), and a second such page in a
 * row is an `IndexerDecodeError` (the server ignores `page`), as is a page whose rows are not a
 * list, whose `pageSize`, `offset` or `totalResults` is not an integer of its range, or whose
 * `offset` is not the one of the page asked for. Only a server inventing new rows for every page
 * pages on without end (as long as its `totalResults` says): stop with `break`.
 *
 * @param action - the list action (it must accept `page`).
 * @param rowsOf - the rows of one answer.
 * @returns a function `(client, params)` giving an async iterator of the answers.
 * @example
 * ```ts
 * const fillPages = pagesOf(getFills, (answer) => answer.fills);
 * ```
 */
export function pagesOf<
  P extends { readonly limit?: number; readonly page?: number },
  R extends PageMetadata,
>(
  action: PagedAction<P, R>,
  rowsOf: (answer: R) => readonly unknown[],
): (client: IndexerConnection, params: PageIterationParams<P>) => AsyncGenerator<R, void, undefined> {
  return async function* pages(client, params) {
    const { firstPage = 1, ...rest } = params;
    if (!Number.isSafeInteger(firstPage) || firstPage < 1) {
      throw new InvalidArgumentError("firstPage", `must be a positive integer, got ${String(firstPage)}`);
    }
    const seen = new Set<string>();
    let repeats = 0;
    for (let page = firstPage; ; page++) {
      const answer = await action(client, { ...rest, page } as unknown as P);
      const rows: unknown = rowsOf(answer);
      if (!Array.isArray(rows)) {
        throw new IndexerDecodeError(client.baseUrl, `a page whose rows are not a list (page ${page})`);
      }
      const paging = checkPaging(client, answer, page);
      const key = rows.length === 0 ? undefined : pageKey(rows);
      if (key !== undefined && seen.has(key)) {
        repeats++;
        if (repeats > 1) {
          throw new IndexerDecodeError(
            client.baseUrl,
            `a page ${page} holding the rows of an earlier page, as page ${page - 1} did: the server ignored page`,
          );
        }
      } else {
        repeats = 0;
        if (key !== undefined) seen.add(key);
        yield answer;
      }
      const limit = paging.pageSize ?? (rest as { limit?: number }).limit ?? INDEXER_LIMIT_DEFAULT;
      const offset = paging.offset ?? (page - 1) * limit;
      if (rows.length === 0 || rows.length < limit) return;
      if (paging.totalResults !== undefined && offset + rows.length >= paging.totalResults) return;
    }
  };
}

/**
 * How to walk one list back by height: its rows, each row's height, and a key that tells rows apart.
 *
 * @example
 * ```ts
 * const walk: HeightWalk<{ rows: { id: string; height: string }[] }, { id: string; height: string }> = {
 *   rowsOf: (answer) => answer.rows, heightOf: (row) => row.height, keyOf: (row) => row.id,
 * };
 * walk.keyOf({ id: "a", height: "7" }); // "a"
 * ```
 */
export interface HeightWalk<R, Row> {
  /** The rows of one answer, newest first. */
  readonly rowsOf: (answer: R) => readonly Row[];
  /** A row's block height (decimal text). */
  readonly heightOf: (row: Row) => string;
  /** What tells two rows of one height apart. */
  readonly keyOf: (row: Row) => string;
}

/**
 * Checks a page of a walk before any of its rows is yielded: a list, each row's height a height,
 * none above the cursor asked for (a server that ignored it would have the walk yield the same
 * rows again and again).
 *
 * @throws IndexerDecodeError naming what is wrong.
 */
function checkPage<R, Row>(
  client: IndexerConnection,
  page: unknown,
  walk: HeightWalk<R, Row>,
  cursor: HeightInput | undefined,
): asserts page is readonly Row[] {
  const refuse = (problem: string) => new IndexerDecodeError(client.baseUrl, problem);
  if (!Array.isArray(page)) throw refuse("a page whose rows are not a list");
  const ceiling = cursor === undefined ? undefined : BigInt(String(cursor));
  for (const row of page as Row[]) {
    const height: unknown = typeof row === "object" && row !== null ? walk.heightOf(row) : undefined;
    if (typeof height !== "string" || !/^\d+$/.test(height)) {
      throw refuse(
        `a page with a row whose height is not a height: ${JSON.stringify(height) ?? "undefined"}`,
      );
    }
    if (ceiling !== undefined && BigInt(height) > ceiling) {
      throw refuse(
        `a page with a row at height ${height}, above createdBeforeOrAtHeight ${ceiling}: the server ignored the height cursor`,
      );
    }
  }
}

/**
 * Walks a list back in time: asks for rows at or before a height, yields them newest first, then
 * asks again at or before the lowest height seen, skipping the rows of that height it already
 * gave, until an answer has fewer rows than `limit`. When one height fills a whole page, that
 * height is asked again with `limit` 1000; only a height holding more than 1000 rows stops the walk
 * (with an error, rather than skip rows).
 *
 * @param action - the list action (it must accept `createdBeforeOrAtHeight`).
 * @param walk - rows, heights and keys of the list.
 * @returns a function `(client, params)` giving an async iterator of rows.
 * @example
 * ```ts
 * const allFills = walkBackOf(getFills, { rowsOf: (a) => a.fills, heightOf: (f) => f.createdAtHeight, keyOf: (f) => f.id });
 * ```
 */
export function walkBackOf<
  P extends { readonly limit?: number; readonly createdBeforeOrAtHeight?: HeightInput },
  R,
  Row,
>(
  action: PagedAction<P, R>,
  walk: HeightWalk<R, Row>,
): (client: IndexerConnection, params: Omit<P, "page">) => AsyncGenerator<Row, void, undefined> {
  return async function* rows(client, params) {
    let limit = params.limit ?? INDEXER_LIMIT_DEFAULT;
    let cursor: HeightInput | undefined = params.createdBeforeOrAtHeight;
    let boundary: string | undefined;
    let seen = new Set<string>();
    for (;;) {
      const answer = await action(client, { ...params, limit, createdBeforeOrAtHeight: cursor } as P);
      const page = walk.rowsOf(answer);
      checkPage(client, page, walk, cursor);
      let fresh = 0;
      for (const row of page) {
        if (walk.heightOf(row) === boundary && seen.has(walk.keyOf(row))) continue;
        fresh++;
        yield row;
      }
      if (page.length < limit) return;
      const lowest = page.reduce(
        (low, row) => (BigInt(walk.heightOf(row)) < BigInt(low) ? walk.heightOf(row) : low),
        walk.heightOf(page[0] as Row),
      );
      if (lowest === boundary && fresh === 0) {
        // One height fills a whole page: ask again for that height with the largest page.
        if (limit < INDEXER_LIMIT_MAX) {
          limit = INDEXER_LIMIT_MAX;
          continue;
        }
        throw new InvalidArgumentError(
          "limit",
          `more than ${INDEXER_LIMIT_MAX} rows share height ${lowest}; the height cursor cannot get past them`,
        );
      }
      if (lowest !== boundary) seen = new Set();
      for (const row of page) if (walk.heightOf(row) === lowest) seen.add(walk.keyOf(row));
      boundary = lowest;
      cursor = lowest;
    }
  };
}
