/**
 * The indexer's query bounds (`spec/indexer-api.md` sections 0 and 0.2): list limits, the WebSocket
 * subaccount bound and the address rule of its validators. The REST subaccount and parent bounds and
 * the parent/child arithmetic live in `@perpx/address` (`MAX_SUBACCOUNT_NUMBER`,
 * `MAX_PARENT_SUBACCOUNT_NUMBER`, `parentSubaccountNumber`, `childSubaccountNumber`).
 */

/**
 * The largest `limit` a list route accepts; more gives 400.
 *
 * @example
 * ```ts
 * const requested = 5000;
 * Math.min(requested, INDEXER_LIMIT_MAX); // 1000
 * ```
 */
export const INDEXER_LIMIT_MAX = 1000;

/**
 * The `limit` a list route uses when none is sent (so "no limit" means at most 1000 rows).
 *
 * @example
 * ```ts
 * INDEXER_LIMIT_DEFAULT; // 1000
 * ```
 */
export const INDEXER_LIMIT_DEFAULT = 1000;

/**
 * The subaccount number bound of a WebSocket subscription id (`address/n` of `v4_subaccounts`):
 * `n` must be below this, so `0..127999`, one less than the REST routes' `MAX_SUBACCOUNT_NUMBER`
 * (`0..128000`, from `@perpx/address`, re-exported here with `MAX_PARENT_SUBACCOUNT_NUMBER`).
 *
 * @example
 * ```ts
 * const n = 128_000;
 * n >= 0 && n < INDEXER_WS_SUBACCOUNT_NUMBER_LIMIT; // false
 * ```
 */
export const INDEXER_WS_SUBACCOUNT_NUMBER_LIMIT = 128_000;

/**
 * The longest `address` the indexer's validator accepts (it checks alphanumeric and length only,
 * not bech32).
 *
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * /^[a-zA-Z0-9]+$/.test(address) && address.length <= INDEXER_ADDRESS_MAX_LENGTH; // true
 * ```
 */
export const INDEXER_ADDRESS_MAX_LENGTH = 90;

/**
 * The most levels per side of an order book snapshot.
 *
 * @example
 * ```ts
 * ORDERBOOK_SNAPSHOT_LEVELS_MAX; // 100
 * ```
 */
export const ORDERBOOK_SNAPSHOT_LEVELS_MAX = 100;
