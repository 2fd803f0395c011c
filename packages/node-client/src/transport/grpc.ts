/**
 * The gRPC connection a client holds, the same on every platform: the connect `Transport` queries
 * call, opened on the first call by the platform's loader (`#transport-platform`), and closed for
 * good by `close()`. The status codes the package reads, by number, so connect need not be loaded.
 */
import type { Transport } from "@connectrpc/connect";
import { TransportError } from "../errors.js";
import { type GrpcInput, type GrpcOptions, grpcOptionsOf, isTransport } from "./grpc-options.js";

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
      throw new TransportError({ transport: "grpc", problem: "the client is closed", url: options.url });
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
 *
 * @param error - what a connect call threw.
 * @returns whether the stream was refused.
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * wasRefusedStream(new ConnectError("http/2 stream closed with error code REFUSED_STREAM (0x7)", Code.Unavailable)); // true
 * ```
 */
export function wasRefusedStream(error: unknown): boolean {
  const { code, rawMessage } = grpcStatusOf(error);
  // connect-node reports it as unavailable from the reset code, or as internal from Node's stream error.
  return (
    (code === GRPC_STATUS.unavailable || code === GRPC_STATUS.internal) &&
    rawMessage.includes("REFUSED_STREAM")
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
