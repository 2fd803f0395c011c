import { randomUUID } from "node:crypto";
import { type AccountView, accountView, type WireOrder } from "@perpx/composite-client";
import { Exact, type LongTimeout, setLongTimeout } from "@perpx/core";
import { openOrders } from "./accounts.js";
import { type AccountExposure, checkExposure, lossBudget, type PendingOrder } from "./exposure.js";
import type { ChainClock, Reservation } from "./reservation.js";
import { dayLoss } from "./risk.js";
import type { ToolDeps } from "./tools/deps.js";
import { ToolFailure } from "./tools/result.js";
import type { Verification } from "./tools/verify.js";

/** A short-term order's reservation lapses this many blocks past its good-til-block (its fills have settled). */
const SHORT_TERM_SLACK_BLOCKS = 2;
/** How many blocks after its reservation a short-term order may still be signed (planned again, its good-til later). */
const SIGN_WINDOW_BLOCKS = 20;
/** A stateful order's reservation lapses this long past its good-til time (block times trail the clock). */
const STATEFUL_SLACK_MS = 60_000;
/** What a look-up may find an order to be once its exposure is counted elsewhere (its fills, or the open orders). */
const KNOWN = new Set(["FILLED", "CANCELED", "BEST_EFFORT_CANCELED", "OPEN", "UNTRIGGERED"]);

/**
 * The signed position of an account in a market (base units, negative short) and the notional of
 * its positions in the other markets, exactly.
 *
 * @param view - the account, as the composite client reads it.
 * @param ticker - the market.
 * @returns the position and the other markets' notional, as decimal strings.
 *
 * @example
 * ```ts
 * import { accountView } from "@perpx/composite-client";
 *
 * positionsOf(await accountView(account.context), "BTC-USD"); // { position: "0", otherNotional: "0" }
 * ```
 */
export function positionsOf(
  view: Pick<AccountView, "positions">,
  ticker: string,
): { position: string; otherNotional: string } {
  let position = new Exact(0);
  let otherNotional = new Exact(0);
  for (const p of view.positions) {
    if (p.market === ticker)
      position = position.plus(new Exact(p.size).abs().times(p.side === "SHORT" ? -1 : 1));
    else otherNotional = otherNotional.plus(new Exact(p.value).abs());
  }
  return { position: position.toFixed(), otherNotional: otherNotional.toFixed() };
}

/**
 * An order about to be signed, as its reservation needs it.
 *
 * @example
 * ```ts
 * import { planOrder } from "@perpx/composite-client";
 *
 * const order = { market: "BTC-USD", side: "BUY" as const, size: "0.001", price: "30000", goodTil: { seconds: 3600 } };
 * const market = await account.context.markets.get("BTC-USD");
 * const plan = () => planOrder(order, { market, height: account.context.height.current(), nowMs: Date.now(), clientId: 7_102, subaccount: { owner: account.principal.account, number: 0 } });
 * const planned: PlannedOrder = { ticker: "BTC-USD", side: "BUY", size: "0.001", price: "30000", oracle: "30000", reduceOnly: false, clientId: 7_102, plan };
 * planned.plan().kind; // "long-term"
 * ```
 */
export interface PlannedOrder extends PendingOrder {
  /** The oracle price the checks use, USD. */
  oracle: string;
  /** The client id. */
  clientId: number;
  /** Plans the order as it will be signed (its good-til counts from the height when it is reserved). */
  plan(): WireOrder;
}

/**
 * The exposure an order holds until its outcome is known.
 *
 * @example
 * ```ts
 * import { planOrder } from "@perpx/composite-client";
 *
 * const order = { market: "BTC-USD", side: "BUY" as const, size: "0.001", price: "30000", goodTil: { seconds: 3600 } };
 * const market = await account.context.markets.get("BTC-USD");
 * const plan = () => planOrder(order, { market, height: account.context.height.current(), nowMs: Date.now(), clientId: 7_103, subaccount: { owner: account.principal.account, number: 0 } });
 * const held: HeldExposure = await reserveExposure(deps, { ticker: "BTC-USD", side: "BUY", size: "0.001", price: "30000", oracle: "30000", reduceOnly: false, clientId: 7_103, plan });
 * await held.release();
 * (await deps.store.reservations(account.principal.account)).length; // 0
 * ```
 */
export interface HeldExposure {
  /** The stored reservation (undefined for a dry run). */
  reservation: Reservation | undefined;
  /**
   * Plans the order again, right before signing (its good-til counts from then).
   *
   * @throws {ToolFailure} UPSTREAM_UNAVAILABLE when it would outlive its reservation (signing came
   * too late): nothing may be sent.
   */
  replan(): WireOrder;
  /** Releases it: the order was never placed. */
  release(): Promise<void>;
  /**
   * Releases it once the outcome is counted elsewhere: fills once the chain height reached them (the
   * position now holds them), a resting order once the indexer lists it open; cancelled, expired and
   * refused orders at once. An UNKNOWN outcome keeps it (a look-up or its lapse releases it), as
   * does an outcome not counted elsewhere within `timeoutMs`. Callers need not wait for it: until
   * then a reservation whose order the indexer lists open counts once.
   */
  settle(verified: Verification, timeoutMs: number): Promise<void>;
}

/** The chain height and the clock, for lapses. */
function clockOf(deps: ToolDeps): ChainClock {
  return { height: Number(deps.account.context.height.current()), nowMs: Date.now() };
}

/** What the order's reservation stores, with a lapse tied to its good-til. */
function reservationOf(deps: ToolDeps, planned: PlannedOrder, wire: WireOrder): Reservation {
  const mayRest = wire.kind !== "short-term";
  return {
    id: randomUUID(),
    account: deps.account.principal.account,
    ticker: planned.ticker,
    clientId: planned.clientId,
    side: planned.side,
    size: planned.size,
    price: planned.price,
    reduceOnly: planned.reduceOnly,
    mayRest,
    lossBudget: lossBudget(planned, planned.oracle),
    lapseHeight:
      wire.kind === "short-term"
        ? wire.goodTilBlock + SIGN_WINDOW_BLOCKS + SHORT_TERM_SLACK_BLOCKS
        : undefined,
    lapseAtMs: wire.kind === "short-term" ? undefined : wire.goodTilBlockTime * 1000 + STATEFUL_SLACK_MS,
  };
}

/** The account as the exposure check reads it: the chain's positions, the indexer's resting orders. */
async function exposureOf(
  deps: ToolDeps,
  ticker: string,
  dayStart?: string,
): Promise<AccountExposure & { startEquity: string }> {
  const owner = deps.account.principal.account;
  const [view, open] = await Promise.all([accountView(deps.account.context), openOrders(deps, 0)]);
  const day = new Date().toISOString().slice(0, 10);
  const startEquity = dayStart ?? (await deps.store.dayStartEquity(owner, day, view.equity));
  return {
    startEquity,
    ...positionsOf(view, ticker),
    equity: view.equity,
    loss: dayLoss(startEquity, view.equity),
    openOrders: open.map((o) => ({
      ticker: o.ticker,
      side: o.side === "SELL" ? "SELL" : "BUY",
      size: Exact.max(0, new Exact(o.size).minus(o.totalFilled)).toFixed(),
      price: o.price,
      reduceOnly: o.reduceOnly,
      clientId: Number(o.clientId),
    })),
  };
}

/**
 * Checks and reserves an order's exposure against its master account's limits, atomically with
 * every other reservation of that account (every session, every instance sharing the store): the
 * account is read under the reservation's lock, and the order's worst case is counted with every
 * order still in flight (see `checkExposure`). The one place the tools reserve from. A dry run
 * checks the same way and stores nothing.
 *
 * @param deps - the session's tool dependencies.
 * @param planned - the order about to be signed.
 * @param options - `dryRun`: check only.
 * @returns the held exposure, to release or settle with the order's outcome.
 * @throws {ToolFailure} RISK_LIMIT naming the limit.
 *
 * @example
 * ```ts
 * import { planOrder } from "@perpx/composite-client";
 *
 * const { context } = account;
 * const order = { market: "BTC-USD", side: "BUY" as const, size: "0.001", price: "30000", goodTil: { seconds: 3600 } };
 * const market = await context.markets.get("BTC-USD");
 * const plan = () => planOrder(order, { market, height: context.height.current(), nowMs: Date.now(), clientId: 7_101, subaccount: { owner: account.principal.account, number: 0 } });
 * const held = await reserveExposure(deps, { ticker: "BTC-USD", side: "BUY", size: "0.001", price: "30000", oracle: "30000", reduceOnly: false, clientId: 7_101, plan });
 * held.replan().kind; // "long-term"
 * (await deps.store.reservations(account.principal.account)).length; // 1
 * await held.release();
 * (await deps.store.reservations(account.principal.account)).length; // 0
 * ```
 */
export async function reserveExposure(
  deps: ToolDeps,
  planned: PlannedOrder,
  options: { dryRun?: boolean } = {},
): Promise<HeldExposure> {
  const { store, limits } = deps;
  const owner = deps.account.principal.account;
  // Read before the lock; read again under it only when a release settled since (the chain's
  // position or the open orders may then hold what a released reservation held).
  const settledBefore = await store.settledCount(owner);
  const before = await exposureOf(deps, planned.ticker);
  let wire: WireOrder | undefined;
  const reservation = await store.reserve(owner, clockOf(deps), async (held, settled) => {
    const account =
      settled === settledBefore ? before : await exposureOf(deps, planned.ticker, before.startEquity);
    checkExposure(planned, account, held, limits);
    wire = planned.plan();
    return options.dryRun ? undefined : reservationOf(deps, planned, wire);
  });
  if (!wire) throw new ToolFailure("INTERNAL", "the reservation was decided without planning its order");
  const release = async (settled: boolean) => {
    if (reservation) await store.release(owner, reservation.id, settled);
  };
  return {
    reservation,
    replan() {
      const next = planned.plan();
      const late =
        next.kind === "short-term"
          ? reservation?.lapseHeight !== undefined &&
            next.goodTilBlock + SHORT_TERM_SLACK_BLOCKS > reservation.lapseHeight
          : reservation?.lapseAtMs !== undefined && next.goodTilBlockTime * 1000 > reservation.lapseAtMs;
      if (late) {
        throw new ToolFailure(
          "UPSTREAM_UNAVAILABLE",
          `the order could not be signed within ${SIGN_WINDOW_BLOCKS} blocks of its reservation: nothing was sent`,
        );
      }
      return next;
    },
    release: () => release(false),
    async settle(verified, timeoutMs) {
      if (!reservation || verified.state === "UNKNOWN") return;
      const deadline = Date.now() + timeoutMs;
      const top = verified.fills.reduce((h, f) => (BigInt(f.height) > h ? BigInt(f.height) : h), 0n);
      if (top > 0n && !(await heightReached(deps, top, deadline))) return;
      const rests =
        verified.state === "RESTING" || (verified.state === "PARTIALLY_FILLED" && !verified.final);
      if (rests && !(await listedOpen(deps, planned, deadline))) return;
      await release(true);
    },
  };
}

/** Waits until the chain height is at least `height`; false at the deadline. */
async function heightReached(deps: ToolDeps, height: bigint, deadline: number): Promise<boolean> {
  const tracker = deps.account.context.height;
  if (tracker.current() >= height) return true;
  let timer: LongTimeout | undefined;
  const reached = await Promise.race([
    tracker.waitAbove(height - 1n).then(() => true),
    new Promise<boolean>((resolve) => {
      // A settle runs after the answer: it never holds the process open.
      timer = setLongTimeout(() => resolve(false), Math.max(0, deadline - Date.now())).unref();
    }),
  ]);
  timer?.clear();
  return reached;
}

/** Waits, block by block, until the indexer lists the order open; false at the deadline. */
async function listedOpen(deps: ToolDeps, planned: PlannedOrder, deadline: number): Promise<boolean> {
  for (;;) {
    const open = await openOrders(deps, 0, planned.ticker);
    if (open.some((o) => o.clientId === String(planned.clientId))) return true;
    if (Date.now() >= deadline) return false;
    if (!(await heightReached(deps, deps.account.context.height.current() + 1n, deadline))) return false;
  }
}

/**
 * What a look-up of an order tells the reservations: the account's lapsed reservations are released
 * (their orders can no longer fill, and their fills have settled), and so is the order's own when
 * the indexer found it filled, cancelled or resting (its exposure now counts in the position or the
 * open orders).
 *
 * @param deps - the session's tool dependencies.
 * @param found - the order the look-up found, if any.
 * @returns nothing.
 *
 * @example
 * ```ts
 * await settleLookedUp(deps, { ticker: "BTC-USD", clientId: "7101", status: "CANCELED" });
 * (await deps.store.reservations(account.principal.account)).length; // 0
 * ```
 */
export async function settleLookedUp(
  deps: ToolDeps,
  found?: { ticker: string; clientId: string; status: string },
): Promise<void> {
  const owner = deps.account.principal.account;
  await deps.store.releaseLapsed(owner, clockOf(deps));
  if (found && KNOWN.has(found.status)) {
    await deps.store.releaseOrder({ account: owner, ticker: found.ticker, clientId: Number(found.clientId) });
  }
}
