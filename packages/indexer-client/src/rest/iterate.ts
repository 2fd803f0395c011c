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

/**
 * Walks a paged list: pages `firstPage`, `firstPage + 1`, ... until one is short of `limit`, empty,
 * or reaches `totalResults`.
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
    for (let page = firstPage; ; page++) {
      const answer = await action(client, { ...rest, page } as unknown as P);
      yield answer;
      const rows = rowsOf(answer).length;
      const limit = answer.pageSize ?? (rest as { limit?: number }).limit ?? INDEXER_LIMIT_DEFAULT;
      const offset = answer.offset ?? (page - 1) * limit;
      if (rows === 0 || rows < limit) return;
      if (answer.totalResults !== undefined && offset + rows >= answer.totalResults) return;
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
