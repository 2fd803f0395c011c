/**
 * The REST rate limits, as the reference's comlink applies them (`lib/rate-limit.ts` over
 * rate-limiter-flexible's fixed windows): each rate-limited route draws on a bucket of points per
 * client IP; a request costs one point; the first request of an IP opens a window of the bucket's
 * duration, and the window's points are all it gets. Every rate-limited answer carries
 * `RateLimit-Remaining`, `RateLimit-Reset` (epoch ms when the window ends) and `RateLimit-Limit`;
 * a request over the limit answers 429 `{"errors":[{"msg":"Too many requests"}]}` with those and
 * `Retry-After` (ms, as the reference sends it). The limit runs before validation, so a 400 counts.
 *
 * Buckets (points per 10 s): `default` 100, shared by most routes; `orders` 100, `fills` 100
 * (shared with the trade history), `historical_pnl` 100, `pnl` 100, `funding` 100 and
 * `sparklines` 100 each their own; `candles` 1000. `GET /v4/orders/:orderId` and `/health` are not
 * rate-limited, nor are unknown routes.
 *
 * The client IP is `cf-connecting-ip`, else the first `x-forwarded-for` address, as the reference
 * reads them behind its load balancer; the devnet has none in front of it, so a request without
 * those headers is its socket's address. Loopback addresses are the devnet's internal IPs (the
 * reference's `INDEXER_INTERNAL_IPS`, empty by default there): their requests cost no points, so
 * local tools are never limited yet see the headers; a request that names another IP in its
 * forwarding headers is counted and limited as the reference does.
 */

/** A bucket: points per window. */
interface Bucket {
  readonly points: number;
  readonly durationMs: number;
}

const PER_10S = (points: number): Bucket => ({ points, durationMs: 10_000 });

/** The reference's buckets (comlink's defaults). */
const BUCKETS = {
  default: PER_10S(100),
  orders: PER_10S(100),
  fills: PER_10S(100),
  candles: PER_10S(1000),
  sparklines: PER_10S(100),
  historical_pnl: PER_10S(100),
  pnl: PER_10S(100),
  funding: PER_10S(100),
} as const satisfies Record<string, Bucket>;

type BucketName = keyof typeof BUCKETS;

/** The routes that draw on a bucket other than `default`, and those not limited at all (`null`). */
const ROUTE_BUCKETS: Readonly<Record<string, BucketName | null>> = {
  "/health": null,
  "/v4/orders/:orderId": null,
  "/v4/orders": "orders",
  "/v4/orders/parentSubaccountNumber": "orders",
  "/v4/fills": "fills",
  "/v4/fills/parentSubaccountNumber": "fills",
  "/v4/tradeHistory": "fills",
  "/v4/tradeHistory/parentSubaccountNumber": "fills",
  "/v4/candles/perpetualMarkets/:ticker": "candles",
  "/v4/sparklines": "sparklines",
  "/v4/historical-pnl": "historical_pnl",
  "/v4/historical-pnl/parentSubaccountNumber": "historical_pnl",
  "/v4/pnl": "pnl",
  "/v4/pnl/parentSubaccountNumber": "pnl",
  "/v4/fundingPayments": "funding",
  "/v4/fundingPayments/parentSubaccount": "funding",
};

/** Above this many open windows, expired ones are swept. */
const SWEEP_ABOVE = 10_000;

/** The headers a client IP is read from, lowercased (Node's `IncomingMessage.headers`). */
export type ForwardingHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What a rate-limited request gets: its headers, and whether it is refused. */
export interface RateLimitAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly limited: boolean;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The client IP as comlink reads it, else the socket's address. */
function clientIp(headers: ForwardingHeaders, socketAddress: string | undefined): string | undefined {
  const cloudflare = first(headers["cf-connecting-ip"]);
  if (cloudflare !== undefined && cloudflare !== "") return cloudflare;
  const forwarded = first(headers["x-forwarded-for"])?.replace(/\s/g, "").split(",")[0];
  if (forwarded !== undefined && forwarded !== "") return forwarded;
  return socketAddress;
}

function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

/** The rate limiter of one REST server (see the module comment). */
export class RestRateLimiter {
  private readonly windows = new Map<string, { endsAtMs: number; consumed: number }>();

  /**
   * Counts one request to `routePath` (the route's pattern) and answers its headers, or
   * `undefined` for a route that is not rate-limited or a request without any IP.
   */
  consume(
    routePath: string,
    headers: ForwardingHeaders,
    socketAddress: string | undefined,
    nowMs: number,
  ): RateLimitAnswer | undefined {
    const name = ROUTE_BUCKETS[routePath] === undefined ? "default" : ROUTE_BUCKETS[routePath];
    if (name === null) return undefined;
    const ip = clientIp(headers, socketAddress);
    if (ip === undefined) return undefined;
    const bucket = BUCKETS[name];
    const key = `${name}/${ip}`;
    let window = this.windows.get(key);
    if (window === undefined || window.endsAtMs <= nowMs) {
      if (this.windows.size > SWEEP_ABOVE) this.sweep(nowMs);
      window = { endsAtMs: nowMs + bucket.durationMs, consumed: 0 };
      this.windows.set(key, window);
    }
    window.consumed += isLoopback(ip) ? 0 : 1;
    const msBeforeNext = window.endsAtMs - nowMs;
    const limited = window.consumed > bucket.points;
    return {
      limited,
      headers: {
        "RateLimit-Remaining": String(Math.max(bucket.points - window.consumed, 0)),
        "RateLimit-Reset": String(nowMs + msBeforeNext),
        ...(limited ? { "Retry-After": String(msBeforeNext) } : {}),
        "RateLimit-Limit": String(bucket.points),
      },
    };
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.endsAtMs <= nowMs) this.windows.delete(key);
  }
}
