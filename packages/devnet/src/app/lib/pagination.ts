/**
 * Cosmos `PageRequest` / `PageResponse` over an ordered list: `key` (resume at that key), or
 * `offset`; `limit` (default 100); `count_total`; `reverse`.
 */
import { create } from "@bufbuild/protobuf";
import { cosmosQuery } from "@perpx/proto";
import { invalidArgument } from "../kernel/module.js";
import { bytesEqual } from "./codec.js";

/** Default page size, as the SDK's. */
export const DEFAULT_PAGE_LIMIT = 100n;

/** One page of `items` (each with its store key) and the response to send. */
export function paginate<T>(
  items: readonly { key: Uint8Array; value: T }[],
  request: cosmosQuery.PageRequest | undefined,
): { page: T[]; pagination: cosmosQuery.PageResponse } {
  const ordered = request?.reverse === true ? [...items].reverse() : items;
  if (request !== undefined && request.key.length > 0 && request.offset > 0n) {
    throw invalidArgument("either offset or key is expected, got both");
  }
  let start = 0;
  if (request !== undefined && request.key.length > 0) {
    const index = ordered.findIndex((item) => bytesEqual(item.key, request.key));
    start = index < 0 ? ordered.length : index;
  } else if (request !== undefined) {
    start = Number(request.offset > BigInt(ordered.length) ? BigInt(ordered.length) : request.offset);
  }
  const limit = request === undefined || request.limit === 0n ? DEFAULT_PAGE_LIMIT : request.limit;
  const end = Math.min(ordered.length, start + Number(limit > 1_000_000n ? 1_000_000n : limit));
  const next = ordered[end];
  const pagination = create(cosmosQuery.PageResponseSchema, {
    nextKey: next === undefined ? new Uint8Array(0) : next.key,
    total: request?.countTotal === true ? BigInt(ordered.length) : 0n,
  });
  return { page: ordered.slice(start, end).map((item) => item.value), pagination };
}
