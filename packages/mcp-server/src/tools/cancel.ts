import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { sendClob } from "@perpx/composite-client";
import { setLongTimeout } from "@perpx/core";
import type { OrderResponseObject } from "@perpx/core/indexer";
import type { TxMessage } from "@perpx/node-client";
import { batchCancelMsg, cancelOrderMsg, MAX_BATCH_CANCELS } from "@perpx/node-client/tx";
import { z } from "zod";
import { openOrders } from "../accounts.js";
import { findOrder, ordersByClientId, ordersNear } from "../order-lookup.js";
import { credentialKey, takeWrite } from "../rate-limit.js";
import { settleLookedUp } from "../reserve.js";
import { type CancelGate, cancelGate } from "./cancelled.js";
import { defineTool, orderId, ticker } from "./define.js";
import type { ToolDeps } from "./deps.js";
import { ToolFailure } from "./result.js";
import { cancelResult } from "./schemas.js";

/** Cancels of short-term orders live this many blocks. */
const CANCEL_BLOCKS = 20;
const FINAL = new Set(["CANCELED", "BEST_EFFORT_CANCELED", "FILLED"]);
const WRITE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
} as const;

type CancelResult = z.infer<typeof cancelResult>;

const isShortTerm = (order: OrderResponseObject) => order.orderFlags === "0";

function cancelMessage(deps: ToolDeps, order: OrderResponseObject): TxMessage {
  const common = {
    subaccount: { owner: deps.account.principal.account, number: order.subaccountNumber },
    clientId: Number(order.clientId),
    clobPairId: Number(order.clobPairId),
  };
  if (isShortTerm(order)) {
    return cancelOrderMsg({ ...common, kind: "short-term", goodTilBlock: Number(order.goodTilBlock) });
  }
  const until = Math.ceil(Date.parse(order.goodTilBlockTime ?? "") / 1000);
  return cancelOrderMsg({
    ...common,
    kind: order.orderFlags === "32" ? "conditional" : order.orderFlags === "128" ? "twap" : "long-term",
    goodTilBlockTime: until,
  });
}

/** Polls the indexer block by block until each order is final (or the time is up: `UNKNOWN`). */
async function verifyCancels(deps: ToolDeps, orders: OrderResponseObject[], timeoutMs: number) {
  const { context } = deps.account;
  const deadline = Date.now() + timeoutMs;
  const latest = new Map(orders.map((o) => [o.id, o]));
  const pending = () => [...latest.values()].filter((o) => !FINAL.has(o.status));
  while (pending().length > 0 && Date.now() < deadline) {
    const seen = context.height.current();
    let timer: { clear(): void } | undefined;
    await Promise.race([
      context.height.waitAbove(seen),
      new Promise((r) => {
        timer = setLongTimeout(() => r(undefined), Math.max(0, deadline - Date.now()));
      }),
    ]);
    timer?.clear();
    for (const t of new Set(pending().map((o) => o.ticker))) {
      const group = pending().filter((o) => o.ticker === t);
      for (const o of await ordersNear(deps, t, group)) if (latest.has(o.id)) latest.set(o.id, o);
    }
  }
  return latest;
}

/**
 * Cancels orders of the principal's subaccount 0: short-term ones by `MsgBatchCancel` per market
 * (at most 100 each, the chain's limit; each living as long as its longest order), stateful ones
 * each by `MsgCancelOrder`; then verifies each through the indexer until it is
 * CANCELED (or FILLED first: `filledBeforeCancel`) or the timeout passes (`UNKNOWN`). An order of
 * another subaccount is refused (`INVALID_INPUT`) before anything is sent. A request cancelled
 * before its first transaction went out stops (`CANCELLED`, nothing sent); after, it runs to its
 * end, its outcome recorded.
 */
async function cancelOrders(
  deps: ToolDeps,
  orders: OrderResponseObject[],
  timeoutMs: number,
  cancel: CancelGate,
): Promise<CancelResult[]> {
  const { context, placed } = deps.account;
  // The trading key acts on subaccount 0 only, and a batch cancel names its subaccount: an order of
  // another subaccount (found by orderId) would have its client id cancelled on subaccount 0.
  const foreign = orders.find((o) => o.subaccountNumber !== 0);
  if (foreign) {
    throw new ToolFailure(
      "INVALID_INPUT",
      `orderId ${foreign.id} is an order of subaccount ${foreign.subaccountNumber}: this server cancels orders of subaccount 0 only; nothing was cancelled`,
    );
  }
  // A TWAP's suborders (flags 256) are the chain's own: they end with their TWAP.
  const live = orders.filter((o) => !FINAL.has(o.status) && o.orderFlags !== "256");
  // Every message is built before anything is sent or marked, so one the builders refuse sends nothing.
  const sends: { message: TxMessage; ids: string[] }[] = [];
  const byMarket = new Map<string, OrderResponseObject[]>();
  for (const o of live.filter(isShortTerm))
    byMarket.set(o.clobPairId, [...(byMarket.get(o.clobPairId) ?? []), o]);
  for (const [clobPairId, group] of byMarket) {
    // The chain's batch carries at most MAX_BATCH_CANCELS cancels.
    for (let i = 0; i < group.length; i += MAX_BATCH_CANCELS) {
      const chunk = group.slice(i, i + MAX_BATCH_CANCELS);
      // A short-term cancel removes an order only when it lives at least as long as the order.
      let goodTilBlock = Number(context.height.current()) + CANCEL_BLOCKS;
      for (const o of chunk) goodTilBlock = Math.max(goodTilBlock, Number(o.goodTilBlock ?? 0));
      const message = batchCancelMsg({
        subaccount: { owner: deps.account.principal.account, number: 0 },
        cancels: [{ clobPairId: Number(clobPairId), clientIds: chunk.map((o) => Number(o.clientId)) }],
        goodTilBlock,
      });
      sends.push({ message, ids: chunk.map((o) => o.id) });
    }
  }
  for (const o of live.filter((x) => !isShortTerm(x)))
    sends.push({ message: cancelMessage(deps, o), ids: [o.id] });
  cancel.check();
  const marked: [{ canceled: boolean }, boolean][] = [];
  for (const o of live) {
    const entry = placed.get(`${o.ticker}/${o.clientId}`);
    if (entry) {
      marked.push([entry, entry.canceled]);
      entry.canceled = true;
    }
  }
  const hashes = new Map<string, string>();
  for (const { message, ids } of sends) {
    // Stopped before its first transaction went out: the orders are not being cancelled after all.
    const sent = await sendClob(context, [message], undefined, (step) => cancel.onBroadcast(step)).catch(
      (error: unknown) => {
        if (!cancel.sent) for (const [entry, before] of marked) entry.canceled = before;
        throw error;
      },
    );
    for (const id of ids) hashes.set(id, sent.hash);
  }
  const final = await verifyCancels(deps, orders, timeoutMs);
  for (const o of final.values()) await settleLookedUp(deps, o);
  return orders.map((o) => {
    const now = final.get(o.id) ?? o;
    const status = FINAL.has(now.status) ? now.status : "UNKNOWN";
    return {
      ticker: o.ticker,
      clientId: o.clientId,
      orderId: o.id,
      cancelled: status === "CANCELED" || status === "BEST_EFFORT_CANCELED",
      finalStatus: status,
      filledBeforeCancel: now.totalFilled,
      ...(hashes.has(o.id) ? { txHash: hashes.get(o.id) } : {}),
    };
  });
}

/**
 * Registers `cancel_order`, `batch_cancel_orders` and `cancel_all_orders`. Cancels stay allowed
 * after the daily-loss breaker trips (they count toward the credential's write rate); each answers every order's verified final status, or fails
 * with `TIMEOUT_UNKNOWN` (every order's status so far) when one is not final in time.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * registerCancelTools(server, deps).length; // 3
 * ```
 */
export function registerCancelTools(server: McpServer, deps: ToolDeps) {
  const { store } = deps;
  const owner = deps.account.principal.account;
  const timeout = z.number().int().min(1_000).max(60_000).optional();
  const audited = async (
    tool: string,
    request: unknown,
    signal: AbortSignal,
    run: (cancel: CancelGate) => Promise<CancelResult[]>,
  ) => {
    const cancel = cancelGate(signal, "its cancel transaction");
    await takeWrite(
      deps.rateLimiter,
      credentialKey(deps.account.principal),
      deps.limits.maxWritesPerMinute,
      tool,
    );
    let results: CancelResult[] | undefined;
    try {
      results = await run(cancel);
      await store.audit({
        account: owner,
        tool,
        request,
        checks: [],
        txHash: results.find((r) => r.txHash)?.txHash,
        outcome: results,
      });
    } catch (error) {
      await store.audit({
        account: owner,
        tool,
        request,
        checks: [],
        txHash: undefined,
        outcome: { refused: error instanceof Error ? error.message : String(error) },
      });
      throw error;
    }
    const unknown = results.filter((r) => r.finalStatus === "UNKNOWN").length;
    if (unknown > 0) {
      throw new ToolFailure(
        "TIMEOUT_UNKNOWN",
        `${unknown} cancel(s) sent but not verified in time: call get_order before cancelling again`,
        { results },
      );
    }
    return { results, message: `${results.filter((r) => r.cancelled).length} cancelled` };
  };
  const output = { results: z.array(cancelResult), message: z.string() };

  const cancelOne = defineTool(server, "cancel_order", {
    title: "Cancel order",
    description:
      "Cancels one of your orders of subaccount 0 (by orderId, or clientId and ticker) and answers its verified final status.",
    input: {
      orderId: orderId.optional(),
      clientId: z.number().int().min(0).max(4_294_967_295).optional(),
      ticker: ticker.optional(),
      verifyTimeoutMs: timeout,
    },
    output,
    annotations: WRITE,
    run: (args, signal) =>
      audited("cancel_order", args, signal, async (cancel) => [
        ...(await cancelOrders(
          deps,
          [await findOrder(deps, args)],
          args.verifyTimeoutMs ?? deps.verifyTimeoutMs,
          cancel,
        )),
      ]),
  });

  const batch = defineTool(server, "batch_cancel_orders", {
    title: "Batch cancel orders",
    description:
      "Cancels up to 100 of your orders of one market by client id (short-term ones in one batch transaction).",
    input: {
      ticker,
      clientIds: z.array(z.number().int().min(0).max(4_294_967_295)).min(1).max(100),
      verifyTimeoutMs: timeout,
    },
    output,
    annotations: WRITE,
    run: (args, signal) =>
      audited("batch_cancel_orders", args, signal, async (cancel) => {
        const orders = await ordersByClientId(deps, args.ticker, args.clientIds);
        const wanted = args.clientIds.map((id) => {
          const found = orders.get(id);
          if (!found)
            throw new ToolFailure(
              "NOT_FOUND",
              `no order with clientId ${id} on ${args.ticker}: nothing was cancelled`,
            );
          return found;
        });
        return cancelOrders(deps, wanted, args.verifyTimeoutMs ?? deps.verifyTimeoutMs, cancel);
      }),
  });

  const all = defineTool(server, "cancel_all_orders", {
    title: "Cancel all orders",
    description: "Cancels every open order of one market, or of all markets with allMarkets and confirm.",
    input: {
      ticker: ticker.optional(),
      allMarkets: z.boolean().optional(),
      confirm: z.boolean().optional(),
      verifyTimeoutMs: timeout,
    },
    output,
    annotations: WRITE,
    run: (args, signal) =>
      audited("cancel_all_orders", args, signal, async (cancel) => {
        if (args.ticker === undefined && !(args.allMarkets && args.confirm)) {
          throw new ToolFailure(
            "CONFIRMATION_REQUIRED",
            "give ticker, or allMarkets: true with confirm: true",
          );
        }
        const orders = await openOrders(deps, 0, args.ticker);
        return cancelOrders(deps, [...orders], args.verifyTimeoutMs ?? deps.verifyTimeoutMs, cancel);
      }),
  });
  return [cancelOne, batch, all];
}
