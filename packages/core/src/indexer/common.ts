/**
 * Shapes shared by many indexer REST answers (`spec/indexer-api.md` sections 0 and 0.1): page
 * metadata and the error bodies.
 */
import type { BlockedCode } from "./enums.js";

/**
 * The page metadata a paginated list carries when (and only when) the request sent `page`:
 * `pageSize` is the limit, `offset` is `(page - 1) * limit`, `totalResults` counts every matching
 * row regardless of the limit.
 *
 * @example
 * ```ts
 * const meta: PageMetadata = { pageSize: 100, totalResults: 250, offset: 100 };
 * ```
 */
export interface PageMetadata {
  readonly pageSize?: number;
  readonly totalResults?: number;
  readonly offset?: number;
}

/**
 * One failed validation rule of a 400 answer (express-validator v6 format). `value` is absent when
 * the parameter was missing; controller-level 400s (both `ticker` and `market`) carry only `msg`.
 *
 * @example
 * ```ts
 * const entry: IndexerValidationErrorEntry = {
 *   value: "2000",
 *   msg: "limit must be a positive integer that is not greater than max: 1000",
 *   param: "limit",
 *   location: "query",
 * };
 * ```
 */
export interface IndexerValidationErrorEntry {
  readonly value?: unknown;
  readonly msg: string;
  readonly param?: string;
  readonly location?: "query" | "params";
}

/**
 * One entry of a 403 answer on an address-scoped route.
 *
 * @example
 * ```ts
 * const entry: IndexerBlockedErrorEntry = { code: "COMPLIANCE_BLOCKED", msg: "..." };
 * ```
 */
export interface IndexerBlockedErrorEntry {
  readonly code: BlockedCode;
  readonly msg: string;
}

/**
 * The body of every error answer on a known route: 400 (validation entries), 403 (blocked
 * entries), 404 (`{ msg }`), 429 (`Too many requests`) and 500 (`Internal Server Error`).
 *
 * @example
 * ```ts
 * const body: IndexerErrorBody = { errors: [{ msg: "No blocks found" }] };
 * ```
 */
export interface IndexerErrorBody {
  readonly errors: ReadonlyArray<IndexerValidationErrorEntry | IndexerBlockedErrorEntry>;
}

/**
 * The body of the 404 for an unknown route (a different shape from {@link IndexerErrorBody}).
 *
 * @example
 * ```ts
 * const body: IndexerRouteNotFoundBody = { error: "Not Found", errorCode: 404 };
 * ```
 */
export interface IndexerRouteNotFoundBody {
  readonly error: "Not Found";
  readonly errorCode: 404;
}

/**
 * `GET /health` (outside `/v4`).
 *
 * @example
 * ```ts
 * const body: HealthResponse = { ok: true };
 * ```
 */
export interface HealthResponse {
  readonly ok: true;
}
