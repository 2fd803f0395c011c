/**
 * The PnL routes (`spec/indexer-api.md` 1.6) over the hourly ticks of the PnL model:
 * `/v4/historical-pnl` and its parent variant (children's ticks summed per hour, one tick per child
 * per hour, the newest tick of the hour carrying the time and height), and the newer `/v4/pnl` and
 * `/v4/pnl/parentSubaccountNumber` (ticks summed per hour across the subaccounts, or per day at
 * each day's earliest tick with `daily=true`).
 *
 * The reference's `/v4/pnl` routes never answer their validation failures: a parameter that fails
 * its rule is dropped (an invalid `limit` means no limit, an invalid address or number reads as
 * `undefined` and finds no subaccount), so they never answer 400; the parent variant has no paging.
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { iso, usdc } from "../format.js";
import type { Indexer } from "../indexer.js";
import type { PnlTick } from "../models/pnl.js";
import {
  afterFilter,
  childrenOf,
  createdFilter,
  createdOnOrAfter,
  parentParams,
  subaccountParams,
} from "./account-params.js";
import { notFound, ok, paginate, type Route } from "./routes.js";
import { isBooleanText, type RequestChecks } from "./validation.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface OwnedTick extends PnlTick {
  readonly subaccountNumber: number;
}

/** The ticks of `numbers` within the bounds, newest first. */
function ticksOf(
  indexer: Indexer,
  address: string,
  numbers: readonly number[],
  before: { height?: bigint; time?: Date },
  after: { height?: bigint; time?: Date },
): OwnedTick[] {
  const keepBefore = createdFilter(before);
  const keepAfter = afterFilter(after);
  return numbers
    .flatMap((n) => indexer.pnl.ticksOf(address, n).map((t) => ({ ...t, subaccountNumber: n })))
    .filter((t) => keepBefore(t.blockHeight, t.createdAt) && keepAfter(t.blockHeight, t.createdAt))
    .sort((a, b) => Number(b.blockHeight - a.blockHeight) || a.subaccountNumber - b.subaccountNumber);
}

/**
 * Quote quantums as a `pnl_ticks` column prints them: roundtable writes big.js `toFixed(6)` into
 * an unconstrained `numeric`, which keeps (and Postgres prints) all six decimals (`"9975.000000"`).
 */
function stored(quoteQuantums: bigint): string {
  const negative = quoteQuantums < 0n;
  const digits = (negative ? -quoteQuantums : quoteQuantums).toString().padStart(7, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/**
 * A tick's `/historical-pnl` body: roundtable's `pnl_ticks` row, whose `netTransfers` is the net
 * of the transfers since the subaccount's previous tick, while `totalPnl` is equity less every
 * transfer since genesis. A stored row prints its six decimals; comlink's parent route sums two
 * or more children's ticks with big.js `plus(...).toString()`, which drops them (`summed`).
 */
function historicalBody(
  t: {
    equity: bigint;
    netTransfers: bigint;
    transfersSinceLastTick: bigint;
    createdAt: Date;
    blockHeight: bigint;
    blockTime: Date;
  },
  summed = false,
) {
  const print = summed ? usdc : stored;
  return {
    equity: print(t.equity),
    totalPnl: print(t.equity - t.netTransfers),
    netTransfers: print(t.transfersSinceLastTick),
    createdAt: iso(t.createdAt),
    blockHeight: t.blockHeight.toString(),
    blockTime: iso(t.blockTime),
  };
}

/** Sums newest-first ticks per bucket of `spanMs` (newest bucket first), one tick per subaccount. */
function sumPerBucket(ticks: readonly OwnedTick[], spanMs: number) {
  const buckets = new Map<
    number,
    {
      equity: bigint;
      netTransfers: bigint;
      transfersSinceLastTick: bigint;
      first: OwnedTick;
      height: bigint;
      seen: Set<number>;
    }
  >();
  for (const t of ticks) {
    const start = Math.floor(t.createdAt.getTime() / spanMs) * spanMs;
    const bucket = buckets.get(start);
    if (bucket === undefined) {
      buckets.set(start, {
        equity: t.equity,
        netTransfers: t.netTransfers,
        transfersSinceLastTick: t.transfersSinceLastTick,
        first: t,
        height: t.blockHeight,
        seen: new Set([t.subaccountNumber]),
      });
    } else if (!bucket.seen.has(t.subaccountNumber)) {
      bucket.seen.add(t.subaccountNumber);
      bucket.equity += t.equity;
      bucket.netTransfers += t.netTransfers;
      bucket.transfersSinceLastTick += t.transfersSinceLastTick;
      if (t.blockHeight > bucket.height) bucket.height = t.blockHeight;
    }
  }
  return [...buckets.entries()].map(([start, b]) => ({ start, ...b }));
}

/** `/v4/pnl`'s rows: per hour, or per day at each day's earliest tick. */
function pnlRows(ticks: readonly OwnedTick[], daily: boolean) {
  let chosen = ticks;
  if (daily) {
    const earliest = new Map<number, number>();
    for (const t of ticks) {
      const day = Math.floor(t.createdAt.getTime() / DAY_MS);
      const at = t.createdAt.getTime();
      if (!(earliest.get(day) !== undefined && (earliest.get(day) as number) <= at)) earliest.set(day, at);
    }
    chosen = ticks.filter(
      (t) => earliest.get(Math.floor(t.createdAt.getTime() / DAY_MS)) === t.createdAt.getTime(),
    );
  }
  return sumPerBucket(chosen, daily ? DAY_MS : HOUR_MS)
    .sort((a, b) => (daily ? b.start - a.start : Number(b.height - a.height)))
    .map((b) => ({
      equity: usdc(b.equity),
      netTransfers: usdc(b.netTransfers),
      totalPnl: usdc(b.equity - b.netTransfers),
      createdAt: iso(b.start),
      createdAtHeight: b.height.toString(),
    }));
}

/**
 * The `/v4/pnl` routes' parameters: the reference runs their rules but never answers the
 * failures, and a parameter that fails its rule is dropped.
 */
function lenientParams(checks: RequestChecks, parent: boolean) {
  const start = checks.errors.length;
  const { address, n } = parent ? parentParams(checks) : subaccountParams(checks);
  const limit = checks.limit();
  const before = checks.createdBeforeOrAt();
  const after = createdOnOrAfter(checks);
  const page = parent ? undefined : checks.page();
  const daily = checks.oneOf("daily", isBooleanText, "Invalid value", "query", true);
  const failed = new Set(checks.errors.slice(start).map((e) => e.param));
  checks.errors.length = start;
  return {
    address: failed.has("address") ? undefined : address,
    n: failed.has(parent ? "parentSubaccountNumber" : "subaccountNumber") ? undefined : n,
    limit: failed.has("limit") ? undefined : limit,
    before,
    after,
    page,
    // validator.js's toBoolean: anything but "0", "false" and "" is true.
    daily: daily !== undefined && daily !== "0" && daily !== "false",
  };
}

/** The PnL routes. */
export const pnlRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getHistoricalPnl.path,
    cache: 10,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      const limit = checks.limit();
      const before = checks.createdBeforeOrAt();
      const after = createdOnOrAfter(checks);
      const page = checks.page();
      if (checks.errors.length > 0) return ok({});
      if (indexer.accounts.subaccount(address, n) === undefined) {
        return notFound(`No subaccount found with address ${address} and subaccountNumber ${n}`);
      }
      const rows = ticksOf(indexer, address, [n], before, after).map((t) => historicalBody(t));
      const { items, paging } = paginate(rows, limit, page, false);
      return ok({ historicalPnl: items, ...paging });
    },
  },
  {
    path: INDEXER_ROUTES.getParentHistoricalPnl.path,
    cache: 10,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      const limit = checks.limit();
      const before = checks.createdBeforeOrAt();
      const after = createdOnOrAfter(checks);
      checks.page();
      if (checks.errors.length > 0) return ok({});
      const children = childrenOf(indexer, address, n);
      if (children.length === 0) {
        return notFound(`No subaccounts found with address ${address} and parentSubaccountNumber ${n}`);
      }
      // The limit counts the children's ticks before they are summed.
      const ticks = ticksOf(indexer, address, children, before, after).slice(0, limit);
      const historicalPnl = sumPerBucket(ticks, HOUR_MS).map((b) =>
        historicalBody(
          {
            ...b.first,
            equity: b.equity,
            netTransfers: b.netTransfers,
            transfersSinceLastTick: b.transfersSinceLastTick,
          },
          b.seen.size > 1,
        ),
      );
      return ok({ historicalPnl });
    },
  },
  {
    path: INDEXER_ROUTES.getPnl.path,
    cache: 10,
    handler: (checks, indexer) => {
      const p = lenientParams(checks, false);
      if (
        p.address === undefined ||
        p.n === undefined ||
        indexer.accounts.subaccount(p.address, p.n) === undefined
      ) {
        return notFound(`No subaccount found with address ${p.address} and subaccountNumber ${p.n}`);
      }
      const rows = pnlRows(ticksOf(indexer, p.address, [p.n], p.before, p.after), p.daily);
      // An invalid limit was dropped: no limit, and no paging either.
      if (p.limit === undefined) return ok({ pnl: rows });
      const { items, paging } = paginate(rows, p.limit, p.page, false);
      return ok({ pnl: items, ...paging });
    },
  },
  {
    path: INDEXER_ROUTES.getParentPnl.path,
    cache: 10,
    handler: (checks, indexer) => {
      const p = lenientParams(checks, true);
      if (
        p.address === undefined ||
        p.n === undefined ||
        indexer.accounts.subaccount(p.address, p.n) === undefined
      ) {
        return notFound(`No subaccount found with address ${p.address} and parentSubaccountNumber ${p.n}`);
      }
      const children = childrenOf(indexer, p.address, p.n);
      const rows = pnlRows(ticksOf(indexer, p.address, children, p.before, p.after), p.daily);
      return ok({ pnl: p.limit === undefined ? rows : rows.slice(0, p.limit) });
    },
  },
];
