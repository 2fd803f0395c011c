/**
 * gRPC-web, as a Cosmos SDK node serves it on its API port (`grpc-web.enable`, with
 * `enabled-unsafe-cors`): unary calls over HTTP/1.1 or HTTP/2 in `application/grpc-web(+proto)` and
 * the base64 `application/grpc-web-text(+proto)`, open to pages of any origin (CORS preflight
 * answered, the gRPC headers exposed). Calls go to the same {@link Dispatcher} as gRPC and REST.
 *
 * Wire format (grpc/grpc PROTOCOL-WEB.md): the body is length-prefixed frames, a flag byte (0x00
 * data, 0x80 trailers) and a 4-byte big-endian length; the trailers frame carries
 * `grpc-status`, `grpc-message` and the height as HTTP/1 header lines. The text variant is the same
 * bytes in base64, possibly as several padded chunks.
 */
import { type DescMethod, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Dispatcher } from "./dispatch.js";
import { HEIGHT_HEADER, parseHeight } from "./grpc.js";
import { BodyError, readBody } from "./http.js";

/** The part of a Node HTTP/1 or HTTP/2 compatibility request this module reads. */
type WebRequest = Parameters<typeof readBody>[0];

/** The part of a Node HTTP/1 or HTTP/2 compatibility response this module writes. */
interface WebResponse {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(body?: Uint8Array | string): unknown;
}

const FRAME_DATA = 0x00;
const FRAME_COMPRESSED = 0x01;
const FRAME_TRAILERS = 0x80;

/** Headers a gRPC-web response exposes to the page that made the call. */
const EXPOSED_HEADERS = ["grpc-status", "grpc-message", "grpc-status-details-bin", HEIGHT_HEADER].join(", ");

/** Request headers a gRPC-web client sends (connect-web, grpc-web, improbable-eng). */
const ALLOWED_HEADERS = [
  "content-type",
  "x-grpc-web",
  "x-user-agent",
  "grpc-timeout",
  "connect-protocol-version",
  HEIGHT_HEADER,
  "authorization",
  "x-api-key",
].join(", ");

function header(req: WebRequest, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** True when the request is a gRPC-web call (`POST` with a `application/grpc-web*` content type). */
export function isGrpcWebCall(req: WebRequest): boolean {
  return req.method === "POST" && /^application\/grpc-web(-text)?([+;]|$)/i.test(header(req, "content-type"));
}

/**
 * True when the request is the CORS preflight of a gRPC-web call: an `OPTIONS` asking to send
 * `x-grpc-web` or a gRPC header, or to a `/package.Service/Method` path the dispatcher serves.
 */
export function isGrpcWebPreflight(req: WebRequest, dispatcher: Dispatcher): boolean {
  if (req.method !== "OPTIONS") return false;
  const asked = header(req, "access-control-request-headers").toLowerCase();
  if (/(^|[\s,])x-grpc-web([\s,]|$)/.test(asked)) return true;
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  return dispatcher.method(path) !== undefined;
}

/** Concatenates length-prefixed frames. */
function frame(flag: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, payload.length, false);
  out.set(payload, 5);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Decodes a grpc-web-text body: base64, possibly several padded chunks one after another.
 *
 * @throws {ConnectError} (`InvalidArgument`) for text that is not base64.
 */
export function decodeGrpcWebText(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/=]*$/.test(compact)) {
    throw new ConnectError("grpc-web-text body is not base64", Code.InvalidArgument);
  }
  // Each chunk ends at its padding; split after a run of `=` that is followed by more data.
  const chunks = compact.split(/(?<==)(?=[^=])/);
  return concat(chunks.map((chunk) => new Uint8Array(Buffer.from(chunk, "base64"))));
}

/**
 * The one message of a unary request body.
 *
 * @throws {ConnectError} for a compressed, truncated or multi-message body.
 */
export function unaryPayload(body: Uint8Array): Uint8Array {
  if (body.length < 5) throw new ConnectError("grpc-web body has no message frame", Code.InvalidArgument);
  const flag = body[0]!;
  if (flag & FRAME_COMPRESSED) {
    throw new ConnectError("compressed grpc-web messages are not supported", Code.Unimplemented);
  }
  if (flag !== FRAME_DATA)
    throw new ConnectError(`unexpected grpc-web frame flag ${flag}`, Code.InvalidArgument);
  const length = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1, false);
  if (body.length !== 5 + length) {
    throw new ConnectError(
      `grpc-web body is ${body.length} bytes, its frame announces ${5 + length}`,
      Code.InvalidArgument,
    );
  }
  return body.subarray(5);
}

/** The trailers frame's text: `name: value` lines ending in CRLF. */
function trailers(status: Code | 0, message: string, height: bigint | undefined): Uint8Array {
  let text = `grpc-status: ${status}\r\ngrpc-message: ${encodeURIComponent(message)}\r\n`;
  if (height !== undefined) text += `${HEIGHT_HEADER}: ${height}\r\n`;
  return new TextEncoder().encode(text);
}

/**
 * Answers a gRPC-web preflight: every origin, `POST`, the gRPC-web request headers.
 *
 * @example
 * ```ts
 * const sent: { status?: number; headers?: Record<string, string | number> } = {};
 * answerGrpcWebPreflight({
 *   writeHead: (status, headers) => Object.assign(sent, { status, headers }),
 *   end: () => undefined,
 * });
 * sent.status; // 204
 * sent.headers?.["access-control-allow-origin"]; // "*"
 * sent.headers?.["access-control-allow-methods"]; // "POST, OPTIONS"
 * ```
 */
export function answerGrpcWebPreflight(res: WebResponse): void {
  res.writeHead(204, {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": ALLOWED_HEADERS,
    "access-control-expose-headers": EXPOSED_HEADERS,
    "access-control-max-age": "600",
  });
  res.end();
}

/**
 * Serves one gRPC-web call: reads the framed request, calls the dispatcher, writes the answer
 * (data frame and trailers frame; base64 for the text variant). A failure is a gRPC status in the
 * trailers, with HTTP 200, as gRPC-web servers answer.
 *
 * @example
 * ```ts
 * import { fromBinary } from "@bufbuild/protobuf";
 * import { cosmosBank } from "@perpx/proto";
 *
 * // The devnet's REST port serves gRPC-web calls with it: one data frame (flag 0, 4-byte length).
 * const res = await fetch(`${devnet.endpoints.nodeRest}/cosmos.bank.v1beta1.Query/Params`, {
 *   method: "POST",
 *   headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
 *   body: new Uint8Array([0, 0, 0, 0, 0]), // an empty QueryParamsRequest
 * });
 * res.status; // 200
 * res.headers.get("content-type"); // "application/grpc-web+proto"
 * const body = new Uint8Array(await res.arrayBuffer());
 * const length = new DataView(body.buffer).getUint32(1);
 * fromBinary(cosmosBank.QueryParamsResponseSchema, body.subarray(5, 5 + length)).params?.defaultSendEnabled; // true
 * const trailers = new TextDecoder().decode(body.subarray(5 + length + 5)).split("\r\n");
 * trailers.slice(0, 2); // ["grpc-status: 0", "grpc-message: "]
 * trailers[2]?.startsWith("x-cosmos-block-height: "); // true
 * ```
 */
export async function serveGrpcWeb(dispatcher: Dispatcher, req: WebRequest, res: WebResponse): Promise<void> {
  const contentType = header(req, "content-type").toLowerCase();
  const text = contentType.startsWith("application/grpc-web-text");
  const answer = (parts: readonly Uint8Array[], height: bigint | undefined) => {
    const body = concat(parts);
    const encoded = text ? Buffer.from(body).toString("base64") : body;
    res.writeHead(200, {
      "content-type": text ? "application/grpc-web-text+proto" : "application/grpc-web+proto",
      "content-length": typeof encoded === "string" ? Buffer.byteLength(encoded) : encoded.length,
      "access-control-allow-origin": "*",
      "access-control-expose-headers": EXPOSED_HEADERS,
      ...(height === undefined ? {} : { [HEIGHT_HEADER]: height.toString() }),
    });
    res.end(encoded);
  };
  try {
    if (/\+(json|thrift)/.test(contentType)) {
      throw new ConnectError(`content type ${contentType} is not served: use +proto`, Code.Unimplemented);
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let raw: Uint8Array;
    try {
      raw = await readBody(req);
    } catch (error) {
      if (error instanceof BodyError) throw new ConnectError(error.message, Code.ResourceExhausted);
      throw error;
    }
    const method: DescMethod | undefined = dispatcher.method(path);
    if (method === undefined || method.methodKind !== "unary") {
      throw new ConnectError(`unknown method ${path}`, Code.Unimplemented);
    }
    const payload = unaryPayload(text ? decodeGrpcWebText(Buffer.from(raw).toString("latin1")) : raw);
    let request: ReturnType<typeof fromBinary>;
    try {
      request = fromBinary(method.input, payload);
    } catch (error) {
      throw new ConnectError(
        `the request does not decode: ${(error as Error).message}`,
        Code.InvalidArgument,
      );
    }
    const height = parseHeight(header(req, HEIGHT_HEADER) || null);
    const result = await dispatcher.call(method, request, height === undefined ? {} : { height });
    const message = toBinary(method.output, result.response);
    answer(
      [frame(FRAME_DATA, message), frame(FRAME_TRAILERS, trailers(0, "", result.height))],
      result.height,
    );
  } catch (error) {
    const e = ConnectError.from(error);
    answer([frame(FRAME_TRAILERS, trailers(e.code, e.rawMessage, undefined))], undefined);
  }
}
