/** A network-level failure reaching a node. */
import { errorGuard, PerpxError, type PerpxErrorOptions, redactSecrets } from "@perpx/errors";

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
   * @param transport - which transport failed.
   * @param problem - what happened.
   * @param options - `url` and the cause.
   */
  constructor(
    transport: "grpc" | "rpc" | "rest",
    problem: string,
    options: PerpxErrorOptions & { url?: string } = {},
  ) {
    const { url, ...rest } = options;
    super("TRANSPORT", `${transport.toUpperCase()} request failed: ${problem}`, {
      ...(url ? { metaMessages: [`url: ${url}`] } : {}),
      ...rest,
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
 * const error = new TransportError("rest", "the node could not be reached", { url: "http://user:secret@127.0.0.1:1317" });
 * isTransportError(error) && error.url; // "http://[redacted]@127.0.0.1:1317": the password never shows
 * ```
 */
export const isTransportError = errorGuard<TransportError>("TransportError");
