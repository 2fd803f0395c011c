import type { DescMessage, DescMethodUnary, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { bytesEqual } from "../bytes.js";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors/query.js";
import { pickQueryTransport, type QueryOptions, queryPath, unaryQuery } from "./unary.js";

/** At most this many pages are read by {@link allPages} (a guard against a node that loops). */
export const MAX_PAGES = 1000;

/** Items per page requested by {@link allPages}. */
export const PAGE_LIMIT = 1000n;

/**
 * Parameters of {@link allPages}: the paginated method, its request and the items to keep.
 * @example
 * ```ts
 * import { clob } from "@perpx/proto";
 *
 * const params: AllPagesParams<typeof clob.QueryAllClobPairRequestSchema, typeof clob.QueryClobPairAllResponseSchema, clob.ClobPair> =
 *   { method: clob.Query.method.clobPairAll, request: {}, pick: (r) => r.clobPair };
 * ```
 */
export interface AllPagesParams<I extends DescMessage, O extends DescMessage, T> extends QueryOptions {
  /** The paginated query method. */
  method: DescMethodUnary<I, O>;
  /** The request, without `pagination` (set per page). */
  request: MessageInitShape<I>;
  /** The items of one answer. */
  pick: (response: MessageShape<O>) => readonly T[];
}

/**
 * Reads every page of a paginated query (`pagination.next_key`) and concatenates the items.
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`AllPagesParams<I, O, T>`), with the call options.
 * @returns the items of every page, in order.
 * @throws {QueryError} when the node answers an error, or its pagination never ends (no partial answer).
 * @example
 * ```ts
 * import { clob } from "@perpx/proto";
 *
 * const pairs = await allPages(client, { method: clob.Query.method.clobPairAll, request: {}, pick: (r) => r.clobPair });
 * pairs.length > 0; // true
 * ```
 */
export async function allPages<I extends DescMessage, O extends DescMessage, T>(
  client: NodeConnection,
  params: AllPagesParams<I, O, T>,
): Promise<T[]> {
  const { method, request, pick, ...options } = params;
  const items: T[] = [];
  let key: Uint8Array = new Uint8Array();
  for (let page = 1; ; page++) {
    const pagination = { key, limit: PAGE_LIMIT };
    const init = { ...(request as object), pagination } as unknown as MessageInitShape<I>;
    const response = await unaryQuery(client, { ...options, method: method, request: init });
    items.push(...pick(response));
    const next = (response as { pagination?: { nextKey?: Uint8Array } }).pagination?.nextKey;
    if (!next || next.length === 0) return items;
    if (bytesEqual(next, key) || page === MAX_PAGES) {
      const problem = page === MAX_PAGES ? `did not end after ${MAX_PAGES} pages` : "repeated its next key";
      const log = `the node's pagination ${problem} (page ${page}); no items are returned`;
      const transport = pickQueryTransport(client, options.transport);
      throw new QueryError({ path: queryPath(method as DescMethodUnary), transport, log });
    }
    key = next;
  }
}
