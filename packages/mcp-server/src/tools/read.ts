import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Exact } from "@perpx/core";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { z } from "zod";
import { indexerOf, openOrders } from "../accounts.js";
import { findOrder } from "../order-lookup.js";
import { settleLookedUp } from "../reserve.js";
import { dailyLoss } from "../risk.js";
import { defineTool, orderId as orderIdArg, subaccountNumber, ticker } from "./define.js";
import type { ToolDeps } from "./deps.js";
import { ToolFailure } from "./result.js";
import {
  candle,
  dailyLossState,
  decimal,
  fill,
  funding,
  market,
  order,
  position,
  subaccount,
  trade,
  tradingLimits,
} from "./schemas.js";

const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: true } as const;

const level = z.object({ price: decimal, size: decimal });

/**
 * Registers the read tools: markets, a market, order book, trades, candles (oldest first), account,
 * positions, open orders, one order, fills, funding and PnL, and the trading limits.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * registerReadTools(server, deps);
 * ```
 */
export function registerReadTools(server: McpServer, deps: ToolDeps): void {
  const { account, limits } = deps;
  const owner = account.principal.account;
  const allowed = (t: string) => limits.allowedMarkets === undefined || limits.allowedMarkets.includes(t);
  const sub = (n: number | undefined) => ({ owner, number: n ?? 0 });

  defineTool(server, "list_markets", {
    title: "List markets",
    description:
      "Perpetual markets with oracle price, tick and step sizes, margin fractions and whether this server lets you trade them.",
    input: {
      allowedOnly: z.boolean().optional().describe("only markets this server lets you trade (default false)"),
    },
    output: { markets: z.array(market) },
    annotations: READ,
    run: async ({ allowedOnly }) => {
      const { markets } = await indexerOf(account).getPerpetualMarkets();
      const rows = Object.values(markets).map((m) => ({ ...m, tradableByThisServer: allowed(m.ticker) }));
      return { markets: allowedOnly ? rows.filter((m) => m.tradableByThisServer) : rows };
    },
  });

  defineTool(server, "get_market", {
    title: "Get market",
    description:
      "One market's parameters, quantisation (atomic resolution, subticks per tick, step base quantums) and this server's limits for it.",
    input: { ticker },
    output: { market, limits: tradingLimits },
    annotations: READ,
    run: async ({ ticker: t }) => {
      const { markets } = await indexerOf(account).getPerpetualMarkets();
      const found = markets[t];
      if (!found)
        throw new ToolFailure("NOT_FOUND", `no market ${t}; markets: ${Object.keys(markets).join(", ")}`);
      return { market: { ...found, tradableByThisServer: allowed(t) }, limits: { ...limits } };
    },
  });

  defineTool(server, "get_orderbook", {
    title: "Order book",
    description: "A market's order book: bids (best first) and asks (best first), mid and spread.",
    input: {
      ticker,
      depth: z.number().int().min(1).max(50).optional().describe("levels a side (default 20)"),
    },
    output: {
      ticker: z.string(),
      bids: z.array(level),
      asks: z.array(level),
      mid: decimal.nullable(),
      spread: decimal.nullable(),
    },
    annotations: READ,
    run: async ({ ticker: t, depth }) => {
      const book = await indexerOf(account).getOrderbook({ ticker: t });
      const n = depth ?? 20;
      const bids = book.bids.slice(0, n).map(({ price, size }) => ({ price, size }));
      const asks = book.asks.slice(0, n).map(({ price, size }) => ({ price, size }));
      const [bid, ask] = [bids[0]?.price, asks[0]?.price];
      const both = bid !== undefined && ask !== undefined;
      return {
        ticker: t,
        bids,
        asks,
        mid: both ? new Exact(bid).plus(ask).times("0.5").toFixed() : null,
        spread: both ? new Exact(ask).minus(bid).toFixed() : null,
      };
    },
  });

  defineTool(server, "get_recent_trades", {
    title: "Recent trades",
    description: "A market's most recent trades, newest first.",
    input: { ticker, limit: z.number().int().min(1).max(100).optional() },
    output: { trades: z.array(trade) },
    annotations: READ,
    run: async ({ ticker: t, limit }) => ({
      trades: (await indexerOf(account).getTrades({ ticker: t, limit: limit ?? 50 })).trades,
    }),
  });

  defineTool(server, "get_candles", {
    title: "Candles",
    description: "A market's candles at one resolution, sorted oldest first.",
    input: {
      ticker,
      resolution: z.enum(["1MIN", "5MINS", "15MINS", "30MINS", "1HOUR", "4HOURS", "1DAY"]),
      fromISO: z.string().datetime().optional(),
      toISO: z.string().datetime().optional(),
      limit: z.number().int().min(1).max(100).optional(),
    },
    output: { candles: z.array(candle) },
    annotations: READ,
    run: async ({ ticker: t, resolution, fromISO, toISO, limit }) => {
      const { candles } = await indexerOf(account).getCandles({
        ticker: t,
        resolution,
        limit: limit ?? 100,
        ...(fromISO ? { fromISO } : {}),
        ...(toISO ? { toISO } : {}),
      });
      return { candles: [...candles].sort((a, b) => a.startedAt.localeCompare(b.startedAt)) };
    },
  });

  defineTool(server, "get_account", {
    title: "Account",
    description: "Your subaccount: equity, free collateral, open positions and USDC.",
    input: { subaccountNumber },
    output: { account: subaccount },
    annotations: READ,
    run: async ({ subaccountNumber: n }) => ({
      account: (await indexerOf(account).getSubaccount(sub(n))).subaccount,
    }),
  });

  defineTool(server, "get_positions", {
    title: "Positions",
    description:
      "Your perpetual positions (open by default) with entry price, realized and unrealized PnL and funding.",
    input: {
      subaccountNumber,
      status: z.enum(["OPEN", "CLOSED", "LIQUIDATED"]).optional(),
      ticker: ticker.optional(),
    },
    output: { positions: z.array(position) },
    annotations: READ,
    run: async ({ subaccountNumber: n, status, ticker: t }) => {
      const { positions } = await indexerOf(account).getPerpetualPositions({
        ...sub(n),
        status: [status ?? "OPEN"],
      });
      return { positions: t ? positions.filter((p) => p.market === t) : positions };
    },
  });

  defineTool(server, "get_open_orders", {
    title: "Open orders",
    description: "Your open (resting, untriggered or best-effort opened) orders.",
    input: { subaccountNumber, ticker: ticker.optional() },
    output: { orders: z.array(order) },
    annotations: READ,
    run: async ({ subaccountNumber: n, ticker: t }) => ({
      orders: await openOrders(deps, n ?? 0, t),
    }),
  });

  defineTool(server, "get_order", {
    title: "Order",
    description:
      "One of your orders by orderId, or by clientId and ticker, with its fills. Use it to learn an order's state before retrying.",
    input: {
      orderId: orderIdArg.optional(),
      clientId: z.number().int().min(0).max(4_294_967_295).optional(),
      ticker: ticker.optional(),
    },
    output: { order, fills: z.array(fill) },
    annotations: READ,
    run: async ({ orderId, clientId, ticker: t }) => {
      // A look-up settles what it learns: lapsed reservations, and this order's once it is known.
      const found = await findOrder(deps, { orderId, clientId, ticker: t }).catch(async (error: unknown) => {
        await settleLookedUp(deps);
        throw error;
      });
      // Reservations are of subaccount 0's orders, keyed by ticker and client id: an order of another
      // subaccount with the same client id tells nothing about them.
      await settleLookedUp(deps, found.subaccountNumber === 0 ? found : undefined);
      const { fills } = await indexerOf(account).getFills({
        ...sub(found.subaccountNumber),
        market: found.ticker,
        limit: 100,
      });
      return { order: found, fills: fills.filter((f) => f.orderId === found.id) };
    },
  });

  defineTool(server, "get_fills", {
    title: "Fills",
    description: "Your fills, newest first, with price, size, fee and liquidity.",
    input: {
      subaccountNumber,
      ticker: ticker.optional(),
      limit: z.number().int().min(1).max(100).optional(),
    },
    output: { fills: z.array(fill) },
    annotations: READ,
    run: async ({ subaccountNumber: n, ticker: t, limit }) => ({
      fills: (
        await indexerOf(account).getFills({ ...sub(n), ...(t ? { market: t } : {}), limit: limit ?? 50 })
      ).fills,
    }),
  });

  defineTool(server, "get_funding_and_pnl", {
    title: "Funding and PnL",
    description:
      "Your funding payments, your PnL ticks (equity, total PnL, net transfers per interval), and a market's historical funding rates.",
    input: {
      subaccountNumber,
      ticker: ticker.optional(),
      limit: z.number().int().min(1).max(100).optional(),
    },
    output: {
      fundingPayments: z.array(funding.payment),
      historicalPnl: z.array(funding.pnlTick),
      historicalFunding: z.array(funding.rate),
      unavailable: z.array(z.string()).describe("parts this indexer does not serve"),
    },
    annotations: READ,
    run: async ({ subaccountNumber: n, ticker: t, limit }) => {
      const indexer = indexerOf(account);
      const size = limit ?? 50;
      const [funding, pnl, rates] = await Promise.all([
        indexer
          .getFundingPayments({ ...sub(n), ...(t ? { ticker: t } : {}), limit: size })
          .catch((error: unknown) => {
            if (isIndexerNotFoundError(error)) return undefined;
            throw error;
          }),
        indexer.getHistoricalPnl({ ...sub(n), limit: size }),
        t
          ? indexer.getHistoricalFunding({ ticker: t, limit: size })
          : Promise.resolve({ historicalFunding: [] }),
      ]);
      return {
        fundingPayments: funding?.fundingPayments ?? [],
        historicalPnl: pnl.historicalPnl,
        historicalFunding: rates.historicalFunding,
        unavailable: funding ? [] : ["fundingPayments"],
      };
    },
  });

  defineTool(server, "get_trading_limits", {
    title: "Trading limits",
    description:
      "The limits this server enforces for your credential, the daily-loss breaker's state, and whether this session can trade.",
    input: {},
    output: {
      readOnly: z.boolean(),
      limits: tradingLimits,
      dailyLoss: dailyLossState,
    },
    annotations: READ,
    run: async () => ({
      readOnly: account.principal.readOnly,
      limits: { ...limits },
      dailyLoss: await dailyLoss(deps),
    }),
  });
}
