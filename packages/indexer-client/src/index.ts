/**
 * `@perpx/indexer-client`: typed REST calls to a perpx indexer, a WebSocket connection that
 * reconnects and resubscribes, and local order books and account views built from its feeds.
 */
export { INDEXER_API_VERSION } from "./version.js";
