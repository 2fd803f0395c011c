/** JSON-RPC errors as CometBFT answers them: a code, a message and a `data` text. */
import type { Json } from "../comet-json.js";

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

/** An internal error (-32603) carrying `data`, as CometBFT reports most method failures. */
export function internal(data: string): RpcError {
  return new RpcError(RpcErrorCode.InternalError, "Internal error", data);
}

/** An invalid-params error (-32602) naming the parameter and the problem. */
export function invalidParam(name: string, problem: string): RpcError {
  const text = `${name}: ${problem}`;
  return new RpcError(RpcErrorCode.InvalidParams, `Invalid params: ${text}`, text);
}

/** `error` as an {@link RpcError}: itself, or an internal error with its message. */
export function asRpcError(error: unknown): RpcError {
  return error instanceof RpcError ? error : internal(error instanceof Error ? error.message : String(error));
}

/** A JSON-RPC error response for request `id`. */
export function errorResponse(id: unknown, error: unknown): Json {
  return { jsonrpc: "2.0", id: id as Json, error: asRpcError(error).toJson() };
}
