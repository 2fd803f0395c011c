#!/usr/bin/env node
/**
 * `perpx-mcp`: the agent server for one network.
 *
 *   perpx-mcp --network testnet|mainnet|local [--host H] [--port N] [--database FILE | --postgres URL]
 *             [--allowed-markets A,B] [--allowed-origin URL ...] [--auth static|oauth [--public-url URL]] [--json]
 *
 * Endpoints come from the `PERPX_*_URL` variables of `@perpx/core` (the local preset needs none).
 */
import { parseArgs } from "node:util";
import { openPostgresStore } from "./postgres.js";
import { startMcpServer } from "./server.js";

const HELP = `perpx-mcp: MCP agent server (Streamable HTTP at /mcp) for one perpx network

Usage:
  perpx-mcp --network <testnet|mainnet|local> [options]

Options:
  --network <name>         the network, fixed for the server's life (required)
  --host <host>            interface to bind (default 127.0.0.1)
  --port <n>               port (default 8080; 0 = a free port)
  --database <file>        SQLite file for the breaker, idempotency and audit log (default ./perpx-mcp.sqlite)
  --postgres <url>         keep them in Postgres instead, shared by several instances (postgres://...)
  --allowed-markets <list> comma-separated tickers agents may trade (default: all)
  --allowed-origin <url>   a browser origin to accept (repeatable)
  --allowed-host <host>    a Host header to accept behind a proxy (repeatable)
  --auth <static|oauth>    how /mcp authenticates (default static: base64 bearer credentials, no OAuth
                           metadata); oauth: the server is its own OAuth authorization server and a
                           wallet approves a fresh scoped trading key on its consent page
  --public-url <url>       OAuth mode: the https origin clients reach the server at (default: the listener)
  --json                   print one line {"ready":true,"url":...} when listening
Endpoints: PERPX_NODE_RPC_URL, PERPX_NODE_REST_URL, PERPX_GRPC_URL, PERPX_INDEXER_URL (see @perpx/core);
PERPX_GRPC_CA: PEM of the CA of the gRPC endpoint, when it is not a system CA.
OAuth mode: PERPX_MCP_OAUTH_SECRET (at least 32 characters) encrypts the trading keys it stores; the
approve-agent service is PERPX_DEVNET_CONTROL_URL's on a devnet, or PERPX_APPROVE_AGENT_URL.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      network: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      database: { type: "string" },
      postgres: { type: "string" },
      "allowed-markets": { type: "string" },
      "allowed-origin": { type: "string", multiple: true },
      "allowed-host": { type: "string", multiple: true },
      auth: { type: "string" },
      "public-url": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const network = values.network;
  if (network !== "testnet" && network !== "mainnet" && network !== "local") {
    process.stderr.write(`perpx-mcp: --network must be testnet, mainnet or local\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write("perpx-mcp: --port must be a port number\n");
    process.exitCode = 2;
    return;
  }
  const auth = values.auth ?? "static";
  if (auth !== "static" && auth !== "oauth") {
    process.stderr.write(`perpx-mcp: --auth must be static or oauth\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const markets = values["allowed-markets"]
    ?.split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const server = await startMcpServer({
    network,
    env: process.env,
    ...(process.env.PERPX_GRPC_CA ? { grpcCaCert: process.env.PERPX_GRPC_CA } : {}),
    host: values.host ?? "127.0.0.1",
    port,
    database: values.database ?? "./perpx-mcp.sqlite",
    ...(values.postgres ? { store: await openPostgresStore({ connectionString: values.postgres }) } : {}),
    ...(markets ? { limits: { allowedMarkets: markets } } : {}),
    auth,
    ...(auth === "oauth"
      ? {
          oauth: {
            secret: process.env.PERPX_MCP_OAUTH_SECRET ?? "",
            ...(values["public-url"] ? { publicUrl: values["public-url"] } : {}),
            ...(process.env.PERPX_APPROVE_AGENT_URL
              ? { approveAgentUrl: process.env.PERPX_APPROVE_AGENT_URL }
              : {}),
          },
        }
      : {}),
    allowedOrigins: values["allowed-origin"] ?? [],
    allowedHosts: values["allowed-host"] ?? [],
    log: values.json ? () => {} : (line) => process.stderr.write(`${line}\n`),
  });
  if (values.json) process.stdout.write(`${JSON.stringify({ ready: true, url: server.url })}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

// A perpx error's whole message: its short line, then the hints and details that say what to do.
main().catch((error: unknown) => {
  process.stderr.write(`perpx-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
