import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CompositeClient } from "@perpx/composite-client";
import { encodeCredential } from "@perpx/core";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@perpx/devnet";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, beforeAll } from "vitest";
import { type McpServerOptions, type RunningMcpServer, startMcpServer } from "../src/index.js";

/** The devnet's endpoints under core's names (gRPC over TLS). */
export function endpointsOf(devnet: Devnet) {
  const { endpoints } = devnet;
  return {
    nodeRpc: endpoints.nodeRpc,
    nodeRest: endpoints.nodeRest,
    grpc: endpoints.grpcTls,
    faucet: endpoints.faucet,
    indexer: endpoints.indexer,
    devnetControl: endpoints.devnetControl,
  };
}

/** An account funded by the faucet, with USDC deposited and a trading key registered on chain. */
export interface TradingAccount {
  owner: LocalWallet;
  key: LocalWallet;
  /** The trading credential (base64). */
  credential: string;
  /** The read-only credential of the same account. */
  readOnly: string;
  /** A composite client of the owner's wallet (the chain's view, for assertions). */
  client: CompositeClient;
}

/** A devnet with a market maker, an MCP server on it, and helpers, for one test file. */
export interface McpTestNet {
  devnet: Devnet;
  server: RunningMcpServer;
  /** Everything the server logged. */
  logs: string[];
  /** A funded account with a registered trading key. */
  account(deposit?: string): Promise<TradingAccount>;
  /** Starts (another) MCP server on the same devnet (closed after the file). */
  startServer(options?: Partial<McpServerOptions>): Promise<RunningMcpServer>;
  /** An MCP client of a credential on a server (closed after the file). */
  connect(credential: string, server?: RunningMcpServer): Promise<Client>;
}

/** The options that point an MCP server at a devnet. */
export function serverOptionsOf(devnet: Devnet, logs: string[]): McpServerOptions {
  return {
    network: "local",
    endpoints: endpointsOf(devnet),
    grpcCaCert: devnet.caPem,
    port: 0,
    pollIntervalMs: 50,
    statefulSettleMs: 600,
    verifyTimeoutMs: 10_000,
    log: (line) => logs.push(line),
  };
}

/** Starts a devnet (with liquidity) and an MCP server on it before the file's tests. */
export function useMcpNet(
  options: { devnet?: StartDevnetOptions; server?: Partial<McpServerOptions> } = {},
): McpTestNet {
  const net = { logs: [] as string[] } as McpTestNet;
  const clients: Client[] = [];
  const composites: CompositeClient[] = [];
  const servers: RunningMcpServer[] = [];
  beforeAll(async () => {
    net.devnet = await startDevnet({
      ports: "free",
      blockTimeMs: 100,
      faucetWindowMs: 0,
      liquidity: true,
      ...options.devnet,
    });
    net.startServer = async (overrides = {}) => {
      const server = await startMcpServer({
        ...serverOptionsOf(net.devnet, net.logs),
        ...options.server,
        ...overrides,
      });
      servers.push(server);
      return server;
    };
    net.server = await net.startServer();
    net.account = async (deposit = "900") => {
      const owner = LocalWallet.generate();
      const funded = await fetch(`${net.devnet.endpoints.faucet}/faucet/tokens`, {
        method: "POST",
        body: JSON.stringify({ address: owner.address }),
      });
      if (!funded.ok) throw new Error(`the faucet refused: ${await funded.text()}`);
      const client = await CompositeClient.connect({
        network: "local",
        grpcCaCert: net.devnet.caPem,
        pollIntervalMs: 50,
        endpoints: endpointsOf(net.devnet),
        wallet: owner,
      });
      composites.push(client);
      await client.deposit({ amount: deposit });
      const key = LocalWallet.generate();
      await client.context.node.registerTradingKey({ owner, publicKey: key.publicKey });
      return {
        owner,
        key,
        client,
        credential: encodeCredential({
          masterAddress: owner.address,
          tradingPrivateKey: key.exportPrivateKeyHex(),
        }),
        readOnly: encodeCredential({ masterAddress: owner.address }),
      };
    };
    net.connect = async (credential, server = net.server) => {
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${credential}` } },
      });
      const client = new Client({ name: "perpx-mcp-test", version: "0" });
      await client.connect(transport);
      // As hosts do: list the tools first, so the client checks every result against its output schema.
      await client.listTools();
      clients.push(client);
      return client;
    };
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    for (const server of servers) await server.close();
    for (const client of composites) client.close();
    await net.devnet?.stop();
  });
  return net;
}

/** Calls a tool and returns its structured content, failing the test on an error result. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError)
    throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
  return result.structuredContent as Record<string, any>;
}

/** Calls a tool expected to fail; returns its error (code, message). */
export async function refused(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result.structuredContent)}`);
  const error = (result.structuredContent as { error?: { code: string; message: string } } | undefined)
    ?.error;
  return error ?? { code: "", message: JSON.stringify(result.content) };
}

/**
 * Counts the transactions reaching the devnet's CheckTx that name `address` (orders and cancels do),
 * until `restore()`.
 */
export function countBroadcasts(devnet: Devnet, address: string) {
  const app = devnet.app as { checkTx: (tx: Uint8Array) => unknown };
  const original = app.checkTx.bind(app);
  const needle = Buffer.from(address);
  let count = 0;
  app.checkTx = (tx) => {
    if (Buffer.from(tx).includes(needle)) count += 1;
    return original(tx);
  };
  return { count: () => count, restore: () => (app.checkTx = original) };
}
