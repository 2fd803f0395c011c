/**
 * The devnet control server (`/devnet/...`, JSON): mine blocks, set the block time, advance the
 * chain's clock, fund accounts, read the status. Routes live in a small table so later features
 * (prices, IBC and bridge deposits, governance) add theirs with {@link ControlRouter.add}.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type DescMessage, fromBinary } from "@bufbuild/protobuf";
import { prices } from "@perpx/proto";
import type { OraclePriceSet, PersistentChainApp } from "../app/contract.js";
import {
  addressField,
  boolField,
  coinsField,
  FieldError,
  type Fields,
  intField,
  objectField,
  stringField,
  uintField,
} from "../app/lib/request-fields.js";
import type { ApproveAgentRequest } from "../app/modules/accountplus/accountplus.js";
import { DevnetError, isDevnetError } from "../devnet-error.js";
import { addChainControlRoutes } from "./control-chain.js";
import { addDepositControlRoute } from "./control-deposit.js";
import { addIbcRelayerControlRoutes } from "./control-ibc.js";
import { ControlError, type ControlHandler, type ControlRouter } from "./control-router.js";
import { toHexUpper } from "./encoding.js";
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
import type { BlockProducer } from "./producer.js";

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An approve-agent body, every field checked (the signature is verified by the module). */
function approveAgentRequest(body: Fields): ApproveAgentRequest {
  const typedDataSignature = stringField(body, "typedDataSignature", {
    pattern: /^0x[0-9a-fA-F]{130}$/,
    form: "a 65-byte signature as 0x-hex (r, s, v)",
  });
  const { fields: m, path } = objectField(body, "message");
  addressField(m, "masterAddress", path);
  const masterAddress = m.masterAddress as string;
  const agentPublicKey = stringField(m, "agentPublicKey", {
    path,
    pattern: /^0x0[23][0-9a-fA-F]{64}$/,
    form: "a 33-byte compressed secp256k1 public key as 0x-hex",
  });
  const agentAddress =
    m.agentAddress === undefined
      ? undefined
      : stringField(m, "agentAddress", { path, pattern: HEX_ADDRESS, form: "a 0x-hex EVM address" });
  const nonce = uintField(m, "nonce", { path }).toString();
  const expiry = uintField(m, "expiry", { path, fallback: 0n }).toString();
  return {
    typedDataSignature,
    message: {
      masterAddress,
      agentPublicKey,
      nonce,
      expiry,
      ...(agentAddress === undefined ? {} : { agentAddress }),
    },
  };
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
  /**
   * Makes the effect of a request durable (the devnet writes its state directory); called after
   * every POST route and before its answer, so an acknowledged change (a credit, a price) is never
   * lost to a crash. Throwing answers 500.
   */
  durable?: () => void;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
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
 * `POST /devnet/prices/walk {enabled}`, `POST /devnet/fund-subaccount {owner, number, quantums}`
 * (a deposit through a transaction of the devnet's faucet account, its block mined at once).
 *
 * @param options - the application, the block producer, interface, port and extra routes.
 * @returns the running server.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const control = await startControlServer({ app, producer: devnet.producer, port: 0 });
 * const before = app.latestBlock().height;
 * await fetch(`${control.url}/devnet/blocks`, { method: "POST", body: JSON.stringify({ count: 3 }) });
 * app.latestBlock().height - before; // 3n
 * await control.close();
 * await devnet.stop();
 * ```
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { app, producer } = options;
  const table = new Map<string, ControlHandler>();
  const router: ControlRouter = {
    add: (method, path, handler) => {
      const key = `${method} /devnet${path.startsWith("/") ? path : `/${path}`}`;
      if (table.has(key))
        throw new DevnetError("duplicate-route", `control route ${key} is already registered`);
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
    const ms = body.seconds === undefined ? intField(body, "ms") : intField(body, "seconds") * 1000;
    if (!Number.isSafeInteger(ms)) {
      throw new FieldError(
        "seconds",
        `must be at most ${Math.floor(Number.MAX_SAFE_INTEGER / 1000)}, got ${ms / 1000}`,
      );
    }
    app.control.advanceTime(ms);
    const mined = body.mine === true ? producer.mine(1)[0] : undefined;
    return {
      advancedMs: ms,
      ...(mined === undefined
        ? {}
        : { height: mined.height.toString(), blockTime: mined.time.toISOString() }),
    };
  });
  // A chain outage: the next block comes `ms` (default 5 minutes, the real chain's outage
  // threshold) after the latest, and is mined at once; withdrawals and transfers are then gated.
  router.add("POST", "/outage", ({ body }) => {
    const ms = body.ms === undefined ? 300_000 : intField(body, "ms");
    // `ms` after the latest block, however far the chain clock ran ahead in a burst of blocks.
    // A halt: the epoch timers catch up one epoch per block after it, as the real chain's.
    app.control.advanceTimeTo(app.latestBlock().time.getTime() + ms, new Date(producer.now()), {
      halt: true,
    });
    const mined = producer.mine(1)[0];
    return {
      advancedMs: ms,
      height: mined?.height.toString() ?? app.latestBlock().height.toString(),
      blockTime: (mined?.time ?? app.latestBlock().time).toISOString(),
    };
  });
  router.add("POST", "/fund", ({ body }) => {
    const address = addressField(body, "address").bech32;
    const coins = coinsField(body, "coins");
    app.control.fund(address, coins);
    return { address, credited: coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() })) };
  });
  router.add("POST", "/approve-agent", ({ body }) => {
    // accountplus: an EVM wallet's EIP-712 ServiceTransaction:ApproveAgent registers a trading key.
    const request = approveAgentRequest(body);
    try {
      return app.control.moduleControl("accountplus", "approve-agent", { ...request });
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
      throw new FieldError("market", 'must be a market id or a pair like "BTC-USD"');
    }
    // Either `price` (a value) or `factor` (the current price multiplied, e.g. "0.9" for -10%).
    const set = (
      body.factor !== undefined && body.price === undefined
        ? abciToControl("invalid_price", () =>
            app.control.moduleControl("prices", "scale-price", {
              market,
              factor: stringField(body, "factor", { form: 'a positive decimal string like "0.9"' }),
            }),
          )
        : abciToControl("invalid_price", () =>
            app.control.setOraclePrice(
              market,
              stringField(body, "price", { form: 'a decimal string like "65000.5"' }),
            ),
          )
    ) as OraclePriceSet;
    const mined = body.mine === true ? producer.mine(1)[0] : undefined;
    return {
      ...set,
      price: decimalOf(BigInt(set.price), set.exponent),
      mantissa: set.price,
      ...(mined === undefined ? {} : { height: mined.height.toString() }),
    };
  });
  router.add("POST", "/prices/walk", ({ body }) => {
    const enabled = boolField(body, "enabled");
    abciToControl("invalid_request", () => app.control.setOracleWalk(enabled));
    return { enabled };
  });
  addDepositControlRoute(router, app, producer);
  addChainControlRoutes(router, app, producer);
  addIbcRelayerControlRoutes(router, app);
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
    if (req.method === "POST") options.durable?.();
    sendJson(res, 200, toJsonSafe(result ?? {}));
  };

  const server = createHttpServer(options.timeouts, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ControlError)
        sendJson(res, error.status, { code: error.answerCode, message: error.message });
      else if (error instanceof FieldError)
        sendJson(res, 400, { code: error.answerCode, message: error.shortMessage });
      else if (error instanceof BodyError)
        sendJson(res, error.status, { code: "bad_json", message: error.message });
      else if (
        error instanceof RangeError ||
        (isDevnetError(error) && (error.reason === "invalid-argument" || error.reason === "out-of-range"))
      )
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
