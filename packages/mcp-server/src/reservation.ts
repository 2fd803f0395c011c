/**
 * The exposure an order in flight holds against its master account's limits, from before it is
 * signed until its outcome is known: its worst case (the whole size at its limit or worst price),
 * whether it may rest (an open order), the loss it may realise at once, and when it lapses (the
 * order can no longer fill past its good-til, so a crashed server never holds it forever).
 *
 * @example
 * ```ts
 * const held: Reservation = { id: "r1", account: "perpx1...", ticker: "BTC-USD", clientId: 7, side: "BUY", size: "0.01", price: "65325", reduceOnly: false, mayRest: false, lossBudget: "3.25", lapseHeight: 120, lapseAtMs: undefined };
 * ```
 */
export interface Reservation {
  /** Unique per reservation. */
  id: string;
  /** The master account. */
  account: string;
  /** The market. */
  ticker: string;
  /** The order's client id. */
  clientId: number;
  /** Buy or sell. */
  side: "BUY" | "SELL";
  /** The order's size in base units (the whole of it may fill). */
  size: string;
  /** The limit price, or a MARKET order's worst price, USD. */
  price: string;
  /** Whether the order is reduce-only (it never grows a position). */
  reduceOnly: boolean;
  /** Whether the order may rest on the book (it counts as an open order). */
  mayRest: boolean;
  /** The loss the order may realise at once against the oracle, USD. */
  lossBudget: string;
  /** Lapses once the chain height is above this (a short-term order's good-til-block, plus slack). */
  lapseHeight: number | undefined;
  /** Lapses once the clock is past this, ms (a stateful order's good-til time, plus slack). */
  lapseAtMs: number | undefined;
}

/**
 * Where the chain and the clock stand: what decides which reservations have lapsed.
 *
 * @example
 * ```ts
 * const at: ChainClock = { height: 120, nowMs: Date.now() };
 * ```
 */
export interface ChainClock {
  /** The chain height. */
  height: number;
  /** The time, ms since the epoch. */
  nowMs: number;
}

/**
 * A reservation as both databases hold it (snake-case columns; numbers may come back as strings).
 *
 * @example
 * ```ts
 * const row: ReservationRow = { id: "r1", account: "perpx1...", ticker: "BTC-USD", client_id: 7, side: "BUY", size: "0.01", price: "65325", reduce_only: 0, may_rest: 0, loss_budget: "0", lapse_height: 120, lapse_ms: null };
 * ```
 */
export interface ReservationRow {
  id: string;
  account: string;
  ticker: string;
  client_id: number | string;
  side: string;
  size: string;
  price: string;
  reduce_only: number | boolean;
  may_rest: number | boolean;
  loss_budget: string;
  lapse_height: number | string | null;
  lapse_ms: number | string | null;
}

/**
 * A reservation from its row.
 *
 * @param row - the row as read.
 * @returns the reservation.
 *
 * @example
 * ```ts
 * const row: ReservationRow = { id: "r1", account: "perpx1a", ticker: "BTC-USD", client_id: "7", side: "BUY", size: "0.01", price: "65325", reduce_only: 0, may_rest: 1, loss_budget: "0", lapse_height: null, lapse_ms: "1700000000000" };
 * reservationOfRow(row).lapseAtMs; // 1700000000000
 * reservationOfRow(row).mayRest; // true
 * ```
 */
export function reservationOfRow(row: ReservationRow): Reservation {
  return {
    id: row.id,
    account: row.account,
    ticker: row.ticker,
    clientId: Number(row.client_id),
    side: row.side === "SELL" ? "SELL" : "BUY",
    size: row.size,
    price: row.price,
    reduceOnly: Boolean(row.reduce_only),
    mayRest: Boolean(row.may_rest),
    lossBudget: row.loss_budget,
    lapseHeight: row.lapse_height === null ? undefined : Number(row.lapse_height),
    lapseAtMs: row.lapse_ms === null ? undefined : Number(row.lapse_ms),
  };
}

/**
 * A reservation's column values, in the order `id, account, ticker, client_id, side, size, price,
 * reduce_only, may_rest, loss_budget, lapse_height, lapse_ms`.
 *
 * @param r - the reservation.
 * @returns the values to insert.
 *
 * @example
 * ```ts
 * const r = { id: "r1", account: "perpx1a", ticker: "BTC-USD", clientId: 7, side: "BUY" as const, size: "0.01", price: "65325", reduceOnly: false, mayRest: false, lossBudget: "0", lapseHeight: 120, lapseAtMs: undefined };
 * reservationValues(r).slice(-5); // [0, 0, "0", 120, null]
 * ```
 */
export function reservationValues(r: Reservation): (string | number | null)[] {
  return [
    r.id,
    r.account,
    r.ticker,
    r.clientId,
    r.side,
    r.size,
    r.price,
    r.reduceOnly ? 1 : 0,
    r.mayRest ? 1 : 0,
    r.lossBudget,
    r.lapseHeight ?? null,
    r.lapseAtMs ?? null,
  ];
}
