/**
 * EVM JSON-RPC (HTTP, and the same methods over WebSocket on a second port): chain id, block number,
 * native balances and blocks, as cosmos/evm answers them. Any other method answers -32601.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { addressBytesToBech32, NATIVE_DENOM } from "@perpx/core";
import { cosmosBank } from "@perpx/proto";
import type { WebSocket } from "ws";
import type { BlockRecord, ChainApp } from "../app/contract.js";
import type { Dispatcher } from "./dispatch.js";
import { fromHex, toHexLower, toQuantity } from "./encoding.js";
import { closeServer, createHttpServer, listen, type ServerTimeouts, urlOf } from "./http.js";
import { answerJsonRpc, createJsonRpcHttpServer, EvmRpcError, type JsonRpcHandler } from "./json-rpc.js";
import { OnDemandWebSocketServer } from "./ws-on-demand.js";

const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
const EMPTY_TRIE = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
const EMPTY_BLOOM = `0x${"0".repeat(512)}`;
const ZERO_HASH = `0x${"0".repeat(64)}`;
/** The block gas limit cosmos/evm reports when consensus sets none. */
const BLOCK_GAS_LIMIT = 0xffffffffffffffffn.toString(16);

function hexHash(bytes: Uint8Array): string {
  return bytes.length === 0 ? ZERO_HASH : `0x${toHexLower(bytes)}`;
}

/** The Ethereum view of a block (no EVM transactions: Cosmos txs are not listed). */
export function evmBlockJson(block: BlockRecord): Record<string, unknown> {
  const gasUsed = block.txResults.reduce((sum, r) => sum + r.gasUsed, 0n);
  return {
    number: toQuantity(block.height),
    hash: hexHash(block.hash),
    parentHash: hexHash(block.lastBlockHash),
    nonce: "0x0000000000000000",
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: EMPTY_BLOOM,
    transactionsRoot: EMPTY_TRIE,
    stateRoot: hexHash(block.appHash),
    receiptsRoot: EMPTY_TRIE,
    miner: `0x${toHexLower(block.proposerAddress)}`,
    mixHash: ZERO_HASH,
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: "0x",
    size: toQuantity(block.txs.reduce((n, tx) => n + tx.length, 0) + 512),
    gasLimit: `0x${BLOCK_GAS_LIMIT}`,
    gasUsed: toQuantity(gasUsed),
    timestamp: toQuantity(Math.floor(block.time.getTime() / 1000)),
    transactions: [],
    uncles: [],
    baseFeePerGas: "0x0",
  };
}

/** Options of {@link startEvmServers}. */
export interface EvmServerOptions {
  app: ChainApp;
  dispatcher: Dispatcher;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** HTTP port; 0 picks a free port. @default 8545 */
  port?: number;
  /** WebSocket port; 0 picks a free port. @default 8546 */
  wsPort?: number;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
}

/** The running EVM JSON-RPC servers. */
export interface EvmServers {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly wsPort: number;
  close(): Promise<void>;
}

/**
 * Starts EVM JSON-RPC over HTTP and WebSocket.
 *
 * @param options - application, dispatcher (for balances), interface and ports.
 * @returns the running servers.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const evm = await startEvmServers({ app, dispatcher: createDispatcher(app), port: 0, wsPort: 0 });
 * const request = { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] };
 * const response = await fetch(evm.url, { method: "POST", body: JSON.stringify(request) });
 * Number((await response.json()).result) === devnet.evmChainId; // true
 * await evm.close();
 * await devnet.stop();
 * ```
 */
export async function startEvmServers(options: EvmServerOptions): Promise<EvmServers> {
  const { app, dispatcher } = options;

  const blockTag = (value: unknown, index: number): bigint | undefined => {
    const latest = app.latestBlock().height;
    if (value === undefined || value === null) return latest;
    if (typeof value === "object" && value !== null && "blockNumber" in value) {
      return blockTag((value as { blockNumber: unknown }).blockNumber, index);
    }
    if (typeof value !== "string")
      throw new EvmRpcError(-32602, `invalid argument ${index}: block tag must be a string`);
    switch (value) {
      case "latest":
      case "pending":
      case "safe":
      case "finalized":
        return latest;
      case "earliest":
        return app.info.initialHeight;
    }
    if (!/^0x[0-9a-fA-F]+$/.test(value)) {
      throw new EvmRpcError(
        -32602,
        `invalid argument ${index}: hex string without 0x prefix or not a block tag`,
      );
    }
    const n = BigInt(value);
    return n > latest ? undefined : n;
  };

  const methods: Record<string, JsonRpcHandler> = {
    web3_clientVersion: () => `perpx-devnet/${app.info.appVersion}/node-${process.version}`,
    eth_chainId: () => toQuantity(app.info.evmChainId),
    net_version: () => String(app.info.evmChainId),
    net_listening: () => true,
    net_peerCount: () => "0x1",
    eth_blockNumber: () => toQuantity(app.latestBlock().height),
    eth_getBalance: (params) => {
      const address = params[0];
      if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
        throw new EvmRpcError(
          -32602,
          "invalid argument 0: hex string has length other than 40 or no 0x prefix",
        );
      }
      const height = blockTag(params[1], 1);
      if (height === undefined) throw new EvmRpcError(-32000, "header not found");
      const balanceMethod = dispatcher.method("/cosmos.bank.v1beta1.Query/Balance");
      if (balanceMethod === undefined)
        throw new EvmRpcError(-32603, "the bank query service is not available");
      const bech32 = addressBytesToBech32(fromHex(address)!);
      try {
        const request = create(cosmosBank.QueryBalanceRequestSchema, {
          address: bech32,
          denom: NATIVE_DENOM,
        });
        const latest = height === app.latestBlock().height;
        const { response } = dispatcher.query(balanceMethod, request, latest ? {} : { height });
        const amount = (response as cosmosBank.QueryBalanceResponse).balance?.amount ?? "0";
        return toQuantity(BigInt(amount === "" ? "0" : amount));
      } catch (error) {
        const e = ConnectError.from(error);
        throw new EvmRpcError(-32000, e.rawMessage);
      }
    },
    eth_getBlockByNumber: (params) => {
      const height = blockTag(params[0], 0);
      if (params[1] !== undefined && typeof params[1] !== "boolean") {
        throw new EvmRpcError(-32602, "invalid argument 1: expected a boolean (full transactions)");
      }
      if (height === undefined) return null;
      const block = app.block(height);
      return block === undefined ? null : evmBlockJson(block);
    },
  };

  const host = options.host ?? "127.0.0.1";
  const http = createJsonRpcHttpServer(methods, options.timeouts);
  const wsHttp = createHttpServer(options.timeouts, (_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" });
    res.end("use a WebSocket");
  });
  const sockets = new Set<WebSocket>();
  const wss = new OnDemandWebSocketServer({ maxPayload: 8 * 1024 * 1024 });
  // Every path upgrades (as a `ws` server attached to the HTTP server does, without a `path`).
  wsHttp.on("upgrade", (req: IncomingMessage, stream: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, stream, head, (socket) => onConnection(socket)),
  );
  const onConnection = (socket: WebSocket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const reply = answerJsonRpc(methods, data.toString());
      if (socket.readyState === 1) socket.send(JSON.stringify(reply));
    });
  };
  const [port, wsPort] = await Promise.all([
    listen(http, options.port ?? 8545, host),
    listen(wsHttp, options.wsPort ?? 8546, host),
  ]);
  return {
    url: urlOf("http", host, port),
    wsUrl: urlOf("ws", host, wsPort),
    port,
    wsPort,
    close: async () => {
      for (const socket of sockets) socket.terminate();
      wss.close();
      await Promise.all([closeServer(http), closeServer(wsHttp)]);
    },
  };
}
