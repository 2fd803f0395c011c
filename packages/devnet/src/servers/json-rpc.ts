/**
 * The JSON-RPC 2.0 envelope of the devnet's Ethereum-style endpoints (this chain's EVM RPC and the
 * simulated source chains): one request or a batch, parse and envelope errors as geth answers them,
 * and the HTTP server around it (POST only, CORS preflight, body limits).
 */

import type { Server } from "node:http";
import { PerpxError } from "@perpx/errors";
import {
  BodyError,
  createHttpServer,
  readBody,
  type ServerTimeouts,
  sendCorsPreflight,
  sendJson,
} from "./http.js";

/**
 * An Ethereum JSON-RPC error; `rpcCode` is its JSON-RPC code and `data` a revert's ABI-encoded
 * reason, when there is one.
 */
export class EvmRpcError extends PerpxError {
  override readonly name = "EvmRpcError";

  /**
   * @param rpcCode - the JSON-RPC error code (-32603 internal, -32000 geth's server errors...).
   * @param message - the error's text as geth words it.
   * @param data - a revert's ABI-encoded reason.
   */
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: string,
  ) {
    super(rpcCode === -32603 ? "DEVNET" : "INVALID_ARGUMENT", message);
  }
}

/** A method: its positional params in, its result out (thrown {@link EvmRpcError}s become errors). */
export type JsonRpcHandler = (params: unknown[]) => unknown;

const failure = (id: unknown, code: number, message: string, data?: string) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/** The answer to one request object. */
function answerOne(methods: Readonly<Record<string, JsonRpcHandler>>, raw: unknown): unknown {
  let id: unknown = null;
  try {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw new EvmRpcError(-32600, "invalid request");
    const request = raw as { id?: unknown; method?: unknown; params?: unknown };
    id = request.id ?? null;
    if (typeof request.method !== "string")
      throw new EvmRpcError(-32600, "invalid request: method must be a string");
    const handler = methods[request.method];
    if (handler === undefined)
      throw new EvmRpcError(-32601, `the method ${request.method} does not exist/is not available`);
    const params = request.params ?? [];
    if (!Array.isArray(params)) throw new EvmRpcError(-32602, "invalid params: expected an array");
    return { jsonrpc: "2.0", id, result: handler(params) };
  } catch (error) {
    const e = error instanceof EvmRpcError ? error : new EvmRpcError(-32603, (error as Error).message);
    return failure(id, e.rpcCode, e.message, e.data);
  }
}

/** The answer to a request text: one request, or a batch (an empty one is an error of its own). */
export function answerJsonRpc(methods: Readonly<Record<string, JsonRpcHandler>>, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return failure(null, -32700, "parse error");
  }
  if (!Array.isArray(parsed)) return answerOne(methods, parsed);
  if (parsed.length === 0) return failure(null, -32600, "empty batch");
  return parsed.map((request) => answerOne(methods, request));
}

/** An HTTP server answering JSON-RPC POSTs with `methods` (not listening yet). */
export function createJsonRpcHttpServer(
  methods: Readonly<Record<string, JsonRpcHandler>>,
  timeouts?: Partial<ServerTimeouts>,
): Server {
  return createHttpServer(timeouts, (req, res) => {
    const handle = async () => {
      if (req.method === "OPTIONS") return sendCorsPreflight(res);
      if (req.method !== "POST") return sendJson(res, 405, failure(null, -32600, "use POST"));
      sendJson(res, 200, answerJsonRpc(methods, (await readBody(req)).toString("utf8")));
    };
    handle().catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else if (error instanceof BodyError) sendJson(res, error.status, failure(null, -32600, error.message));
      else sendJson(res, 500, failure(null, -32603, String(error)));
    });
  });
}
