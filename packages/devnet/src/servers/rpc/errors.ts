/** JSON-RPC errors as CometBFT answers them: a code, a message and a `data` text. */
import { PerpxError } from "@perpx/errors";
import type { Json } from "../comet-json.js";

/** JSON-RPC 2.0 error codes CometBFT uses. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** An error answered as a JSON-RPC error object; `rpcCode` is its JSON-RPC code. */
export class RpcError extends PerpxError {
  override name = "RpcError";
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data: string = "",
  ) {
    super(rpcCode === RpcErrorCode.InternalError ? "DEVNET" : "INVALID_ARGUMENT", message);
  }

  /** The `error` member of the response. */
  toJson(): Json {
    return { code: this.rpcCode, message: this.message, data: this.data };
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
function asRpcError(error: unknown): RpcError {
  return error instanceof RpcError ? error : internal(error instanceof Error ? error.message : String(error));
}

/** A JSON-RPC error response for request `id`. */
export function errorResponse(id: unknown, error: unknown): Json {
  return { jsonrpc: "2.0", id: id as Json, error: asRpcError(error).toJson() };
}

/**
 * The answer to a request that is not JSON, as CometBFT writes it: no `id` (its nil id is omitted),
 * code -32700, and what Go's decoder says of the text.
 *
 * @example
 * ```ts
 * parseErrorResponse("{");
 * // { jsonrpc: "2.0", error: { code: -32700, message: "Parse error. Invalid JSON",
 * //   data: "error unmarshaling request: unexpected end of JSON input" } }
 * ```
 */
export function parseErrorResponse(text: string): Json {
  return {
    jsonrpc: "2.0",
    error: {
      code: RpcErrorCode.ParseError,
      message: "Parse error. Invalid JSON",
      data: `error unmarshaling request: ${goJsonError(text)}`,
    },
  };
}

/** Go's `encoding/json` wording for the syntax error `JSON.parse` finds in `text`. */
function goJsonError(text: string): string {
  let message = "";
  try {
    JSON.parse(text);
    return "invalid character after top-level value";
  } catch (error) {
    message = error instanceof Error ? error.message : "";
  }
  const at = /at position (\d+)/.exec(message);
  const charAt = (n: number) => JSON.stringify(text[n] ?? "").slice(1, -1);
  const pastEnd = at !== null && Number(at[1]) >= text.trimEnd().length;
  if (pastEnd || /Unexpected end of JSON input|Unterminated string/.test(message)) {
    return "unexpected end of JSON input";
  }
  if (message.startsWith("Unexpected non-whitespace character after JSON") && at !== null) {
    return `invalid character '${charAt(Number(at[1]))}' after top-level value`;
  }
  if (message.startsWith("Expected property name") && at !== null) {
    return `invalid character '${charAt(Number(at[1]))}' looking for beginning of object key string`;
  }
  const token = /Unexpected token '(.)'/.exec(message);
  if (token !== null) return `invalid character '${token[1]}' looking for beginning of value`;
  if (at !== null) return `invalid character '${charAt(Number(at[1]))}' looking for beginning of value`;
  return "unexpected end of JSON input";
}
