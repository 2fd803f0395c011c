/**
 * @perpx/explorer: a web explorer for any perpx network. The page (`src/app`, bundled for the
 * browser) reads the chain with `@perpx/node-client` and the indexer with `@perpx/indexer-client`;
 * this entry is its server and the network configuration it serves.
 */
export { type ExplorerConfig, type ExplorerConfigOptions, explorerConfig } from "./config.js";
export {
  contentSecurityPolicy,
  DEFAULT_EXPLORER_PORT,
  type ExplorerAssets,
  type ExplorerServer,
  type ExplorerServerOptions,
  loadBuiltAssets,
  pageHtml,
  startExplorer,
} from "./server.js";
