/**
 * `@perpx/core/indexer`: the typed contract of the perpx indexer, shared by the indexer client and
 * the devnet's indexer. Every REST answer field by field (decimals and heights as strings, the
 * few numeric fields as numbers), the enumerations, the query bounds, and the WebSocket channels,
 * message envelopes and per-channel contents. Types and constants only; no I/O.
 *
 * @packageDocumentation
 */
export { MAX_PARENT_SUBACCOUNT_NUMBER, MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
export * from "./indexer/accounts.js";
export * from "./indexer/channels.js";
export * from "./indexer/common.js";
export * from "./indexer/contents.js";
export * from "./indexer/enums.js";
export * from "./indexer/history.js";
export * from "./indexer/limits.js";
export * from "./indexer/markets.js";
export * from "./indexer/messages.js";
export * from "./indexer/route-params.js";
export * from "./indexer/route-request.js";
export * from "./indexer/routes.js";
