/**
 * JSON-RPC 2.0 framing and routing: envelopes (single, batch, WebSocket), method lookup (WebSocket-
 * only methods refused over HTTP), params conversion, and the HTTP requests: POST envelopes,
 * `GET /<method>?...` with URI params, `GET /` listing the methods.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Json } from "../comet-json.js";
import { readBody, sendCorsPreflight, sendJson } from "../http.js";
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

/** Answers JSON-RPC requests over a method table (and, for WebSocket clients, the subscriptions). */
export interface RpcRouter {
  /** One envelope over HTTP (no `client`) or a WebSocket (its client). */
  answer(raw: unknown, client?: WsClient): Promise<Json>;
  /** An HTTP request (POST envelopes, GET by URI, OPTIONS preflight). */
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void>;
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

  const handlePost = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req, RPC_MAX_BODY_BYTES);
    const text = body.toString("utf8");
    if (body.length === 0) {
      sendMethodList(res);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      sendJson(res, 500, parseErrorResponse(text));
      return;
    }
    // A notification (no `id`) gets no answer, in a batch too; a batch of none gets an empty body.
    if (!Array.isArray(parsed)) {
      if (isNotification(parsed)) sendEmpty(res);
      else sendJson(res, 200, await answer(parsed));
      return;
    }
    const requests = parsed.filter((item) => !isNotification(item));
    const replies = await Promise.all(requests.map((item) => answer(item)));
    if (replies.length === 0) sendEmpty(res);
    else sendJson(res, 200, replies);
  };

  const sendEmpty = (res: ServerResponse): void => {
    res.writeHead(200, { "content-length": 0, "access-control-allow-origin": "*" });
    res.end();
  };

  const sendMethodList = (res: ServerResponse): void => {
    const links = Object.keys(methods)
      .map((m) => `<a href="/${m}">/${m}</a>`)
      .join("<br>\n");
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><body><br>Available endpoints:<br>\n${links}\n</body></html>`);
  };

  const handleGet = async (url: URL, res: ServerResponse): Promise<void> => {
    const method = url.pathname.replace(/^\/+/, "");
    if (method === "") {
      sendMethodList(res);
      return;
    }
    const id = -1;
    try {
      const result = await run(method, uriParams(specOf(method, false), url.searchParams));
      sendJson(res, 200, { jsonrpc: "2.0", id, result });
    } catch (error) {
      // CometBFT's URI handler answers 500 for a parameter it cannot convert as for a failed call.
      const status = error instanceof RpcError && error.rpcCode === RpcErrorCode.MethodNotFound ? 404 : 500;
      sendJson(res, status, errorResponse(id, error));
    }
  };

  return {
    answer,
    async handleHttp(req, res) {
      if (req.method === "OPTIONS") {
        sendCorsPreflight(res);
        return;
      }
      if (req.method === "POST") return handlePost(req, res);
      if (req.method === "GET") return handleGet(new URL(req.url ?? "/", "http://localhost"), res);
      sendJson(
        res,
        405,
        errorResponse(
          null,
          new RpcError(RpcErrorCode.InvalidRequest, "Invalid Request", `method ${req.method} not allowed`),
        ),
      );
    },
  };
}
