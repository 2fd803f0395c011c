/**
 * CometBFT JSON-RPC (0.38) over HTTP and WebSocket. HTTP takes POSTed JSON-RPC 2.0 envelopes (single
 * or batch) and `GET /<method>?param=value` with CometBFT's URI conventions; `/websocket` takes the
 * same envelopes plus `subscribe`, `unsubscribe` and `unsubscribe_all`.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { BlockRecord, ChainApp, TxResult } from "../app/contract.js";
import {
  appHashAfter,
  blockIdJson,
  blockJson,
  blockMetaJson,
  blockResponseJson,
  blockResultsJson,
  commitJson,
  consensusParamsJson,
  finalizeBlockJson,
  flattenEvents,
  headerJson,
  indexedTxJson,
  type Json,
  peerJson,
  statusJson,
  txResultJson,
  validatorPubKeyJson,
} from "./comet-json.js";
import { fromBase64, fromHex, parseUint, toBase64, toHexUpper } from "./encoding.js";
import { BodyError, closeServer, listen, readBody, sendCorsPreflight, sendJson, urlOf } from "./http.js";
import { type Condition, matches, parseQuery, QuerySyntaxError } from "./query.js";

/** JSON-RPC 2.0 error codes CometBFT uses. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** An error answered as a JSON-RPC error object. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data: string = "",
  ) {
    super(message);
  }

  /** The `error` member of the response. */
  toJson(): Json {
    return { code: this.code, message: this.message, data: this.data };
  }
}

function internal(data: string): RpcError {
  return new RpcError(RpcErrorCode.InternalError, "Internal error", data);
}

function invalidParam(name: string, problem: string): RpcError {
  const text = `${name}: ${problem}`;
  return new RpcError(RpcErrorCode.InvalidParams, `Invalid params: ${text}`, text);
}

type Kind = "string" | "int" | "hexbytes" | "bytes" | "bool";
type Value = string | bigint | Uint8Array | boolean;
type Params = Record<string, Value | undefined>;

interface MethodSpec {
  params: ReadonlyArray<readonly [string, Kind]>;
  wsOnly?: boolean;
}

const SPECS: Record<string, MethodSpec> = {
  health: { params: [] },
  status: { params: [] },
  net_info: { params: [] },
  abci_info: { params: [] },
  abci_query: {
    params: [
      ["path", "string"],
      ["data", "hexbytes"],
      ["height", "int"],
      ["prove", "bool"],
    ],
  },
  broadcast_tx_sync: { params: [["tx", "bytes"]] },
  broadcast_tx_async: { params: [["tx", "bytes"]] },
  broadcast_tx_commit: { params: [["tx", "bytes"]] },
  check_tx: { params: [["tx", "bytes"]] },
  tx: {
    params: [
      ["hash", "bytes"],
      ["prove", "bool"],
    ],
  },
  tx_search: {
    params: [
      ["query", "string"],
      ["prove", "bool"],
      ["page", "int"],
      ["per_page", "int"],
      ["order_by", "string"],
    ],
  },
  block: { params: [["height", "int"]] },
  block_by_hash: { params: [["hash", "bytes"]] },
  header: { params: [["height", "int"]] },
  block_results: { params: [["height", "int"]] },
  blockchain: {
    params: [
      ["minHeight", "int"],
      ["maxHeight", "int"],
    ],
  },
  genesis: { params: [] },
  validators: {
    params: [
      ["height", "int"],
      ["page", "int"],
      ["per_page", "int"],
    ],
  },
  commit: { params: [["height", "int"]] },
  consensus_params: { params: [["height", "int"]] },
  num_unconfirmed_txs: { params: [["limit", "int"]] },
  subscribe: { params: [["query", "string"]], wsOnly: true },
  unsubscribe: { params: [["query", "string"]], wsOnly: true },
  unsubscribe_all: { params: [], wsOnly: true },
};

/** Converts one JSON (POST or WebSocket) parameter. */
function fromJsonParam(name: string, kind: Kind, raw: unknown): Value | undefined {
  if (raw === undefined || raw === null) return undefined;
  switch (kind) {
    case "string":
      if (typeof raw !== "string") throw invalidParam(name, "must be a string");
      return raw;
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      throw invalidParam(name, "must be a boolean");
    case "int": {
      if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
      if (typeof raw === "string") {
        if (raw === "") return undefined;
        const v = parseUint(raw);
        if (v !== undefined) return v;
      }
      throw invalidParam(name, `must be a non-negative integer (got ${JSON.stringify(raw)})`);
    }
    case "hexbytes": {
      if (typeof raw !== "string") throw invalidParam(name, "must be a hex string");
      const bytes = fromHex(raw);
      if (bytes === undefined) throw invalidParam(name, "must be hex");
      return bytes;
    }
    case "bytes": {
      if (typeof raw !== "string") throw invalidParam(name, "must be a base64 string");
      const bytes = fromBase64(raw);
      if (bytes === undefined) throw invalidParam(name, "must be base64");
      return bytes;
    }
  }
}

function unquote(text: string): string | undefined {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(text);
      return typeof v === "string" ? v : undefined;
    } catch {
      return text.slice(1, -1);
    }
  }
  return undefined;
}

/** Converts one URI (`GET /method?name=value`) parameter by CometBFT's conventions. */
function fromUriParam(name: string, kind: Kind, raw: string): Value | undefined {
  switch (kind) {
    case "string":
      return unquote(raw) ?? raw;
    case "bool": {
      const text = unquote(raw) ?? raw;
      if (text === "true" || text === "false") return text === "true";
      throw invalidParam(name, "must be true or false");
    }
    case "int": {
      const text = unquote(raw) ?? raw;
      if (text === "") return undefined;
      const v = parseUint(text);
      if (v === undefined) throw invalidParam(name, `must be a non-negative integer (got ${raw})`);
      return v;
    }
    case "hexbytes":
    case "bytes": {
      if (raw.startsWith("0x") || raw.startsWith("0X")) {
        const bytes = fromHex(raw);
        if (bytes === undefined) throw invalidParam(name, "must be 0x-prefixed hex");
        return bytes;
      }
      const text = unquote(raw);
      if (text !== undefined) return new Uint8Array(Buffer.from(text, "utf8"));
      throw invalidParam(name, 'must be 0x-prefixed hex or a "quoted string"');
    }
  }
}

function jsonParams(spec: MethodSpec, raw: unknown): Params {
  const params: Params = {};
  if (raw === undefined || raw === null) return params;
  if (Array.isArray(raw)) {
    spec.params.forEach(([name, kind], i) => {
      params[name] = fromJsonParam(name, kind, raw[i]);
    });
    return params;
  }
  if (typeof raw !== "object") {
    throw new RpcError(RpcErrorCode.InvalidParams, "Invalid params: params must be an object or an array");
  }
  const object = raw as Record<string, unknown>;
  for (const [name, kind] of spec.params) params[name] = fromJsonParam(name, kind, object[name]);
  return params;
}

function uriParams(spec: MethodSpec, search: URLSearchParams): Params {
  const params: Params = {};
  for (const [name, kind] of spec.params) {
    const raw = search.get(name);
    if (raw !== null) params[name] = fromUriParam(name, kind, raw);
  }
  return params;
}

/** Options of {@link startRpcServer}. */
export interface RpcServerOptions {
  /** The chain application the server reads and broadcasts to. */
  app: ChainApp;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port to bind; 0 picks a free port. @default 26657 */
  port?: number;
  /** How long `broadcast_tx_commit` waits for the tx to land in a block. @default 10000 */
  broadcastTxCommitTimeoutMs?: number;
  /** Most subscriptions one WebSocket client may hold. @default 100 */
  maxSubscriptionsPerClient?: number;
}

/** A running CometBFT RPC server. */
export interface RpcServer {
  /** `http://host:port`; the WebSocket endpoint is `ws://host:port/websocket`. */
  readonly url: string;
  readonly websocketUrl: string;
  readonly port: number;
  /** Answers one JSON-RPC call as the HTTP endpoint would (for tests and in-process callers). */
  call(method: string, params?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

interface Subscription {
  query: string;
  conditions: Condition[];
  id: unknown;
}

interface WsClient {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
}

interface CommitWaiter {
  hash: Uint8Array;
  resolve: (height: bigint | undefined) => void;
}

function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(bytes).digest());
}

/**
 * Starts the CometBFT JSON-RPC server (HTTP and `/websocket`) over `app`.
 *
 * @param options - the application, interface and port.
 * @returns the running server; `close()` stops it and drops its WebSocket clients.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const rpc = await startRpcServer({ app, port: 0 });
 * const status = (await rpc.call("status")) as { node_info: { network: string } };
 * status.node_info.network; // "perpx-local-1"
 * await rpc.close();
 * await devnet.stop();
 * ```
 */
export async function startRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  const { app } = options;
  const host = options.host ?? "127.0.0.1";
  const commitTimeoutMs = options.broadcastTxCommitTimeoutMs ?? 10_000;
  const maxSubscriptions = options.maxSubscriptionsPerClient ?? 100;
  const clients = new Set<WsClient>();
  const waiters = new Set<CommitWaiter>();
  let rpcAddress = "tcp://127.0.0.1:26657";

  const heightOrLatest = (height: Value | undefined): bigint => {
    const latest = app.latestBlock().height;
    if (height === undefined || height === 0n) return latest;
    const h = height as bigint;
    if (h > latest) {
      throw internal(`height ${h} must be less than or equal to the current blockchain height ${latest}`);
    }
    const base = app.info.initialHeight;
    if (h < base) throw internal(`height ${h} is not available, lowest height is ${base}`);
    return h;
  };

  const blockAt = (height: Value | undefined): BlockRecord => {
    const h = heightOrLatest(height);
    const block = app.block(h);
    if (block === undefined) throw internal(`block at height ${h} not found`);
    return block;
  };

  const checkTx = (tx: Uint8Array): TxResult => {
    try {
      return app.checkTx(tx);
    } catch (error) {
      throw internal(error instanceof Error ? error.message : String(error));
    }
  };

  const requireBytes = (params: Params, name: string): Uint8Array => {
    const v = params[name];
    if (!(v instanceof Uint8Array)) throw invalidParam(name, "is required");
    return v;
  };

  const validatorsJson = (height: bigint): Json => ({
    block_height: height.toString(),
    validators: [
      {
        address: toHexUpper(app.info.validator.address),
        pub_key: validatorPubKeyJson(app.info),
        voting_power: app.info.validator.votingPower.toString(),
        proposer_priority: "0",
      },
    ],
    count: "1",
    total: "1",
  });

  const handlers: Record<string, (params: Params) => Json | Promise<Json>> = {
    health: () => ({}),
    status: () => statusJson(app, { rpcAddress }),
    net_info: () => ({
      listening: true,
      listeners: ["Listener(@tcp://0.0.0.0:26656)"],
      n_peers: "1",
      peers: [peerJson(app.info)],
    }),
    abci_info: () => {
      const latest = app.latestBlock();
      return {
        response: {
          data: "perpx",
          version: app.info.appVersion,
          app_version: "0",
          last_block_height: latest.height.toString(),
          last_block_app_hash: toBase64(appHashAfter(app, latest)),
        },
      };
    },
    abci_query: (params) => {
      const path = params.path;
      if (typeof path !== "string" || path === "") throw invalidParam("path", "is required");
      const data = (params.data as Uint8Array | undefined) ?? new Uint8Array();
      const height = params.height as bigint | undefined;
      if (params.prove === true) {
        // Proofs are not produced by the devnet; the answer is the same without them.
      }
      let result: ReturnType<ChainApp["query"]>;
      try {
        result =
          height === undefined || height === 0n ? app.query(path, data) : app.query(path, data, height);
      } catch (error) {
        throw internal(error instanceof Error ? error.message : String(error));
      }
      const queryHeight = result.height > 0n ? result.height : app.latestBlock().height;
      return {
        response: {
          code: result.code,
          log: result.log,
          info: "",
          index: "0",
          key: null,
          value: result.code === 0 ? toBase64(result.value) : null,
          proofOps: null,
          height: queryHeight.toString(),
          codespace: result.codespace,
        },
      };
    },
    check_tx: (params) => txResultJson(checkTx(requireBytes(params, "tx"))),
    broadcast_tx_sync: (params) => {
      const tx = requireBytes(params, "tx");
      const result = checkTx(tx);
      return {
        code: result.code,
        data: toBase64(result.data),
        log: result.log,
        codespace: result.codespace,
        hash: toHexUpper(sha256(tx)),
      };
    },
    broadcast_tx_async: (params) => {
      const tx = requireBytes(params, "tx");
      setImmediate(() => {
        try {
          app.checkTx(tx);
        } catch {
          // An async broadcast reports nothing about CheckTx.
        }
      });
      return { code: 0, data: "", log: "", codespace: "", hash: toHexUpper(sha256(tx)) };
    },
    broadcast_tx_commit: async (params) => {
      const tx = requireBytes(params, "tx");
      const hash = sha256(tx);
      const check = checkTx(tx);
      if (check.code !== 0) {
        return { check_tx: txResultJson(check), tx_result: {}, hash: toHexUpper(hash), height: "0" };
      }
      const height = await new Promise<bigint | undefined>((resolve) => {
        const waiter: CommitWaiter = {
          hash,
          resolve: (h) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(h);
          },
        };
        const timer = setTimeout(() => waiter.resolve(undefined), commitTimeoutMs);
        waiters.add(waiter);
      });
      const indexed = app.tx(hash);
      if (height === undefined || indexed === undefined) {
        throw internal("timed out waiting for tx to be included in a block");
      }
      return {
        check_tx: txResultJson(check),
        tx_result: txResultJson(indexed.result),
        hash: toHexUpper(hash),
        height: indexed.height.toString(),
      };
    },
    tx: (params) => {
      const hash = requireBytes(params, "hash");
      const indexed = app.tx(hash);
      if (indexed === undefined) throw internal(`tx (${toHexUpper(hash)}) not found`);
      return indexedTxJson(indexed);
    },
    tx_search: (params) => {
      const query = params.query;
      if (typeof query !== "string" || query === "") throw invalidParam("query", "is required");
      const orderBy = (params.order_by as string | undefined) ?? "";
      if (orderBy !== "" && orderBy !== "asc" && orderBy !== "desc") {
        throw invalidParam("order_by", 'must be "asc" or "desc"');
      }
      const perPageRaw = (params.per_page as bigint | undefined) ?? 30n;
      const perPage = Number(perPageRaw < 1n ? 30n : perPageRaw > 100n ? 100n : perPageRaw);
      let found: ReturnType<ChainApp["searchTxs"]>;
      try {
        found = app.searchTxs(query, orderBy === "desc" ? "desc" : "asc");
      } catch (error) {
        if (error instanceof Error && error.name === "QuerySyntaxError")
          throw invalidParam("query", error.message);
        throw internal(error instanceof Error ? error.message : String(error));
      }
      const pages = Math.max(1, Math.ceil(found.length / perPage));
      const page = Number((params.page as bigint | undefined) ?? 1n);
      if (page < 1 || page > pages) {
        throw internal(`page should be within [1, ${pages}] range, given ${page}`);
      }
      const slice = found.slice((page - 1) * perPage, page * perPage);
      return { txs: slice.map(indexedTxJson), total_count: found.length.toString() };
    },
    block: (params) => blockResponseJson(app, blockAt(params.height)),
    block_by_hash: (params) => {
      const hash = requireBytes(params, "hash");
      const wanted = toHexUpper(hash);
      for (let h = app.latestBlock().height; h >= app.info.initialHeight; h--) {
        const block = app.block(h);
        if (block !== undefined && toHexUpper(block.hash) === wanted) return blockResponseJson(app, block);
      }
      return { block_id: { hash: "", parts: { total: 0, hash: "" } }, block: null };
    },
    header: (params) => ({ header: headerJson(blockAt(params.height), app.info) }),
    block_results: (params) => blockResultsJson(app, blockAt(params.height)),
    blockchain: (params) => {
      const latest = app.latestBlock().height;
      const base = app.info.initialHeight;
      let max = (params.maxHeight as bigint | undefined) ?? 0n;
      let min = (params.minHeight as bigint | undefined) ?? 0n;
      if (max === 0n || max > latest) max = latest;
      if (min === 0n) min = base;
      if (min < base) min = base;
      if (max - min >= 20n) min = max - 19n;
      if (min > max) throw internal(`min height ${min} can't be greater than max height ${max}`);
      const metas: Json[] = [];
      for (let h = max; h >= min; h--) {
        const block = app.block(h);
        if (block !== undefined) metas.push(blockMetaJson(app, block));
      }
      return { last_height: latest.toString(), block_metas: metas };
    },
    genesis: () => ({ genesis: app.genesisJson() as Json }),
    validators: (params) => {
      const height = heightOrLatest(params.height);
      const page = (params.page as bigint | undefined) ?? 1n;
      if (page !== 1n) throw internal(`page should be within [1, 1] range, given ${page}`);
      return validatorsJson(height);
    },
    commit: (params) => {
      const block = blockAt(params.height);
      return {
        signed_header: { header: headerJson(block, app.info), commit: commitJson(block, app.info) },
        canonical: block.height < app.latestBlock().height,
      };
    },
    consensus_params: (params) => ({
      block_height: heightOrLatest(params.height).toString(),
      consensus_params: consensusParamsJson(),
    }),
    num_unconfirmed_txs: () => {
      const n = app.pendingTxCount().toString();
      return { n_txs: n, total: n, total_bytes: "0", txs: null };
    },
  };

  /** Runs one method with already-converted params. */
  const run = async (method: string, params: Params): Promise<Json> => {
    const handler = handlers[method];
    if (handler === undefined) throw new RpcError(RpcErrorCode.MethodNotFound, "Method not found", method);
    return handler(params);
  };

  const specOf = (method: string, transport: "http" | "ws"): MethodSpec => {
    const spec = SPECS[method];
    if (spec === undefined) throw new RpcError(RpcErrorCode.MethodNotFound, "Method not found", method);
    if (spec.wsOnly === true && transport === "http") {
      throw internal(`${method} is only available over WebSocket (/websocket)`);
    }
    return spec;
  };

  interface Envelope {
    id: unknown;
    method: string;
    params: unknown;
  }

  const parseEnvelope = (value: unknown): Envelope => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", "request must be an object");
    }
    const v = value as Record<string, unknown>;
    if (v.jsonrpc !== "2.0") {
      throw new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", 'jsonrpc must be "2.0"');
    }
    if (typeof v.method !== "string") {
      throw new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", "method must be a string");
    }
    return { id: v.id ?? null, method: v.method, params: v.params };
  };

  const errorResponse = (id: unknown, error: unknown): Json => {
    const e =
      error instanceof RpcError ? error : internal(error instanceof Error ? error.message : String(error));
    return { jsonrpc: "2.0", id: id as Json, error: e.toJson() };
  };

  /** One envelope over HTTP or WebSocket; undefined for notifications over HTTP batches. */
  const answer = async (
    raw: unknown,
    transport: "http" | "ws",
    client?: WsClient,
  ): Promise<Json | undefined> => {
    let id: unknown = null;
    try {
      const envelope = parseEnvelope(raw);
      id = envelope.id;
      const spec = specOf(envelope.method, transport);
      const params = jsonParams(spec, envelope.params);
      let result: Json;
      if (client !== undefined && spec.wsOnly === true) {
        result = wsMethod(client, envelope.method, params, id);
      } else {
        result = await run(envelope.method, params);
      }
      return { jsonrpc: "2.0", id: id as Json, result };
    } catch (error) {
      return errorResponse(id, error);
    }
  };

  // ---- WebSocket subscriptions -------------------------------------------------------------------

  const wsMethod = (client: WsClient, method: string, params: Params, id: unknown): Json => {
    if (method === "unsubscribe_all") {
      client.subscriptions.clear();
      return {};
    }
    const query = params.query;
    if (typeof query !== "string" || query === "") throw invalidParam("query", "is required");
    if (method === "unsubscribe") {
      if (!client.subscriptions.delete(query)) throw internal("subscription not found");
      return {};
    }
    let conditions: Condition[];
    try {
      conditions = parseQuery(query);
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw invalidParam("query", error.message);
      throw error;
    }
    if (client.subscriptions.has(query)) throw internal("already subscribed");
    if (client.subscriptions.size >= maxSubscriptions) {
      throw internal(`max_subscriptions_per_client ${maxSubscriptions} reached`);
    }
    client.subscriptions.set(query, { query, conditions, id });
    return {};
  };

  interface Candidate {
    events: Record<string, string[]>;
    data: () => Json;
  }

  const candidatesOf = (block: BlockRecord): Candidate[] => {
    const height = block.height.toString();
    let blockData: Json | undefined;
    const list: Candidate[] = [
      {
        events: flattenEvents(block.finalizeBlockEvents, { "tm.event": ["NewBlock"] }),
        data: () => {
          blockData ??= {
            type: "tendermint/event/NewBlock",
            value: {
              block: blockJson(app, block),
              block_id: blockIdJson(block.hash),
              result_finalize_block: finalizeBlockJson(app, block),
            },
          };
          return blockData;
        },
      },
      {
        events: flattenEvents(block.finalizeBlockEvents, { "tm.event": ["NewBlockHeader"] }),
        data: () => ({
          type: "tendermint/event/NewBlockHeader",
          value: { header: headerJson(block, app.info) },
        }),
      },
    ];
    block.txs.forEach((tx, index) => {
      const result = block.txResults[index];
      if (result === undefined) return;
      list.push({
        events: flattenEvents(result.events, {
          "tm.event": ["Tx"],
          "tx.hash": [toHexUpper(sha256(tx))],
          "tx.height": [height],
        }),
        data: () => ({
          type: "tendermint/event/Tx",
          value: { TxResult: { height, index, tx: toBase64(tx), result: txResultJson(result) } },
        }),
      });
    });
    return list;
  };

  const onBlock = (block: BlockRecord): void => {
    for (const waiter of [...waiters]) {
      if (app.tx(waiter.hash) !== undefined) waiter.resolve(block.height);
    }
    if (clients.size === 0) return;
    let candidates: Candidate[] | undefined;
    for (const client of clients) {
      if (client.subscriptions.size === 0 || client.socket.readyState !== 1) continue;
      candidates ??= candidatesOf(block);
      for (const sub of client.subscriptions.values()) {
        for (const candidate of candidates) {
          if (!matches(sub.conditions, candidate.events)) continue;
          const message = {
            jsonrpc: "2.0",
            id: sub.id,
            result: { query: sub.query, data: candidate.data(), events: candidate.events },
          };
          client.socket.send(JSON.stringify(message));
        }
      }
    }
  };
  const unsubscribeBlocks = app.onBlock(onBlock);

  // ---- HTTP ------------------------------------------------------------------------------------------

  const handleHttp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "OPTIONS") {
      sendCorsPreflight(res);
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "POST") {
      const body = await readBody(req);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        sendJson(
          res,
          200,
          errorResponse(null, new RpcError(RpcErrorCode.ParseError, "Parse error", "invalid JSON")),
        );
        return;
      }
      if (Array.isArray(parsed)) {
        if (parsed.length === 0) {
          sendJson(
            res,
            200,
            errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", "empty batch")),
          );
          return;
        }
        const answers = await Promise.all(parsed.map((item) => answer(item, "http")));
        sendJson(
          res,
          200,
          answers.filter((a) => a !== undefined),
        );
        return;
      }
      sendJson(res, 200, await answer(parsed, "http"));
      return;
    }
    if (req.method === "GET") {
      const method = url.pathname.replace(/^\/+/, "");
      if (method === "") {
        const links = Object.keys(SPECS)
          .filter((m) => SPECS[m]?.wsOnly !== true)
          .map((m) => `<a href="/${m}">/${m}</a>`)
          .join("<br>\n");
        const html = `<html><body><br>Available endpoints:<br>\n${links}\n</body></html>`;
        res.writeHead(200, { "content-type": "text/html" });
        res.end(html);
        return;
      }
      const id = -1;
      try {
        const spec = specOf(method, "http");
        const result = await run(method, uriParams(spec, url.searchParams));
        sendJson(res, 200, { jsonrpc: "2.0", id, result });
      } catch (error) {
        const status = error instanceof RpcError && error.code === RpcErrorCode.MethodNotFound ? 404 : 500;
        sendJson(
          res,
          error instanceof RpcError && error.code === RpcErrorCode.InvalidParams ? 400 : status,
          errorResponse(id, error),
        );
      }
      return;
    }
    sendJson(
      res,
      405,
      errorResponse(
        null,
        new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", `method ${req.method} not allowed`),
      ),
    );
  };

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else if (error instanceof BodyError) {
        sendJson(
          res,
          error.status,
          errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", error.message)),
        );
      } else sendJson(res, 500, errorResponse(null, error));
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/websocket" && path !== "/websocket/") {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const client: WsClient = { socket: ws, subscriptions: new Map() };
      clients.add(client);
      ws.on("close", () => clients.delete(client));
      ws.on("error", () => clients.delete(client));
      ws.on("message", (data, isBinary) => {
        if (isBinary) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.toString());
        } catch {
          ws.send(
            JSON.stringify(
              errorResponse(null, new RpcError(RpcErrorCode.ParseError, "Parse error", "invalid JSON")),
            ),
          );
          return;
        }
        const items = Array.isArray(parsed) ? parsed : [parsed];
        for (const item of items) {
          answer(item, "ws", client)
            .then((reply) => {
              if (reply !== undefined && ws.readyState === 1) ws.send(JSON.stringify(reply));
            })
            .catch(() => undefined);
        }
      });
    });
  });

  const port = await listen(server, options.port ?? 26657, host);
  rpcAddress = `tcp://${host}:${port}`;
  const url = urlOf("http", host, port);

  return {
    url,
    websocketUrl: `${urlOf("ws", host, port)}/websocket`,
    port,
    call: async (method, params) => {
      const reply = (await answer({ jsonrpc: "2.0", id: 0, method, params }, "http")) as {
        result?: unknown;
        error?: { code: number; message: string; data: string };
      };
      if (reply.error !== undefined)
        throw new RpcError(reply.error.code, reply.error.message, reply.error.data);
      return reply.result;
    },
    close: async () => {
      unsubscribeBlocks();
      for (const waiter of [...waiters]) waiter.resolve(undefined);
      for (const client of clients) client.socket.terminate();
      clients.clear();
      wss.close();
      await closeServer(server);
    },
  };
}
