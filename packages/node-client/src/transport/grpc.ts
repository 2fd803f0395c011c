/**
 * The gRPC connection a client holds, the same on every platform: the connect `Transport` queries
 * call, opened on the first call by the platform's loader (`#transport-platform`), and closed for
 * good by `close()`. The status codes the package reads, by number, so connect need not be loaded.
 */
import type { Transport } from "@connectrpc/connect";
import { TransportError } from "../errors.js";
import { type GrpcInput, type GrpcOptions, grpcOptionsOf, isTransport } from "./grpc-options.js";
import { lastingFailure } from "./lasting.js";

/**
 * An open gRPC transport and a way to close the connection it holds.
 *
 * @example
 * ```ts
 * const grpc: GrpcConnection = platformTransports.openGrpc("http://127.0.0.1:9090");
 * grpc.close();
 * ```
 */
export interface GrpcConnection {
  /** The connect transport (dials on first call). */
  readonly transport: Transport;
  /** Closes the connection of a transport this package opened (an injected one is the caller's). */
  close(): void;
}

/**
 * A platform's way to build a transport from checked options, called on the first call.
 *
 * @example
 * ```ts
 * const load: GrpcLoader = async (options) => ({ transport: openGrpcWeb(options), close() {} });
 * ```
 */
export type GrpcLoader = (options: GrpcOptions) => Promise<{ transport: Transport; close(): void }>;

/**
 * Opens a gRPC connection: the options are checked now (`check` adds the platform's own checks),
 * the transport is built by `load` on the first call; an injected `Transport` is used as it is.
 * After `close()` every call is refused.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme, or what `check` refuses.
 *
 * @example
 * ```ts
 * const grpc = openGrpc("http://127.0.0.1:9090", async (options) => ({ transport: openGrpcWeb(options), close() {} }));
 * grpc.close();
 * ```
 */
export function openGrpc(
  input: GrpcInput,
  load: GrpcLoader,
  check: (options: GrpcOptions) => void = () => {},
): GrpcConnection {
  if (isTransport(input)) return { transport: input, close: () => {} };
  const options = grpcOptionsOf(input);
  check(options);
  let loaded: Promise<{ transport: Transport; close(): void }> | undefined;
  let closed = false;
  const open = () => {
    if (closed)
      throw lastingFailure(
        new TransportError({
          transport: "grpc",
          problem: "the client is closed",
          url: options.url,
          nothingSent: true,
        }),
      );
    loaded ??= load(options);
    return loaded;
  };
  const transport: Transport = {
    async unary(...args) {
      const opened = (await open()).transport;
      try {
        return await opened.unary(...args);
      } catch (error) {
        // The server refused the stream before reading it (RST_STREAM REFUSED_STREAM, e.g. a
        // session it was closing): as gRPC's transparent retry does, send it once more.
        if (!wasRefusedStream(error) || args[1]?.aborted === true) throw error;
        return opened.unary(...args);
      }
    },
    async stream(...args) {
      return (await open()).transport.stream(...args);
    },
  };
  return {
    transport,
    close() {
      closed = true;
      loaded?.then((t) => t.close()).catch(() => {});
    },
  };
}

/**
 * True for a call the server refused with HTTP/2 `REFUSED_STREAM`: by the HTTP/2 rules (RFC 9113
 * 8.7) it did no processing of the request, so sending it again is safe, a broadcast included.
 * Told by the HTTP/2 layer's own error only, never by a status message the server wrote: a node
 * (or a proxy) that answered a status whose text names `REFUSED_STREAM` may have processed the call.
 *
 * @param error - what a connect call threw.
 * @returns whether the stream was refused.
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * wasRefusedStream(new ConnectError("http/2 stream closed with error code REFUSED_STREAM (0x7)", Code.Unavailable)); // true
 * const answered = new ConnectError("REFUSED_STREAM", Code.Unavailable, { "grpc-status": "14" });
 * wasRefusedStream(answered); // false: a status the server sent, whatever its text
 * ```
 */
export function wasRefusedStream(error: unknown): boolean {
  if (answeredByServer(error)) return false;
  const { code, rawMessage } = grpcStatusOf(error);
  // connect-node reads the reset code itself (unavailable), or passes Node's stream error on (internal).
  if (code === GRPC_STATUS.unavailable && rawMessage === REFUSED_STREAM_RESET) return true;
  if (code !== GRPC_STATUS.internal) return false;
  const seen = new Set<unknown>();
  for (let cause = (error as Error).cause; cause instanceof Error && !seen.has(cause); cause = cause.cause) {
    seen.add(cause);
    const nodeCode = (cause as { code?: unknown }).code;
    if (nodeCode === "ERR_HTTP2_STREAM_ERROR" && cause.message.endsWith("NGHTTP2_REFUSED_STREAM"))
      return true;
  }
  return false;
}

/** connect-node's message for a stream the server reset with `REFUSED_STREAM`. */
const REFUSED_STREAM_RESET = "http/2 stream closed with error code REFUSED_STREAM (0x7)";

/**
 * True when a failed call carries response headers: the server answered it (a status of its own, or
 * an HTTP error page), so it may have processed the call. A failure of the connection, of TLS or of
 * the client carries none.
 *
 * @param error - what a connect call threw.
 * @returns whether the server's answer reached the client.
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * answeredByServer(new ConnectError("account not found", Code.NotFound, { "grpc-status": "5" })); // true
 * answeredByServer(new ConnectError("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled)); // false
 * ```
 */
export function answeredByServer(error: unknown): boolean {
  const metadata = (error as { metadata?: { forEach?: unknown } } | null)?.metadata;
  if (typeof metadata?.forEach !== "function") return false;
  let any = false;
  (metadata as Headers).forEach(() => {
    any = true;
  });
  return any;
}

/**
 * True when a failed call is a status the node (or anything speaking gRPC or Connect in front of it)
 * answered: a `grpc-status` header or trailer, or a Connect error body. An HTML error page of a
 * proxy, a reset stream, a dropped connection or a TLS failure is not one.
 *
 * @param error - what a connect call threw.
 * @returns whether the node answered the call with a status.
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * answeredWithStatus(new ConnectError("account not found", Code.NotFound, { "grpc-status": "5" })); // true
 * answeredWithStatus(new ConnectError("HTTP 500", Code.Unknown, { "content-type": "text/html" })); // false
 * ```
 */
export function answeredWithStatus(error: unknown): boolean {
  if (!answeredByServer(error)) return false;
  const metadata = (error as { metadata: Headers }).metadata;
  return (
    metadata.get("grpc-status") !== null ||
    metadata.get("grpc-status-details-bin") !== null ||
    /^application\//i.test(metadata.get("content-type") ?? "")
  );
}

/** gRPC status codes the package reads (the numbers of connect's `Code`). */
export const GRPC_STATUS = {
  internal: 13,
  invalidArgument: 3,
  failedPrecondition: 9,
  notFound: 5,
  unauthenticated: 16,
  unavailable: 14,
  unknown: 2,
} as const;

/**
 * The status code and message of a failed gRPC call: a connect `ConnectError`'s, read by shape so
 * the connect runtime need not be loaded; anything else is `unknown` with its message.
 *
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * const { code, rawMessage } = grpcStatusOf(new ConnectError("no such account", Code.NotFound));
 * [code, rawMessage]; // [5, "no such account"]
 * ```
 */
export function grpcStatusOf(error: unknown): { code: number; rawMessage: string } {
  if (error instanceof Error && error.name === "ConnectError") {
    const shaped = error as Error & { code?: unknown; rawMessage?: unknown };
    if (typeof shaped.code === "number") {
      return {
        code: shaped.code,
        rawMessage: typeof shaped.rawMessage === "string" ? shaped.rawMessage : error.message,
      };
    }
  }
  return {
    code: GRPC_STATUS.unknown,
    rawMessage: error instanceof Error ? error.message : String(error),
  };
}
