/**
 * The control server's route vocabulary: the error a route throws, what a handler receives and
 * the router routes are added to. Kept apart from the server so route modules (chain, deposits,
 * IBC, source chains) depend on it and not on the server that imports them.
 */
import { PerpxError } from "@perpx/errors";

/**
 * A control request that cannot be served; answered as `{code: answerCode, message}` with `status`.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({
 *   ports: "free",
 *   controlRoutes: (router) =>
 *     router.add("POST", "/echo", ({ body }) => {
 *       if (typeof body.market !== "string") throw new ControlError(400, "invalid_request", 'the field "market" is required');
 *       return { market: body.market };
 *     }),
 * });
 * const response = await fetch(`${devnet.endpoints.devnetControl}/devnet/echo`, { method: "POST", body: "{}" });
 * response.status; // 400
 * (await response.json()).code; // "invalid_request"
 * await devnet.stop();
 * ```
 */
export class ControlError extends PerpxError {
  override name = "ControlError";
  /**
   * @param status - the HTTP status of the answer.
   * @param answerCode - the answer's `code` (`invalid_request`, `not_found`, ...).
   * @param message - the answer's `message`.
   */
  constructor(
    readonly status: number,
    readonly answerCode: string,
    message: string,
  ) {
    super(status < 500 ? "INVALID_ARGUMENT" : "DEVNET", message);
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
 *   ports: "free",
 *   blockTimeMs: 0,
 *   controlRoutes: (router: ControlRouter, { app }) =>
 *     router.add("GET", "/height", () => ({ height: app.latestBlock().height })),
 * });
 * const response = await fetch(`${devnet.endpoints.devnetControl}/devnet/height`);
 * (await response.json()).height === String(devnet.app.latestBlock().height); // true
 * await devnet.stop();
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
