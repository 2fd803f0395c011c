/**
 * Parameter groups shared by many indexer calls, and their checked query form.
 */
import type { IndexerConnection } from "./connection.js";
import type { CallOptions } from "./deadline.js";
import {
  checkAddress,
  checkHeight,
  checkLimit,
  checkParentSubaccountNumber,
  checkPositive,
  checkSubaccountNumber,
  checkTime,
  type HeightInput,
  type TimeInput,
} from "./validate.js";

/**
 * One subaccount: its owner and number (0..128000).
 *
 * @example
 * ```ts
 * const who: SubaccountParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 };
 * ```
 */
export interface SubaccountParams extends CallOptions {
  /** The owner: bech32 (`perpx1...`) or `0x` hex. */
  readonly address: string;
  /** The subaccount number, 0..128000. */
  readonly subaccountNumber: number;
}

/**
 * One parent subaccount: its owner and parent number (0..127).
 *
 * @example
 * ```ts
 * const who: ParentSubaccountParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface ParentSubaccountParams extends CallOptions {
  /** The owner: bech32 (`perpx1...`) or `0x` hex. */
  readonly address: string;
  /** The parent subaccount number, 0..127. */
  readonly parentSubaccountNumber: number;
}

/**
 * The list size.
 *
 * @example
 * ```ts
 * const params: LimitParams = { limit: 100 };
 * ```
 */
export interface LimitParams {
  /**
   * At most this many rows, 1..1000.
   * @default 1000 (the server's default)
   */
  readonly limit?: number;
}

/**
 * Page-based pagination: with `page`, the answer carries `pageSize`, `offset` and `totalResults`.
 *
 * @example
 * ```ts
 * const params: PageParams = { page: 2, limit: 50 };
 * ```
 */
export interface PageParams extends LimitParams {
  /**
   * The page, from 1.
   * @default undefined (no paging metadata)
   */
  readonly page?: number;
}

/**
 * Inclusive upper bounds on creation, for walking back in time.
 *
 * @example
 * ```ts
 * const params: CreatedBeforeParams = { createdBeforeOrAtHeight: 1200n };
 * ```
 */
export interface CreatedBeforeParams {
  /**
   * Only rows created at or before this height (the server ignores 0).
   * @default undefined
   */
  readonly createdBeforeOrAtHeight?: HeightInput;
  /**
   * Only rows created at or before this time.
   * @default undefined
   */
  readonly createdBeforeOrAt?: TimeInput;
}

/**
 * Inclusive lower bounds on creation.
 *
 * @example
 * ```ts
 * const params: CreatedOnOrAfterParams = { createdOnOrAfter: new Date("2026-01-01T00:00:00Z") };
 * ```
 */
export interface CreatedOnOrAfterParams {
  /**
   * Only rows created at or after this height.
   * @default undefined
   */
  readonly createdOnOrAfterHeight?: HeightInput;
  /**
   * Only rows created at or after this time.
   * @default undefined
   */
  readonly createdOnOrAfter?: TimeInput;
}

/**
 * The checked query of a subaccount: `{ address, subaccountNumber }`.
 *
 * @param client - the connection (for its address prefix).
 * @param params - the subaccount.
 * @returns the query entries.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test" });
 * subaccountQuery(client, { address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", subaccountNumber: 1 });
 * // { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 1 }
 * ```
 */
export function subaccountQuery(
  client: IndexerConnection,
  params: SubaccountParams,
): { address: string; subaccountNumber: number } {
  return {
    address: checkAddress("address", params.address, client.addressPrefix),
    subaccountNumber: checkSubaccountNumber("subaccountNumber", params.subaccountNumber),
  };
}

/**
 * The checked query of a parent subaccount: `{ address, parentSubaccountNumber }`.
 *
 * @param client - the connection (for its address prefix).
 * @param params - the parent subaccount.
 * @returns the query entries.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test" });
 * parentQuery(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 3 }).parentSubaccountNumber; // 3
 * ```
 */
export function parentQuery(
  client: IndexerConnection,
  params: ParentSubaccountParams,
): { address: string; parentSubaccountNumber: number } {
  return {
    address: checkAddress("address", params.address, client.addressPrefix),
    parentSubaccountNumber: checkParentSubaccountNumber(
      "parentSubaccountNumber",
      params.parentSubaccountNumber,
    ),
  };
}

/**
 * The checked `limit`, `page` and created-before entries.
 *
 * @param params - limit, page and bounds.
 * @returns the query entries (undefined ones are not sent).
 * @example
 * ```ts
 * listQuery({ limit: 10, createdBeforeOrAtHeight: 5n }); // { limit: 10, page: undefined, createdBeforeOrAtHeight: "5", createdBeforeOrAt: undefined }
 * ```
 */
export function listQuery(params: PageParams & CreatedBeforeParams): {
  limit: number | undefined;
  page: number | undefined;
  createdBeforeOrAtHeight: string | undefined;
  createdBeforeOrAt: string | undefined;
} {
  return {
    limit: checkLimit(params.limit),
    page: checkPositive("page", params.page),
    createdBeforeOrAtHeight: checkHeight("createdBeforeOrAtHeight", params.createdBeforeOrAtHeight),
    createdBeforeOrAt: checkTime("createdBeforeOrAt", params.createdBeforeOrAt),
  };
}

/**
 * The checked created-on-or-after entries.
 *
 * @param params - the lower bounds.
 * @returns the query entries.
 * @example
 * ```ts
 * afterQuery({ createdOnOrAfterHeight: 7 }); // { createdOnOrAfterHeight: "7", createdOnOrAfter: undefined }
 * ```
 */
export function afterQuery(params: CreatedOnOrAfterParams): {
  createdOnOrAfterHeight: string | undefined;
  createdOnOrAfter: string | undefined;
} {
  return {
    createdOnOrAfterHeight: checkHeight("createdOnOrAfterHeight", params.createdOnOrAfterHeight),
    createdOnOrAfter: checkTime("createdOnOrAfter", params.createdOnOrAfter),
  };
}

/**
 * The call options of a params object (its `timeoutMs` and `signal`), without the query fields.
 *
 * @param params - any call's params.
 * @returns `{ timeoutMs?, signal? }`.
 * @example
 * ```ts
 * const params: GetFillsParams = { address: "perpx1...", subaccountNumber: 0, limit: 3, timeoutMs: 500 };
 * callOf(params); // { timeoutMs: 500 }
 * ```
 */
export function callOf(params: CallOptions | undefined): CallOptions {
  return {
    ...(params?.timeoutMs === undefined ? {} : { timeoutMs: params.timeoutMs }),
    ...(params?.signal === undefined ? {} : { signal: params.signal }),
  };
}
