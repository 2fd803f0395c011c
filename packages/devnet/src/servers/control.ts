/**
 * The devnet control server (`/devnet/...`, JSON): mine blocks, set the block time, advance the
 * chain's clock, fund accounts, read the status. Routes live in a small table so later features
 * (prices, IBC and bridge deposits, governance) add theirs with {@link ControlRouter.add}.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type DescMessage, fromBinary } from "@bufbuild/protobuf";
import { isInvalidAddressError, parseAddress } from "@perpx/core";
import { prices } from "@perpx/proto";
import type { OraclePriceSet, PersistentChainApp } from "../app/contract.js";
import { addChainControlRoutes } from "./control-chain.js";
import { toHexUpper } from "./encoding.js";
import { BodyError, closeServer, listen, readBody, sendCorsPreflight, sendJson, urlOf } from "./http.js";
import type { BlockProducer } from "./producer.js";

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
 * await fetch(`${devnet.endpoints.devnetControl}/devnet/height`); // {"height":"1"}
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

/** Reads a field of a control body as a non-negative safe integer. */
export function intField(body: Record<string, unknown>, name: string, fallback?: number): number {
  const raw = body[name];
  if (raw === undefined || raw === null) {
    if (fallback !== undefined) return fallback;
    throw new ControlError(400, "invalid_request", `the field "${name}" is required`);
  }
  const value = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ControlError(
      400,
      "invalid_request",
      `the field "${name}" must be a non-negative integer, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function addressField(body: Record<string, unknown>, name: string): string {
  const raw = body[name];
  if (typeof raw !== "string") {
    throw new ControlError(400, "invalid_address", `the field "${name}" must be an address string`);
  }
  try {
    return parseAddress(raw).bech32;
  } catch (error) {
    if (isInvalidAddressError(error)) throw new ControlError(400, "invalid_address", error.shortMessage);
    throw error;
  }
}

function coinsField(body: Record<string, unknown>): Array<{ denom: string; amount: bigint }> {
  const raw = body.coins;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ControlError(
      400,
      "invalid_request",
      'the field "coins" must be a non-empty array of {denom, amount}',
    );
  }
  return raw.map((c: unknown, i) => {
    const coin = c as { denom?: unknown; amount?: unknown };
    if (typeof coin !== "object" || coin === null || typeof coin.denom !== "string" || coin.denom === "") {
      throw new ControlError(400, "invalid_request", `coins[${i}].denom must be a non-empty string`);
    }
    const amount = coin.amount;
    if (
      !(
        (typeof amount === "string" && /^\d+$/.test(amount)) ||
        (typeof amount === "number" && Number.isSafeInteger(amount) && amount >= 0)
      )
    ) {
      throw new ControlError(
        400,
        "invalid_request",
        `coins[${i}].amount must be a non-negative integer string`,
      );
    }
    return { denom: coin.denom, amount: BigInt(amount) };
  });
}

/** The decimal USD text of an oracle price mantissa and exponent. */
function decimalOf(mantissa: bigint, exponent: number): string {
  if (exponent >= 0) return (mantissa * 10n ** BigInt(exponent)).toString();
  const digits = mantissa.toString().padStart(-exponent + 1, "0");
  const fraction = digits.slice(exponent).replace(/0+$/, "");
  return fraction === "" ? digits.slice(0, exponent) : `${digits.slice(0, exponent)}.${fraction}`;
}

/** Options of {@link startControlServer}. */
export interface ControlServerOptions {
  app: PersistentChainApp;
  producer: BlockProducer;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 picks a free port. @default 26659 */
  port?: number;
  /** Extra routes (later features). */
  routes?: (router: ControlRouter) => void;
  /** Extra fields of `GET /devnet/status` (the endpoints, for instance). */
  status?: () => Record<string, unknown>;
}

/** A running control server. */
export interface ControlServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function toJsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
}

/**
 * Starts the control server with the built-in routes:
 * `GET /devnet/status`, `POST /devnet/blocks {count}`, `POST /devnet/block-time {ms}`,
 * `POST /devnet/advance-time {ms}`, `POST /devnet/fund {address, coins}`, `GET /devnet/prices`,
 * `POST /devnet/prices {market, price, mine?}` (market id or pair, decimal USD price),
 * `POST /devnet/prices/walk {enabled}`, `POST /devnet/fund-subaccount {owner, number, quantums}`.
 *
 * @param options - the application, the block producer, interface, port and extra routes.
 * @returns the running server.
 * @example
 * ```ts
 * const control = await startControlServer({ app, producer, port: 0 });
 * await fetch(`${control.url}/devnet/blocks`, { method: "POST", body: JSON.stringify({ count: 3 }) });
 * ```
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { app, producer } = options;
  const table = new Map<string, ControlHandler>();
  const router: ControlRouter = {
    add: (method, path, handler) => {
      const key = `${method} /devnet${path.startsWith("/") ? path : `/${path}`}`;
      if (table.has(key)) throw new Error(`control route ${key} is already registered`);
      table.set(key, handler);
    },
  };

  const status = () => {
    const latest = app.latestBlock();
    return {
      chainId: app.info.chainId,
      evmChainId: app.info.evmChainId,
      appVersion: app.info.appVersion,
      height: latest.height.toString(),
      blockHash: toHexUpper(latest.hash),
      blockTime: latest.time.toISOString(),
      blockTimeMs: producer.blockTimeMs,
      producing: producer.running,
      pendingTxs: app.pendingTxCount(),
      ...(options.status?.() ?? {}),
    };
  };

  router.add("GET", "/status", () => status());
  router.add("POST", "/blocks", ({ body }) => {
    const count = intField(body, "count", 1);
    if (count < 1 || count > 10_000)
      throw new ControlError(400, "invalid_request", "count must be between 1 and 10000");
    const blocks = producer.mine(count);
    return {
      heights: blocks.map((b) => b.height.toString()),
      height: app.latestBlock().height.toString(),
      txs: blocks.reduce((n, b) => n + b.txs.length, 0),
    };
  });
  router.add("POST", "/block-time", ({ body }) => {
    const ms = intField(body, "ms");
    producer.setBlockTimeMs(ms);
    return { blockTimeMs: producer.blockTimeMs };
  });
  router.add("POST", "/advance-time", ({ body }) => {
    const ms = intField(body, "ms");
    app.control.advanceTime(ms);
    const mined = body.mine === true ? producer.mine(1)[0] : undefined;
    return {
      advancedMs: ms,
      ...(mined === undefined
        ? {}
        : { height: mined.height.toString(), blockTime: mined.time.toISOString() }),
    };
  });
  router.add("POST", "/fund", ({ body }) => {
    const address = addressField(body, "address");
    const coins = coinsField(body);
    app.control.fund(address, coins);
    return { address, credited: coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() })) };
  });
  router.add("POST", "/approve-agent", ({ body }) => {
    // accountplus: an EVM wallet's EIP-712 ServiceTransaction:ApproveAgent registers a trading key.
    if (typeof body.typedDataSignature !== "string") {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "typedDataSignature" must be a 0x-hex string',
      );
    }
    if (typeof body.message !== "object" || body.message === null || Array.isArray(body.message)) {
      throw new ControlError(400, "invalid_request", 'the field "message" must be the ApproveAgent message');
    }
    try {
      return app.control.moduleControl("accountplus", "approve-agent", body);
    } catch (error) {
      if (error instanceof Error && error.name === "AbciError") {
        throw new ControlError(400, "approve_agent_rejected", error.message);
      }
      throw error;
    }
  });
  // prices: the oracle (set a price, switch the random walk, read every market's price).
  const abciToControl = (code: string, run: () => unknown) => {
    try {
      return run();
    } catch (error) {
      if (error instanceof Error && error.name === "AbciError")
        throw new ControlError(400, code, error.message);
      throw error;
    }
  };
  router.add("GET", "/prices", () => {
    const ask = <T extends DescMessage>(path: string, schema: T) => {
      const answer = app.query(path, new Uint8Array(0));
      if (answer.code !== 0) throw new ControlError(500, "internal", answer.log);
      return fromBinary(schema, answer.value);
    };
    const params = ask("/perpx.prices.v1.Query/AllMarketParams", prices.QueryAllMarketParamsResponseSchema);
    const values = ask("/perpx.prices.v1.Query/AllMarketPrices", prices.QueryAllMarketPricesResponseSchema);
    return {
      markets: values.marketPrices.map((p) => ({
        marketId: p.id,
        pair: params.marketParams.find((m) => m.id === p.id)?.pair ?? "",
        price: decimalOf(p.price, p.exponent),
        mantissa: p.price.toString(),
        exponent: p.exponent,
      })),
    };
  });
  router.add("POST", "/prices", ({ body }) => {
    const market = body.market;
    if (typeof market !== "string" && !(typeof market === "number" && Number.isSafeInteger(market))) {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "market" must be a market id or a pair like "BTC-USD"',
      );
    }
    if (typeof body.price !== "string") {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "price" must be a decimal string like "65000.5"',
      );
    }
    const price = body.price;
    const set = abciToControl("invalid_price", () =>
      app.control.setOraclePrice(market, price),
    ) as OraclePriceSet;
    const mined = body.mine === true ? producer.mine(1)[0] : undefined;
    return {
      ...set,
      price: decimalOf(BigInt(set.price), set.exponent),
      mantissa: set.price,
      ...(mined === undefined ? {} : { height: mined.height.toString() }),
    };
  });
  router.add("POST", "/fund-subaccount", ({ body }) => {
    const owner = addressField(body, "owner");
    const number = intField(body, "number", 0);
    const quantums = body.quantums;
    if (typeof quantums !== "string" || !/^[1-9]\d*$/.test(quantums)) {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "quantums" must be a positive integer string',
      );
    }
    abciToControl("invalid_subaccount", () => app.control.fundSubaccount(owner, number, BigInt(quantums)));
    return { owner, number, credited: quantums };
  });
  router.add("POST", "/prices/walk", ({ body }) => {
    if (typeof body.enabled !== "boolean") {
      throw new ControlError(400, "invalid_request", 'the field "enabled" must be true or false');
    }
    const enabled = body.enabled;
    abciToControl("invalid_request", () => app.control.setOracleWalk(enabled));
    return { enabled };
  });
  addChainControlRoutes(router, app, producer);
  options.routes?.(router);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "OPTIONS") {
      sendCorsPreflight(res);
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "");
    const handler = table.get(`${req.method} ${path}`);
    if (handler === undefined) {
      const other = [...table.keys()].filter((k) => k.endsWith(` ${path}`));
      if (other.length > 0) {
        sendJson(res, 405, { code: "method_not_allowed", message: `use ${other.join(" or ")}` });
        return;
      }
      const routes = [...table.keys()].sort();
      sendJson(res, 404, { code: "not_found", message: `no route ${req.method} ${path}`, routes });
      return;
    }
    let body: Record<string, unknown> = {};
    if (req.method === "POST") {
      const text = (await readBody(req, 1024 * 1024)).toString("utf8");
      if (text.trim() !== "") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw new ControlError(400, "bad_json", `the body is not valid JSON (${(error as Error).message})`);
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          throw new ControlError(400, "bad_json", "the body must be a JSON object");
        }
        body = parsed as Record<string, unknown>;
      }
    } else {
      body = Object.fromEntries(url.searchParams);
    }
    const result = await handler({ body, query: url.searchParams });
    sendJson(res, 200, toJsonSafe(result ?? {}));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ControlError)
        sendJson(res, error.status, { code: error.code, message: error.message });
      else if (error instanceof BodyError)
        sendJson(res, error.status, { code: "bad_json", message: error.message });
      else if (error instanceof RangeError)
        sendJson(res, 400, { code: "invalid_request", message: error.message });
      else
        sendJson(res, 500, {
          code: "internal",
          message: error instanceof Error ? error.message : String(error),
        });
    });
  });
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 26659, host);
  return { url: urlOf("http", host, port), port, close: () => closeServer(server) };
}
