#!/usr/bin/env node
/**
 * `perpx-explorer`: serves the explorer for one network.
 *
 *   perpx-explorer --network local|testnet|mainnet [--port N] [--host HOST]
 *
 * Endpoints come from the network preset, overridden by the `PERPX_*_URL` environment variables
 * (testnet and mainnet have no defaults: set `PERPX_NODE_RPC_URL`, `PERPX_NODE_REST_URL`,
 * `PERPX_INDEXER_URL` and `PERPX_INDEXER_WS_URL`).
 */
import { parseArgs } from "node:util";
import { isNetworkName, isPerpxError } from "@perpx/core";
import { explorerConfig } from "./config.js";
import { DEFAULT_EXPLORER_PORT, startExplorer } from "./server.js";

const HELP = `perpx-explorer: a web explorer for a perpx network

Usage:
  perpx-explorer --network local|testnet|mainnet [--port N] [--host HOST]

Options:
  --network <name>  the network preset (default local)
  --port <n>        the port to serve on (default ${DEFAULT_EXPLORER_PORT}; 0 = a free port)
  --host <host>     the interface to bind (default 127.0.0.1)

Endpoints: the preset's, overridden by PERPX_NODE_RPC_URL, PERPX_NODE_REST_URL, PERPX_INDEXER_URL
and PERPX_INDEXER_WS_URL (testnet and mainnet need all four).
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      network: { type: "string", default: "local" },
      port: { type: "string" },
      host: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(HELP);
    return;
  }
  if (!isNetworkName(values.network))
    throw new Error(`--network must be local, testnet or mainnet, got "${values.network}"`);
  const port = values.port === undefined ? DEFAULT_EXPLORER_PORT : Number(values.port);
  if (values.port !== undefined && !/^\d+$/.test(values.port))
    throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  const config = explorerConfig({ network: values.network, env: process.env });
  const server = await startExplorer({ config, port, ...(values.host ? { host: values.host } : {}) });
  process.stdout.write(`perpx-explorer: ${server.url} (${config.network}, ${config.chainId})\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = isPerpxError(error) || error instanceof Error ? error.message : String(error);
  process.stderr.write(`perpx-explorer: ${message}\n`);
  process.exit(2);
});
