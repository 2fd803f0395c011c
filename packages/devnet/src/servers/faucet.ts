/**
 * The faucet: `POST /faucet/tokens` with `{"address": "perpx1..." | "0x...", "subaccountNumber"?: n}`
 * credits a fixed amount of USDC (`uusdc`) and native tokens (`aperpx`) to the account, and a fixed
 * amount of USDC to its subaccount `subaccountNumber` (default 0), through the application's control
 * interface, at most once per address per window.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { NATIVE_DENOM, USDC_DENOM } from "@perpx/core";
import type { ChainControl } from "../app/contract.js";
import { addressField, FieldError, type Fields, subaccountNumberField } from "../app/lib/request-fields.js";
import {
  BodyError,
  closeServer,
  createHttpServer,
  listen,
  readBody,
  type ServerTimeouts,
  sendCorsPreflight,
  sendJson,
  urlOf,
} from "./http.js";

/**
 * A coin the faucet credits.
 *
 * @example
 * ```ts
 * const faucetCoins: FaucetCoin[] = [{ denom: "uusdc", amount: 5_000_000_000n }];
 * const devnet = await startDevnet({ ports: "free", faucetCoins });
 * await devnet.stop();
 * ```
 */
export interface FaucetCoin {
  denom: string;
  amount: bigint;
}

/**
 * What one faucet request credits by default: 1,000 USDC and 10 PERPX.
 *
 * @example
 * ```ts
 * DEFAULT_FAUCET_COINS.map((coin) => coin.denom).length > 0; // true
 * const devnet = await startDevnet({ ports: "free", faucetCoins: [...DEFAULT_FAUCET_COINS, { denom: "ibc/ABC", amount: 5n }] });
 * await devnet.stop();
 * ```
 */
export const DEFAULT_FAUCET_COINS: readonly FaucetCoin[] = [
  { denom: USDC_DENOM, amount: 1_000_000_000n },
  { denom: NATIVE_DENOM, amount: 10n * 10n ** 18n },
];

/** USDC (quote quantums, 1e-6 USDC) one faucet request credits to the subaccount: 1,000 USDC. */
export const DEFAULT_FAUCET_SUBACCOUNT_QUANTUMS = 1_000_000_000n;

/**
 * When each address was last funded, for the rate limit. Grants older than the window are forgotten
 * (swept whenever the log doubles), so it holds at most about twice the addresses funded within one
 * window.
 */
export class GrantLog {
  private readonly last = new Map<string, number>();
  private sweepAt = 1024;

  /** @param windowMs - one grant per address per this many ms; 0 keeps nothing. */
  constructor(private readonly windowMs: number) {}

  /** Addresses remembered. */
  get size(): number {
    return this.last.size;
  }

  /** When `address` was last funded, if within the window before `now`. */
  recent(address: string, now: number): number | undefined {
    const at = this.last.get(address);
    return at !== undefined && now - at < this.windowMs ? at : undefined;
  }

  /** Records a grant to `address` at `now`. */
  grant(address: string, now: number): void {
    if (this.windowMs <= 0) return;
    this.last.delete(address);
    this.last.set(address, now);
    if (this.last.size < this.sweepAt) return;
    // Insertion order is grant order: the expired grants are at the front.
    for (const [key, at] of this.last) {
      if (now - at < this.windowMs) break;
      this.last.delete(key);
    }
    this.sweepAt = Math.max(1024, this.last.size * 2);
  }
}

/** Options of {@link startFaucetServer}. */
export interface FaucetServerOptions {
  control: ChainControl;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 picks a free port. @default 8000 */
  port?: number;
  /** Coins credited per request. @default {@link DEFAULT_FAUCET_COINS} */
  coins?: readonly FaucetCoin[];
  /** USDC quantums credited to the subaccount per request; 0 credits none. @default {@link DEFAULT_FAUCET_SUBACCOUNT_QUANTUMS} */
  subaccountQuantums?: bigint;
  /** One request per address per this many milliseconds; 0 disables the limit. @default 10000 */
  rateLimitWindowMs?: number;
  /** The clock (for tests). @default Date.now */
  now?: () => number;
  /**
   * Makes a credit durable (the devnet writes its state directory); called after the credit and
   * before the answer, so a 200 is never lost to a crash. Throwing answers 500.
   */
  durable?: () => void;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
}

/** A running faucet. */
export interface FaucetServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Body of every faucet error: a stable `code` and a message naming the problem. */
export interface FaucetErrorBody {
  code:
    | "bad_json"
    | "invalid_address"
    | "invalid_subaccount"
    | "rate_limited"
    | "not_found"
    | "method_not_allowed"
    | "internal";
  message: string;
}

function fail(
  res: ServerResponse,
  status: number,
  body: FaucetErrorBody,
  headers: Record<string, string> = {},
) {
  sendJson(res, status, body, headers);
}

/**
 * Starts the faucet.
 *
 * @param options - control interface, port, coins and rate limit.
 * @returns the running faucet.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const faucet = await startFaucetServer({ control: app.control, port: 0 });
 * const address = devnet.accounts[2]!.address;
 * const response = await fetch(`${faucet.url}/faucet/tokens`, { method: "POST", body: JSON.stringify({ address }) });
 * response.ok; // true
 * await faucet.close();
 * await devnet.stop();
 * ```
 */
export async function startFaucetServer(options: FaucetServerOptions): Promise<FaucetServer> {
  const coins = options.coins ?? DEFAULT_FAUCET_COINS;
  const subaccountQuantums = options.subaccountQuantums ?? DEFAULT_FAUCET_SUBACCOUNT_QUANTUMS;
  const windowMs = options.rateLimitWindowMs ?? 10_000;
  const now = options.now ?? Date.now;
  const grants = new GrantLog(windowMs);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "OPTIONS") {
      sendCorsPreflight(res);
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    if (path !== "/faucet/tokens") {
      fail(res, 404, {
        code: "not_found",
        message: `no route ${req.method} ${path}; use POST /faucet/tokens`,
      });
      return;
    }
    if (req.method !== "POST") {
      fail(res, 405, { code: "method_not_allowed", message: "use POST /faucet/tokens" }, { allow: "POST" });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, 64 * 1024)).toString("utf8"));
    } catch (error) {
      if (error instanceof BodyError) {
        fail(res, error.status, { code: "bad_json", message: error.message });
        return;
      }
      fail(res, 400, {
        code: "bad_json",
        message: `the body is not valid JSON (${(error as Error).message}); expected {"address": "perpx1..." or "0x..."}`,
      });
      return;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      fail(res, 400, { code: "bad_json", message: 'the body must be a JSON object: {"address": "..."}' });
      return;
    }
    let parsed: { bech32: string; hex: string };
    let rawNumber: number;
    try {
      parsed = addressField(body as Fields, "address");
      rawNumber = subaccountNumberField(body as Fields, "subaccountNumber");
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      const code = error.answerCode === "invalid_subaccount" ? "invalid_subaccount" : "invalid_address";
      fail(res, 400, { code, message: error.shortMessage });
      return;
    }
    const t = now();
    const previous = grants.recent(parsed.bech32, t);
    if (previous !== undefined) {
      const retryAfterSeconds = Math.max(1, Math.ceil((previous + windowMs - t) / 1000));
      fail(
        res,
        429,
        {
          code: "rate_limited",
          message: `${parsed.bech32} was funded ${t - previous} ms ago; one request per address per ${windowMs} ms, retry in ${retryAfterSeconds} s`,
        },
        { "retry-after": String(retryAfterSeconds) },
      );
      return;
    }
    options.control.fund(parsed.bech32, coins);
    if (subaccountQuantums > 0n) options.control.fundSubaccount(parsed.bech32, rawNumber, subaccountQuantums);
    grants.grant(parsed.bech32, t);
    options.durable?.();
    sendJson(res, 200, {
      address: parsed.bech32,
      evmAddress: parsed.hex,
      credited: coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
      subaccount: { number: rawNumber, quantums: subaccountQuantums.toString() },
    });
  };

  const server = createHttpServer(options.timeouts, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else
        fail(res, 500, { code: "internal", message: error instanceof Error ? error.message : String(error) });
    });
  });
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 8000, host);
  return { url: urlOf("http", host, port), port, close: () => closeServer(server) };
}
