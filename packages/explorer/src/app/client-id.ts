/**
 * Finding a subaccount's orders by client id. The indexer has no client id filter: its orders list
 * is sorted by good-til, highest first (orders good til a time above every order good til a block),
 * at most 1000 an answer, so the search pages down through it, each family by its own bound
 * (`goodTilBlockTimeBeforeOrAt`, then `goodTilBlockBeforeOrAt`), up to a bound on the pages read.
 */
import type { OrderResponseObject } from "@perpx/core/indexer";
import type { GetOrdersParams } from "@perpx/indexer-client";

/** The most orders the indexer answers at once (`limit` at most 1000). */
export const CLIENT_ID_PAGE_SIZE = 1000;
/** The most pages a search reads: 10 of 1000, the 10,000 orders of highest good-til. */
export const CLIENT_ID_MAX_PAGES = 10;
/** The highest good-til block there is (a uint32), the first bound of the block-based orders. */
const TOP_BLOCK = 4_294_967_295;

/** What a client id search found. */
export interface ClientIdSearch {
  /** The orders with that client id, highest good-til first. */
  readonly found: readonly OrderResponseObject[];
  /** How many orders were read. */
  readonly searched: number;
  /** False when the page bound was hit, or orders sharing one good-til were more than a page: some were not read. */
  readonly complete: boolean;
}

/** A client id as the indexer writes it: decimal digits of a uint32, or undefined. */
export function clientIdOf(value: unknown): bigint | undefined {
  if (typeof value !== "string" || !/^\d{1,10}$/.test(value)) return undefined;
  const id = BigInt(value);
  return id <= 0xffffffffn ? id : undefined;
}

/**
 * Every order of `owner`/`number` whose client id is `clientId`, paging through the indexer's list.
 *
 * @param getOrders - the indexer's orders list (`indexer.getOrders`).
 * @param where - the subaccount and the client id (decimal digits).
 * @param options - page size and the most pages read (tests use small ones).
 * @returns what was found, how many orders were read, and whether that was all of them.
 */
export async function findByClientId(
  getOrders: (params: GetOrdersParams) => Promise<readonly OrderResponseObject[]>,
  where: { readonly owner: string; readonly number: number; readonly clientId: string },
  options: { readonly pageSize?: number; readonly maxPages?: number } = {},
): Promise<ClientIdSearch> {
  const limit = options.pageSize ?? CLIENT_ID_PAGE_SIZE;
  const maxPages = options.maxPages ?? CLIENT_ID_MAX_PAGES;
  const wanted = clientIdOf(where.clientId);
  const seen = new Set<string>();
  const found: OrderResponseObject[] = [];
  let pages = 0;
  let complete = true;
  const read = async (bound: Partial<GetOrdersParams>) => {
    pages++;
    const page = await getOrders({
      owner: where.owner,
      number: where.number,
      limit,
      ...bound,
    } as GetOrdersParams);
    for (const order of page) {
      if (seen.has(order.id)) continue;
      seen.add(order.id);
      if (wanted !== undefined && clientIdOf(order.clientId) === wanted) found.push(order);
    }
    return page;
  };
  const lowest = (
    page: readonly OrderResponseObject[],
    key: (o: OrderResponseObject) => number | undefined,
  ) =>
    page.reduce<number | undefined>((low, o) => {
      const k = key(o);
      return k === undefined || (low !== undefined && low <= k) ? low : k;
    }, undefined);
  const blockOf = (o: OrderResponseObject) =>
    /^\d+$/.test(o.goodTilBlock ?? "") ? Number(o.goodTilBlock) : undefined;
  const timeOf = (o: OrderResponseObject) => {
    const ms = o.goodTilBlockTime === undefined ? Number.NaN : Date.parse(o.goodTilBlockTime);
    return Number.isNaN(ms) ? undefined : ms;
  };

  const first = await read({});
  if (first.length < limit) return { found, searched: seen.size, complete };
  // The orders good til a time come first: all were read once a page holds one good til a block.
  let timeBound = first.some((o) => o.goodTilBlock !== undefined) ? undefined : lowest(first, timeOf);
  while (timeBound !== undefined) {
    if (pages >= maxPages) return { found, searched: seen.size, complete: false };
    const page = await read({ goodTilBlockTimeBeforeOrAt: new Date(timeBound).toISOString() });
    if (page.length < limit) break;
    const next = lowest(page, timeOf);
    // A full page at one good-til: step below it (the rest at that time are not read).
    if (next === undefined || next >= timeBound) complete = false;
    timeBound = next === undefined || next >= timeBound ? timeBound - 1 : next;
  }
  let blockBound = lowest([...first], blockOf) ?? TOP_BLOCK;
  for (;;) {
    if (pages >= maxPages) return { found, searched: seen.size, complete: false };
    const page = await read({ goodTilBlockBeforeOrAt: blockBound });
    if (page.length < limit) break;
    const next = lowest(page, blockOf);
    if (next === undefined || next >= blockBound) complete = false;
    blockBound = next === undefined || next >= blockBound ? blockBound - 1 : next;
    if (blockBound < 1) break;
  }
  return { found, searched: seen.size, complete };
}
