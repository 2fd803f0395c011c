/**
 * The indexer API version this client speaks: every REST path sits under `/v4`, and the
 * WebSocket is at `/v4/ws`.
 *
 * @example
 * ```ts
 * import { INDEXER_API_VERSION } from "@perpx/indexer-client";
 *
 * INDEXER_API_VERSION; // "v4"
 * ```
 */
export const INDEXER_API_VERSION = "v4";
