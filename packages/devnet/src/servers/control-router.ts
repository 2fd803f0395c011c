/**
 * The control server's route contract: the table routes are added to, the request a handler
 * receives, and the error a handler throws to answer with a status and a code.
 */
/**
 * A control request that cannot be served; answered as `{code, message}` with `status`.
 *
 * @example
 * ```ts
 * router.add("POST", "/prices", ({ body }) => {
 *   if (typeof body.market !== "string") throw new ControlError(400, "invalid_request", 'the field "market" is required');
 *   return {};
 * });
 * ```
 */
export class ControlError extends Error {
  override readonly name = "ControlError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a control route handler receives.
 *
 * @example
 * ```ts
 * const handler: ControlHandler = ({ body, query }: ControlRequest) => ({ count: body.count ?? query.get("count") });
 * ```
 */
export interface ControlRequest {
  /** The parsed JSON body (`{}` when empty), or the query parameters of a GET. */
  body: Record<string, unknown>;
  /** The raw query parameters. */
  query: URLSearchParams;
}

/**
 * A control route: answers with any JSON-serialisable value (bigints become strings).
 *
 * @example
 * ```ts
 * const ping: ControlHandler = () => ({ pong: true });
 * ```
 */
export type ControlHandler = (request: ControlRequest) => unknown | Promise<unknown>;

/**
 * The route table of the control server.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({
 *   controlRoutes: (router: ControlRouter, { app }) => router.add("GET", "/height", () => ({ height: app.latestBlock().height })),
 * });
 * await fetch(`${devnet.endpoints.control}/devnet/height`); // {"height":"1"}
 * ```
 */
export interface ControlRouter {
  /**
   * Adds a route.
   * @param method - `GET` or `POST`.
   * @param path - the path after `/devnet`, e.g. `/blocks`.
   * @param handler - answers the request.
   */
  add(method: "GET" | "POST", path: string, handler: ControlHandler): void;
}
