/**
 * JSON-RPC 2.0 framing and routing: envelopes (single, batch, WebSocket), method lookup (WebSocket-
 * only methods refused over HTTP), params conversion, and the HTTP requests: POST envelopes,
 * `GET /<method>?...` with URI params, `GET /` listing the methods.
 */
import type { Json } from "../comet-json.js";
import { CORS_PREFLIGHT_REPLY, type HttpReply, jsonReply } from "../http.js";
import { errorResponse, internal, parseErrorResponse, RpcError, RpcErrorCode } from "./errors.js";
import { jsonParams, type MethodTable, type ParamSpec, uriParams } from "./params.js";
import { SUBSCRIPTION_PARAMS, type SubscriptionHub, type WsClient } from "./subscriptions.js";

/** CometBFT's `max_body_bytes` default: the largest JSON-RPC request body it reads. */
export const RPC_MAX_BODY_BYTES = 1_000_000;

/** A JSON-RPC notification: an object request without an `id` member (never answered). */
export function isNotification(item: unknown): boolean {
  return typeof item === "object" && item !== null && !Array.isArray(item) && !("id" in item);
}

interface Envelope {
  id: unknown;
  method: string;
  params: unknown;
}

function parseEnvelope(value: unknown): Envelope {
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
}

/** An HTTP request to the RPC, as data (its connection may be held by another thread). */
export interface RpcHttpRequest {
  /** The HTTP method (`POST`, `GET`, `OPTIONS`, ...). */
  readonly method: string;
  /** The request target: path and query. */
  readonly url: string;
  /** A POST's body as text; undefined for other methods and when it was {@link oversize}. */
  readonly body?: string;
  /** True when a POST's body was over {@link RPC_MAX_BODY_BYTES} (read to its end and dropped). */
  readonly oversize?: boolean;
}

/** Answers JSON-RPC requests over a method table (and, for WebSocket clients, the subscriptions). */
export interface RpcRouter {
  /** One envelope over HTTP (no `client`) or a WebSocket (its client). */
  answer(raw: unknown, client?: WsClient): Promise<Json>;
  /** The answer to an HTTP request (POST envelopes, GET by URI, OPTIONS preflight); never rejects. */
  respond(request: RpcHttpRequest): Promise<HttpReply>;
}

/** A router over `methods` and the WebSocket-only methods of `hub`. */
export function createRouter(methods: MethodTable, hub: SubscriptionHub): RpcRouter {
  const specOf = (method: string, overWs: boolean): ParamSpec => {
    const wsOnly = SUBSCRIPTION_PARAMS[method];
    if (wsOnly !== undefined) {
      if (!overWs) throw internal(`${method} is only available over WebSocket (/websocket)`);
      return wsOnly;
    }
    const spec = methods[method]?.params;
    if (spec === undefined) throw new RpcError(RpcErrorCode.MethodNotFound, "Method not found", method);
    return spec;
  };

  const run = async (method: string, params: ReturnType<typeof jsonParams>): Promise<Json> => {
    const handler = methods[method];
    if (handler === undefined) throw new RpcError(RpcErrorCode.MethodNotFound, "Method not found", method);
    return handler.run(params);
  };

  const answer = async (raw: unknown, client?: WsClient): Promise<Json> => {
    let id: unknown = null;
    try {
      const envelope = parseEnvelope(raw);
      id = envelope.id;
      const params = jsonParams(specOf(envelope.method, client !== undefined), envelope.params);
      const result =
        client !== undefined && SUBSCRIPTION_PARAMS[envelope.method] !== undefined
          ? hub.call(client, envelope.method, params, id)
          : await run(envelope.method, params);
      return { jsonrpc: "2.0", id: id as Json, result };
    } catch (error) {
      return errorResponse(id, error);
    }
  };

  const respondPost = async (text: string): Promise<HttpReply> => {
    if (text.length === 0) return methodListReply();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return jsonReply(500, parseErrorResponse(text));
    }
    // A notification (no `id`) gets no answer, in a batch too; a batch of none gets an empty body.
    if (!Array.isArray(parsed))
      return isNotification(parsed) ? EMPTY_REPLY : jsonReply(200, await answer(parsed));
    const requests = parsed.filter((item) => !isNotification(item));
    const replies = await Promise.all(requests.map((item) => answer(item)));
    return replies.length === 0 ? EMPTY_REPLY : jsonReply(200, replies);
  };

  const methodListReply = (): HttpReply => {
    const links = Object.keys(methods)
      .map((m) => `<a href="/${m}">/${m}</a>`)
      .join("<br>\n");
    return {
      status: 200,
      headers: { "content-type": "text/html" },
      body: `<html><body><br>Available endpoints:<br>\n${links}\n</body></html>`,
    };
  };

  const respondGet = async (url: URL): Promise<HttpReply> => {
    const method = url.pathname.replace(/^\/+/, "");
    if (method === "") return methodListReply();
    const id = -1;
    try {
      const result = await run(method, uriParams(specOf(method, false), url.searchParams));
      return jsonReply(200, { jsonrpc: "2.0", id, result });
    } catch (error) {
      const status =
        error instanceof RpcError && error.rpcCode === RpcErrorCode.InvalidParams
          ? 400
          : error instanceof RpcError && error.rpcCode === RpcErrorCode.MethodNotFound
            ? 404
            : 500;
      return jsonReply(status, errorResponse(id, error));
    }
  };

  const respond = async (request: RpcHttpRequest): Promise<HttpReply> => {
    const { method } = request;
    if (method === "OPTIONS") return CORS_PREFLIGHT_REPLY;
    if (method === "POST") {
      // CometBFT reads the body through http.MaxBytesReader: 400, Invalid Request, Go's text.
      if (request.oversize === true) return TOO_LARGE_REPLY;
      return respondPost(request.body ?? "");
    }
    if (method === "GET") return respondGet(new URL(request.url, "http://localhost"));
    return jsonReply(
      405,
      errorResponse(
        null,
        new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", `method ${method} not allowed`),
      ),
    );
  };

  return {
    answer,
    respond: (request) =>
      respond(request).catch((error: unknown) => jsonReply(500, errorResponse(null, error))),
  };
}

/** The answer to a POST of notifications only: 200, no body. */
const EMPTY_REPLY: HttpReply = {
  status: 200,
  headers: { "content-length": 0, "access-control-allow-origin": "*" },
  body: "",
};

/** The answer to a body over {@link RPC_MAX_BODY_BYTES}, as CometBFT's `http.MaxBytesReader` words it. */
const TOO_LARGE_REPLY: HttpReply = jsonReply(400, {
  jsonrpc: "2.0",
  error: {
    code: RpcErrorCode.InvalidRequest,
    message: "Invalid Request",
    data: "error reading request body: http: request body too large",
  },
});
