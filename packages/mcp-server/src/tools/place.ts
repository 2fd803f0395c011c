import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { accountView, planOrder } from "@perpx/composite-client";
import { Exact } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import { z } from "zod";
import { indexerOf, openOrders } from "../accounts.js";
import { type CheckResult, notionalPrice, positionAfter, runOrderChecks } from "../checks.js";
import { credentialKey, takeWrite } from "../rate-limit.js";
import { positionsOf, reserveExposure } from "../reserve.js";
import { dailyLoss } from "../risk.js";
import type { McpStore } from "../store.js";
import { cancelGate } from "./cancelled.js";
import { defineTool } from "./define.js";
import type { ToolDeps } from "./deps.js";
import { checkPlaceShape, orderOfInput, placeInput, scheduleOf } from "./placeInput.js";
import { ToolFailure } from "./result.js";
import { orderRisk, placedOrder, verification } from "./schemas.js";
import { sendOrder, verifyPlaced } from "./verify.js";

const output = {
  dryRun: z.boolean(),
  order: placedOrder,
  risk: orderRisk,
  checks: z.array(z.object({ check: z.string(), passed: z.boolean() })),
  txHash: z.string().optional(),
  verification: verification.optional(),
  message: z.string(),
};

async function gather(deps: ToolDeps, t: string) {
  const indexer = indexerOf(deps.account);
  const { context } = deps.account;
  await context.markets.refresh(t).catch(() => undefined);
  // Positions and equity from the chain (the indexer may lag a block behind a fill).
  const [market, { markets }, view, open] = await Promise.all([
    context.markets.get(t),
    indexer.getPerpetualMarkets({ ticker: t }),
    accountView(context),
    openOrders(deps, 0),
  ]);
  const indexed = markets[t];
  if (!indexed) throw new ToolFailure("NOT_FOUND", `no market ${t}`);
  const { position, otherNotional } = positionsOf(view, t);
  return {
    market,
    indexed,
    position,
    otherNotional,
    equity: view.equity,
    freeCollateral: view.freeCollateral,
    openOrders: open.length,
    breakerTripped: (await dailyLoss(deps, view.equity)).tripped,
  };
}

/**
 * Registers `place_order`: the credential's write rate, shape, the pre-trade checks in order, quantisation, idempotent client
 * ids, `dryRun`, confirmation above a notional; then signs with the trading key, sends, and answers
 * the verified state; when that is not known within the verification timeout, `isError: true` with code
 * `TIMEOUT_UNKNOWN`, the tx hash and what was seen. Nothing is sent when a check fails; nothing is
 * ever resubmitted.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * registerPlaceOrder(server, deps).title; // "Place order"
 * ```
 */
export function registerPlaceOrder(server: McpServer, deps: ToolDeps) {
  const { account, limits, store } = deps;
  const owner = account.principal.account;
  return defineTool(server, "place_order", {
    title: "Place order",
    description:
      "Places a MARKET (IOC within slippageBps of the oracle), LIMIT or TWAP (the chain splits it into suborders over twap.durationSeconds; the checks take its whole notional) order on your subaccount 0 after the server's safety checks, and answers its verified state (FILLED, PARTIALLY_FILLED, RESTING, CANCELED, EXPIRED, REJECTED). When the state is not known in time the call fails with TIMEOUT_UNKNOWN: the order was sent, so call get_order before retrying. Use dryRun to preview.",
    input: placeInput,
    output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    run: async (args, signal) => {
      // A cancelled request stops while nothing is sent; once the order went out it runs to its end.
      const cancel = cancelGate(signal, "the order");
      await takeWrite(
        deps.rateLimiter,
        credentialKey(account.principal),
        limits.maxWritesPerMinute,
        "place_order",
      );
      const checks: CheckResult[] = [];
      let audited = false;
      const audit = (outcome: unknown, txHash?: string) =>
        store.audit({ account: owner, tool: "place_order", request: args, checks, txHash, outcome });
      try {
        checkPlaceShape(args);
        checks.push({ check: "shape", passed: true });
        // A market TWAP's tolerance is its slippage: the same limit holds.
        const slippage = args.slippageBps ?? args.twap?.priceToleranceBps ?? 0;
        const slippageArg = args.twap === undefined ? "slippageBps" : "twap.priceToleranceBps";
        if (slippage > limits.maxSlippageBps) {
          throw new ToolFailure(
            "RISK_LIMIT",
            `${slippageArg} ${slippage} is above the limit maxSlippageBps ${limits.maxSlippageBps}`,
            { limit: "maxSlippageBps" },
          );
        }
        const facts = await gather(deps, args.ticker);
        cancel.check();
        const planned = orderOfInput(args, {
          oracle: facts.indexed.oraclePrice,
          stepSize: facts.indexed.stepSize,
          slippageBps: args.slippageBps ?? limits.defaultSlippageBps,
          clobPair: facts.market,
        });
        runOrderChecks(
          {
            ticker: args.ticker,
            side: args.side,
            size: planned.size,
            price: planned.price,
            oracle: facts.indexed.oraclePrice,
            marketStatus: facts.indexed.status,
            reduceOnly: args.reduceOnly ?? false,
            position: facts.position,
            otherNotional: facts.otherNotional,
            equity: facts.equity,
            freeCollateral: facts.freeCollateral,
            initialMarginFraction: facts.indexed.initialMarginFraction,
            openOrders: facts.openOrders,
            breakerTripped: facts.breakerTripped,
          },
          limits,
          checks,
        );
        const { context } = account;
        const clientId =
          args.clientId ?? (await unusedClientId(store, owner, args.ticker, context.clientIds));
        const order = { ...planned.order, clientId };
        const planning = { market: facts.market, clientId, subaccount: { owner, number: 0 } };
        planOrder(order, { ...planning, height: context.height.current(), nowMs: Date.now() });
        checks.push({ check: "quantization", passed: true });
        const { after } = positionAfter({ side: args.side, size: planned.size, position: facts.position });
        const afterNotional = new Exact(after).abs().times(facts.indexed.oraclePrice);
        const equity = new Exact(facts.equity);
        const risk = {
          equity: facts.equity,
          positionBefore: facts.position,
          positionAfter: after,
          positionNotionalAfter: afterNotional.toFixed(2, "halfExpand"),
          markPrice: facts.indexed.oraclePrice,
          leverageAfter: equity.greaterThan(0)
            ? afterNotional
                .plus(facts.otherNotional)
                .dividedBy(equity, { scale: 4, rounding: "halfExpand" })
                .toFixed(4, "trunc")
            : null,
        };
        const twap = scheduleOf(args, planned.size, facts.indexed.stepSize);
        const summary = {
          ticker: args.ticker,
          side: args.side,
          type: args.type,
          size: planned.size,
          price: planned.price,
          clientId,
          reduceOnly: args.reduceOnly ?? false,
          ...(twap === undefined ? {} : { twap }),
        };
        const oracle = facts.indexed.oraclePrice;
        const notional = new Exact(planned.size).times(
          notionalPrice({ side: args.side, price: planned.price, oracle }),
        );
        const key = { account: owner, ticker: args.ticker, clientId };
        const toReserve = {
          ticker: args.ticker,
          side: args.side,
          size: planned.size,
          price: planned.price,
          oracle: facts.indexed.oraclePrice,
          reduceOnly: args.reduceOnly ?? false,
          clientId,
          // Planned again when reserved: its good-til counts from then.
          plan: () => planOrder(order, { ...planning, height: context.height.current(), nowMs: Date.now() }),
        };
        if (args.dryRun) {
          const used = await store.orderOutcome(key);
          if (used) throw duplicate(clientId, used.outcome);
          checks.push({ check: "client_id", passed: true });
          await reserveExposure(deps, toReserve, { dryRun: true });
          checks.push({ check: "exposure", passed: true });
          const result = {
            dryRun: true,
            order: summary,
            risk,
            checks,
            message: "dry run: every check passed; nothing was sent",
          };
          await audit(result);
          return result;
        }
        if (notional.greaterThan(limits.confirmAboveNotional) && !args.confirm) {
          throw new ToolFailure(
            "CONFIRMATION_REQUIRED",
            `the order's notional ${notional.toDecimalPlaces(8, "ceil").toFixed()} USD is above ${limits.confirmAboveNotional} USD: call again with confirm: true`,
          );
        }
        checks.push({ check: "confirmation", passed: true });
        cancel.check();
        // Reserved against the account's limits with every order in flight, before anything is signed.
        const exposure = await reserveExposure(deps, toReserve);
        checks.push({ check: "exposure", passed: true });
        let sent: Awaited<ReturnType<typeof sendOrder>>;
        try {
          cancel.check();
          const claim = await store.claimOrder(key);
          if (!claim.claimed) throw duplicate(clientId, claim.outcome);
          checks.push({ check: "client_id", passed: true });
          try {
            sent = await sendOrder(
              context,
              account.placed,
              order,
              () => exposure.replan(),
              // The last check, right before the signed bytes go out.
              (step) => cancel.onBroadcast(step),
            );
          } catch (error) {
            const txHash = txHashOf(error);
            if (txHash) {
              // Sent with no answer: the client id stays claimed with the tx hash, so a retry with
              // it is refused as a duplicate instead of placing the order twice.
              await store.settleOrder(key, { state: "UNKNOWN", txHash });
            } else if (!cancel.sent || nothingSent(error)) {
              // Cancelled or refused before its signed bytes went out: nothing can be on the chain,
              // so the client id is given back (the agent may use it again).
              const released = await store.releaseClaim(key).catch(() => false);
              if (!released) await store.settleOrder(key, { state: "NOT_SENT" });
            } else {
              // The node answered a refusal: the id stays used.
              await store.settleOrder(key, { state: "REJECTED" });
            }
            throw error;
          }
        } catch (error) {
          // An order that may have been placed keeps its reservation: it lapses at its good-til.
          if (!txHashOf(error)) await exposure.release();
          throw error;
        }
        const timeoutMs = args.verifyTimeoutMs ?? deps.verifyTimeoutMs;
        const verified = await verifyPlaced(sent.handle, {
          timeoutMs,
          statefulSettleMs: deps.statefulSettleMs,
        });
        await store.settleOrder(key, { ...verified, txHash: sent.txHash });
        // Released after the answer (the indexer may list a resting order a block later); a release
        // that fails leaves the reservation to lapse at the order's good-til.
        exposure.settle(verified, timeoutMs).catch(() => {});
        const unknown = verified.state === "UNKNOWN";
        const result = {
          dryRun: false,
          order: summary,
          checks,
          txHash: sent.txHash,
          risk,
          verification: verified,
          message: unknown
            ? `the order was sent but its state is not known after ${timeoutMs} ms: it may still fill. Call get_order with clientId ${clientId} and ticker ${args.ticker} before retrying; do not resubmit.`
            : twap === undefined
              ? `order ${verified.state}`
              : `TWAP order ${verified.state}: ${twap.schedule}`,
        };
        await audit(result, sent.txHash);
        audited = true;
        if (unknown) {
          throw new ToolFailure("TIMEOUT_UNKNOWN", result.message, {
            txHash: sent.txHash,
            order: summary,
            risk,
            verification: verified,
          });
        }
        return result;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const txHash = txHashOf(error);
        if (!audited) await audit(txHash ? { unknown: message } : { refused: message }, txHash);
        throw error;
      }
    },
  });
}

/**
 * A client id the server picks: the composite client's next one for the market, skipping ids the
 * store has seen (the counter is seeded from the clock in seconds, so a server restarted within
 * seconds of its last orders would otherwise pick one of theirs).
 */
async function unusedClientId(
  store: McpStore,
  account: string,
  ticker: string,
  ids: { next(key: string): number },
): Promise<number> {
  for (;;) {
    const clientId = ids.next(`${account}/0/${ticker}`);
    if ((await store.orderOutcome({ account, ticker, clientId })) === undefined) return clientId;
  }
}

/** The tx hash of a send that failed after its bytes may have gone out (`TIMEOUT_UNKNOWN`). */
function txHashOf(error: unknown): string | undefined {
  if (!(error instanceof ToolFailure) || error.toolCode !== "TIMEOUT_UNKNOWN") return undefined;
  const { txHash } = error.facts;
  return typeof txHash === "string" ? txHash : undefined;
}

/** A transport's failure that says its request never left the client (`nothingSent`). */
const nothingSent = (error: unknown) =>
  isPerpxError(error) && (error as { nothingSent?: unknown }).nothingSent === true;

function duplicate(clientId: number, outcome: unknown): ToolFailure {
  return new ToolFailure(
    "DUPLICATE_CLIENT_ID",
    `clientId ${clientId} was already used on this market: nothing was sent. Call get_order for its state.`,
    { existing: outcome ?? null },
  );
}
