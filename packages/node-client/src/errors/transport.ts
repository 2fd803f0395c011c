/** A network-level failure reaching a node. */
import { errorGuard, PerpxError, type PerpxErrorOptions, redactSecrets } from "@perpx/errors";

/**
 * What failed when a node could not be reached.
 *
 * @example
 * ```ts
 * const parameters: TransportErrorParameters = { transport: "rest", problem: "the node could not be reached", url: "http://127.0.0.1:1317" };
 * new TransportError(parameters).message.startsWith("REST request failed: the node could not be reached"); // true
 * ```
 */
export interface TransportErrorParameters {
  /** Which transport failed. */
  transport: "grpc" | "rpc" | "rest";
  /** What happened. */
  problem: string;
  /** The endpoint, when known (credentials in it are redacted). */
  url?: string | undefined;
  /**
   * True when the request certainly never left the client: the connection was refused, the name
   * did not resolve, or the socket never opened.
   * @default false (the request may have reached the node)
   */
  nothingSent?: boolean | undefined;
}

/**
 * A network-level failure reaching a node (refused, reset, DNS, TLS, a non-JSON answer).
 *
 * @example
 * ```ts
 * const offline = createNodeClient({ nodeRpc: "http://127.0.0.1:1" });
 * const error = await offline.getLatestBlock().catch((e: unknown) => e);
 * isTransportError(error) && error.transport; // "rpc"
 * offline.close();
 * ```
 */
export class TransportError extends PerpxError {
  override name = "TransportError";
  /** Which transport failed. */
  readonly transport: "grpc" | "rpc" | "rest";
  /** The endpoint, when known. */
  readonly url: string | undefined;
  /**
   * True when the request certainly never reached the node (connection refused, DNS, no socket):
   * a transaction it carried was not sent. False when it may have been written before the failure
   * (a reset, a closed socket, a timeout): the node may have received it.
   */
  readonly nothingSent: boolean;

  /**
   * @param parameters - which transport failed, what happened, and where.
   * @param options - the cause and details.
   */
  constructor(parameters: TransportErrorParameters, options: PerpxErrorOptions = {}) {
    const { transport, problem, url } = parameters;
    super("TRANSPORT", `${transport.toUpperCase()} request failed: ${problem}`, {
      ...(url ? { metaMessages: [`url: ${url}`] } : {}),
      ...options,
    });
    this.transport = transport;
    this.url = url === undefined ? undefined : redactSecrets(url);
    this.nothingSent = parameters.nothingSent ?? false;
  }
}

/** Error codes (Node's and undici's) of a connection that never opened. */
const NEVER_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * True when a low-level failure (as `fetch` or a socket reports it) happened before a connection
 * opened, so nothing of the request was written: a refused connection, a name that did not
 * resolve, a port `fetch` refuses to dial. Walks the `cause` chain.
 *
 * @example
 * ```ts
 * const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:26657"), { code: "ECONNREFUSED", syscall: "connect" });
 * failedBeforeConnecting(new TypeError("fetch failed", { cause: refused })); // true
 * const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
 * failedBeforeConnecting(new TypeError("fetch failed", { cause: reset })); // false: the request may have been written
 * ```
 */
export function failedBeforeConnecting(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    const { code, syscall } = current as { code?: unknown; syscall?: unknown };
    if (typeof code === "string" && NEVER_CONNECTED.has(code)) return true;
    if (syscall === "connect" || syscall === "getaddrinfo") return true;
    if (current.message === "bad port") return true;
  }
  return false;
}

/**
 * True for a {@link TransportError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const error = new TransportError({ transport: "rest", problem: "the node could not be reached", url: "http://user:secret@127.0.0.1:1317" });
 * isTransportError(error) && error.url; // "http://[redacted]@127.0.0.1:1317": the password never shows
 * ```
 */
export const isTransportError = errorGuard<TransportError>("TransportError");
