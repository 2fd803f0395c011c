/**
 * Trade history rows from a subaccount's fills, as the reference's comlink computes them: fills of
 * one order in one block are one trade (at the size-weighted price); each (subaccount, market)
 * replays its trades as a position lifecycle (OPEN, EXTEND, PARTIAL_CLOSE, CLOSE, the liquidation
 * variants, and a close plus an open when a trade crosses zero), with the running fee and
 * realized PnL of the lifecycle. Arithmetic is exact decimal except divisions, which round half up
 * to 20 places as Big.js does; texts are Big.js's `toFixed()` (no exponent, no trailing zeros).
 */
import { scaled } from "../format.js";

/** An exact decimal `v × 10^e`. */
interface Dec {
  readonly v: bigint;
  readonly e: number;
}

const ZERO: Dec = { v: 0n, e: 0 };

function dec(text: string): Dec {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const v = BigInt(whole + fraction);
  return { v: negative ? -v : v, e: -fraction.length };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.v * 10n ** BigInt(a.e - e), b.v * 10n ** BigInt(b.e - e), e];
}

const add = (a: Dec, b: Dec): Dec => {
  const [x, y, e] = align(a, b);
  return { v: x + y, e };
};
const sub = (a: Dec, b: Dec): Dec => add(a, { v: -b.v, e: b.e });
const mul = (a: Dec, b: Dec): Dec => ({ v: a.v * b.v, e: a.e + b.e });
const sign = (a: Dec) => (a.v > 0n ? 1 : a.v < 0n ? -1 : 0);
const abs = (a: Dec): Dec => (a.v < 0n ? { v: -a.v, e: a.e } : a);
const neg = (a: Dec): Dec => ({ v: -a.v, e: a.e });
const lt = (a: Dec, b: Dec) => sign(sub(a, b)) < 0;
const text = (a: Dec) => scaled(a.v, a.e);

/** `a / b` rounded half up (away from zero) to 20 decimal places, as Big.js divides. */
function div(a: Dec, b: Dec): Dec {
  const [x, y] = align(a, b);
  const negative = x < 0n !== y < 0n;
  const n = (x < 0n ? -x : x) * 10n ** 20n;
  const d = y < 0n ? -y : y;
  const q = (n * 2n + d) / (2n * d);
  return { v: negative ? -q : q, e: -20 };
}

/** One side of a fill, as the trade history reads it (human decimal texts). */
export interface TradeFill {
  readonly id: string;
  readonly subaccountNumber: number;
  readonly ticker: string;
  readonly marginMode: string;
  readonly side: "BUY" | "SELL";
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  /** The order's id, or undefined for a liquidation (no order). */
  readonly orderId?: string;
  /** The order's type, when the order is known. */
  readonly orderType?: string;
  readonly createdAt: string;
  readonly createdAtHeight: string;
}

/** One trade history row, in the reference's key order. */
export interface TradeHistoryRow {
  readonly id: string;
  readonly subaccountNumber: number;
  readonly action: string;
  readonly executionPrice: string;
  readonly entryPrice: string;
  readonly side: string;
  readonly positionSide: string | null;
  readonly prevSize: string;
  readonly additionalSize: string;
  readonly value: string;
  readonly orderType: string | null;
  readonly netFee: string;
  readonly netRealizedPnl: string;
  readonly netRealizedPnlPercent: string | null;
  readonly time: string;
  readonly orderId: string | null;
  readonly marketId: string;
  readonly marginMode: string;
}

interface Group {
  readonly first: TradeFill;
  size: Dec;
  weighted: Dec;
  fee: Dec;
  last: TradeFill;
}

interface Lifecycle {
  position: Dec;
  entry: Dec;
  pnl: Dec;
  fee: Dec;
  costBasis: Dec;
}

/** Fills of one order in one block form one group; each liquidation fill is its own. */
function groupsOf(fills: readonly TradeFill[]): Group[] {
  const groups: Group[] = [];
  const byKey = new Map<string, Group>();
  for (const fill of fills) {
    const key = fill.orderId === undefined ? undefined : `${fill.orderId}:${fill.createdAtHeight}`;
    const existing = key === undefined ? undefined : byKey.get(key);
    if (existing === undefined) {
      const group: Group = {
        first: fill,
        size: dec(fill.size),
        weighted: mul(dec(fill.price), dec(fill.size)),
        fee: dec(fill.fee),
        last: fill,
      };
      groups.push(group);
      if (key !== undefined) byKey.set(key, group);
    } else {
      existing.size = add(existing.size, dec(fill.size));
      existing.weighted = add(existing.weighted, mul(dec(fill.price), dec(fill.size)));
      existing.fee = add(existing.fee, dec(fill.fee));
      if (fill.createdAt > existing.last.createdAt) existing.last = fill;
    }
  }
  return groups;
}

const closingPnl = (long: boolean, amount: Dec, price: Dec, entry: Dec) =>
  long ? mul(sub(price, entry), amount) : mul(sub(entry, price), amount);

function rowOf(
  group: Group,
  state: Lifecycle,
  fields: Pick<TradeHistoryRow, "action" | "positionSide" | "prevSize" | "additionalSize" | "value">,
  suffix: "" | ":close" | ":open",
  price: Dec,
  percent: boolean,
): TradeHistoryRow {
  const f = group.first;
  const base = f.orderId === undefined ? f.id : `${f.orderId}:${f.createdAtHeight}`;
  return {
    id: `${base}${suffix}`,
    subaccountNumber: f.subaccountNumber,
    action: fields.action,
    executionPrice: text(price),
    entryPrice: text(state.entry),
    side: f.side,
    positionSide: fields.positionSide,
    prevSize: fields.prevSize,
    additionalSize: fields.additionalSize,
    value: fields.value,
    orderType: f.orderId === undefined ? null : (f.orderType ?? null),
    netFee: text(state.fee),
    netRealizedPnl: text(state.pnl),
    netRealizedPnlPercent:
      percent && sign(state.costBasis) > 0 ? text(div(state.pnl, state.costBasis)) : null,
    time: group.last.createdAt,
    orderId: f.orderId ?? null,
    marketId: f.ticker,
    marginMode: f.marginMode,
  };
}

function reset(state: Lifecycle): void {
  state.pnl = ZERO;
  state.fee = ZERO;
  state.costBasis = ZERO;
  state.entry = ZERO;
}

/** One group against the lifecycle: one row, or a close and an open when it crosses zero. */
function apply(group: Group, state: Lifecycle): TradeHistoryRow[] {
  const liquidation = group.first.orderId === undefined;
  const price = div(group.weighted, group.size);
  const delta = group.first.side === "BUY" ? group.size : neg(group.size);
  const before = state.position;
  const after = add(before, delta);
  const sideOf = (p: Dec) => (sign(p) > 0 ? "LONG" : sign(p) < 0 ? "SHORT" : null);
  if (sign(before) !== 0 && sign(after) !== 0 && sign(before) !== sign(after)) {
    const closing = abs(before);
    const closeFee = div(mul(group.fee, closing), group.size);
    state.pnl = add(state.pnl, closingPnl(sign(before) > 0, closing, price, state.entry));
    state.fee = add(state.fee, closeFee);
    state.costBasis = add(state.costBasis, mul(state.entry, closing));
    const close = rowOf(
      group,
      state,
      {
        action: liquidation ? "LIQUIDATION_CLOSE" : "CLOSE",
        positionSide: null,
        prevSize: text(closing),
        additionalSize: text(group.first.side === "BUY" ? closing : neg(closing)),
        value: text(mul(closing, price)),
      },
      ":close",
      price,
      true,
    );
    reset(state);
    state.fee = sub(group.fee, closeFee);
    state.position = after;
    state.entry = price;
    const open = rowOf(
      group,
      state,
      {
        action: "OPEN",
        positionSide: sideOf(after),
        prevSize: "0",
        additionalSize: text(after),
        value: text(mul(abs(after), price)),
      },
      ":open",
      price,
      false,
    );
    return [close, open];
  }
  const flat = sign(before) === 0;
  const becomesFlat = sign(after) === 0;
  const reducing = !flat && lt(abs(after), abs(before));
  const action = flat
    ? "OPEN"
    : becomesFlat
      ? liquidation
        ? "LIQUIDATION_CLOSE"
        : "CLOSE"
      : reducing
        ? liquidation
          ? "LIQUIDATION_PARTIAL_CLOSE"
          : "PARTIAL_CLOSE"
        : "EXTEND";
  if (reducing || becomesFlat) {
    const amount = becomesFlat ? abs(before) : sub(abs(before), abs(after));
    state.pnl = add(state.pnl, closingPnl(sign(before) > 0, amount, price, state.entry));
    state.costBasis = add(state.costBasis, mul(state.entry, amount));
  }
  state.fee = add(state.fee, group.fee);
  if (flat) state.entry = price;
  else if (!reducing && !becomesFlat)
    state.entry = div(add(mul(state.entry, abs(before)), mul(price, group.size)), abs(after));
  const row = rowOf(
    group,
    state,
    {
      action,
      positionSide: sideOf(after),
      prevSize: text(abs(before)),
      additionalSize: text(delta),
      value: text(mul(group.size, price)),
    },
    "",
    price,
    true,
  );
  state.position = after;
  if (becomesFlat) reset(state);
  return [row];
}

/**
 * The trade history of fills given oldest first (by time, then event id): rows newest first (by
 * time, then id descending, so a crossing trade's open row comes before its close row).
 */
export function tradeHistoryRows(fills: readonly TradeFill[]): TradeHistoryRow[] {
  const byLifecycle = new Map<string, TradeFill[]>();
  for (const fill of fills) {
    const key = `${fill.subaccountNumber}:${fill.ticker}`;
    const list = byLifecycle.get(key);
    if (list === undefined) byLifecycle.set(key, [fill]);
    else list.push(fill);
  }
  const rows: TradeHistoryRow[] = [];
  for (const list of byLifecycle.values()) {
    const state: Lifecycle = { position: ZERO, entry: ZERO, pnl: ZERO, fee: ZERO, costBasis: ZERO };
    for (const group of groupsOf(list)) rows.push(...apply(group, state));
  }
  return rows.sort((a, b) =>
    a.time !== b.time ? (a.time > b.time ? -1 : 1) : a.id > b.id ? -1 : a.id < b.id ? 1 : 0,
  );
}
