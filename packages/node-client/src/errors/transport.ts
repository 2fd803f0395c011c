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
  }
}

/**
 * True for a {@link TransportError}.
 *
 * @example
 * ```ts
 * const error = new TransportError({ transport: "rest", problem: "the node could not be reached", url: "http://user:secret@127.0.0.1:1317" });
 * isTransportError(error) && error.url; // "http://[redacted]@127.0.0.1:1317": the password never shows
 * ```
 */
export const isTransportError = errorGuard<TransportError>("TransportError");
