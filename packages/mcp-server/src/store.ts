import { createKeyedMutex } from "./mutex.js";
import { sqliteOAuthStore } from "./oauth/sqlite.js";
import type { OAuthStore } from "./oauth/store.js";
import { createRateLimiter, type RateLimiter } from "./rate-limit.js";
import {
  type ChainClock,
  type Reservation,
  type ReservationRow,
  reservationOfRow,
  reservationValues,
} from "./reservation.js";
import { openSqliteDatabase } from "./sqlite-driver.js";

/**
 * An order's idempotency key: one client id per account and market.
 *
 * @example
 * ```ts
 * const key: OrderKey = { account: "perpx1...", ticker: "BTC-USD", clientId: 7 };
 * ```
 */
export interface OrderKey {
  /** The master account. */
  account: string;
  /** The market. */
  ticker: string;
  /** The client id. */
  clientId: number;
}

/**
 * One write as the audit log keeps it: never a key or a credential.
 *
 * @example
 * ```ts
 * const entry: AuditEntry = { account: "perpx1...", tool: "place_order", request: {}, checks: [], txHash: undefined, outcome: {} };
 * ```
 */
export interface AuditEntry {
  /** The master account. */
  account: string;
  /** The tool called. */
  tool: string;
  /** The tool's arguments. */
  request: unknown;
  /** The checks run, in order, with their verdicts. */
  checks: unknown;
  /** The transaction's hash, when one was sent. */
  txHash: string | undefined;
  /** The verified outcome or the refusal. */
  outcome: unknown;
}

/**
 * What the server keeps across restarts: the daily-loss breaker, client-id idempotency, exposure
 * reservations of orders in flight, the write rate (shared when the database is) and the audit
 * log. Methods are async so that a shared database can stand behind the same interface.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * const account = "perpx1docs";
 * await store.claimOrder({ account, ticker: "BTC-USD", clientId: 1 }); // { claimed: true }
 * (await store.claimOrder({ account, ticker: "BTC-USD", clientId: 1 })).claimed; // false
 * await store.releaseClaim({ account, ticker: "BTC-USD", clientId: 1 }); // true: nothing was sent
 * (await store.claimOrder({ account, ticker: "BTC-USD", clientId: 1 })).claimed; // true
 * await store.close();
 * ```
 */
export interface McpStore {
  /**
   * Claims a client id before an order is sent: `claimed: false` with the stored outcome when it
   * was claimed before (on this instance or another sharing the database).
   */
  claimOrder(key: OrderKey): Promise<{ claimed: true } | { claimed: false; outcome: unknown }>;
  /**
   * Gives back a claim whose order was never sent (cancelled, or refused before its signed bytes
   * went out), so that the client id can be used again: deletes it while it holds no outcome. Only
   * the call holding the claim calls it, and only before anything of its order may have been sent;
   * an outcome recorded for the id (on any instance) keeps it used. Answers whether it was released.
   */
  releaseClaim(key: OrderKey): Promise<boolean>;
  /** The stored outcome of a claimed client id (`outcome` null while it is in flight), if any. */
  orderOutcome(key: OrderKey): Promise<{ outcome: unknown } | undefined>;
  /** Records the outcome of a claimed order. */
  settleOrder(key: OrderKey, outcome: unknown): Promise<void>;
  /** The equity at the account's first reading of the UTC day (recording `equity` if none). */
  dayStartEquity(account: string, day: string, equity: string): Promise<string>;
  /** Whether the breaker tripped for the account on that day. */
  breakerTripped(account: string, day: string): Promise<boolean>;
  /** Trips the breaker for the account on that day. */
  tripBreaker(account: string, day: string): Promise<void>;
  /**
   * Checks and reserves exposure for an account atomically: drops the account's lapsed
   * reservations, then runs `decide` on the rest and the account's settled count (read together)
   * while no other reservation of the account (in this process, or in another sharing the
   * database) can be made, and stores what it answers (nothing when it answers undefined; nothing
   * when it throws, which `reserve` rethrows).
   */
  reserve(
    account: string,
    at: ChainClock,
    decide: (held: Reservation[], settled: number) => Promise<Reservation | undefined>,
  ): Promise<Reservation | undefined>;
  /**
   * How many of the account's reservations were released as settled (their outcome now counts in
   * the chain's position or the open orders): a read of the account made while it was lower may
   * miss what they held.
   */
  settledCount(account: string): Promise<number>;
  /** Releases a reservation: `settled` when its order's outcome now counts elsewhere, else it was never placed. */
  release(account: string, id: string, settled: boolean): Promise<void>;
  /** Releases the reservations of an order as settled (a look-up found its outcome). */
  releaseOrder(key: OrderKey): Promise<void>;
  /** Releases the account's lapsed reservations as settled; answers how many. */
  releaseLapsed(account: string, at: ChainClock): Promise<number>;
  /** The account's reservations not released, lapsed ones included. */
  reservations(account: string): Promise<Reservation[]>;
  /** Counts write-tool calls per credential: in this process, or in the database when it is shared. */
  writes: RateLimiter;
  /** Appends to the audit log. */
  audit(entry: AuditEntry): Promise<void>;
  /** The audit log of an account, oldest first. */
  auditLog(account: string): Promise<(AuditEntry & { at: string })[]>;
  /** The OAuth mode's clients, consents, grants, codes and tokens (same database). */
  oauth: OAuthStore;
  /** Closes the database. */
  close(): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  account TEXT NOT NULL, ticker TEXT NOT NULL, client_id INTEGER NOT NULL,
  outcome TEXT, created_at TEXT NOT NULL,
  PRIMARY KEY (account, ticker, client_id)
);
CREATE TABLE IF NOT EXISTS breaker (
  account TEXT NOT NULL, day TEXT NOT NULL, start_equity TEXT NOT NULL, tripped_at TEXT,
  PRIMARY KEY (account, day)
);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, ticker TEXT NOT NULL, client_id INTEGER NOT NULL,
  side TEXT NOT NULL, size TEXT NOT NULL, price TEXT NOT NULL, reduce_only INTEGER NOT NULL,
  may_rest INTEGER NOT NULL, loss_budget TEXT NOT NULL, lapse_height INTEGER, lapse_ms INTEGER
);
CREATE INDEX IF NOT EXISTS reservations_account ON reservations (account);
CREATE TABLE IF NOT EXISTS reservation_settled (account TEXT PRIMARY KEY, settled INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, account TEXT NOT NULL, tool TEXT NOT NULL,
  request TEXT NOT NULL, checks TEXT NOT NULL, tx_hash TEXT, outcome TEXT NOT NULL
);`;

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * The store in an embedded SQLite database (a file that survives restarts, or `":memory:"`), in WAL
 * mode. Its driver, the optional dependency `better-sqlite3`, loads here, on first use: without it
 * this throws {@link SqliteUnavailableError} (Postgres needs no SQLite).
 *
 * @param options - `path`: the database file, or `":memory:"`.
 * @returns the store (close it with `close()`).
 * @throws {SqliteUnavailableError} when `better-sqlite3` is not installed or not built.
 *
 * @example
 * ```ts
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = mkdtempSync(join(tmpdir(), "perpx-mcp-"));
 * const store = openSqliteStore({ path: join(dir, "state.db") });
 * await store.claimOrder({ account: "perpx1docs", ticker: "BTC-USD", clientId: 9 }); // { claimed: true }
 * await store.dayStartEquity("perpx1docs", "2026-01-03", "1000"); // "1000"
 * await store.close();
 * const reopened = openSqliteStore({ path: join(dir, "state.db") });
 * (await reopened.claimOrder({ account: "perpx1docs", ticker: "BTC-USD", clientId: 9 })).claimed; // false: the claim survived
 * await reopened.dayStartEquity("perpx1docs", "2026-01-03", "900"); // "1000": the first reading stays
 * await reopened.close();
 * rmSync(dir, { recursive: true, force: true });
 * ```
 */
export function openSqliteStore(options: { path: string }): McpStore {
  const db = openSqliteDatabase(options.path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  const now = () => new Date().toISOString();
  const insertOrder = db.prepare(
    "INSERT INTO orders (account, ticker, client_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const selectOrder = db.prepare<[string, string, number], { outcome: string | null }>(
    "SELECT outcome FROM orders WHERE account = ? AND ticker = ? AND client_id = ?",
  );
  const deleteClaim = db.prepare(
    "DELETE FROM orders WHERE account = ? AND ticker = ? AND client_id = ? AND outcome IS NULL",
  );
  const updateOrder = db.prepare(
    "UPDATE orders SET outcome = ? WHERE account = ? AND ticker = ? AND client_id = ?",
  );
  const insertDay = db.prepare(
    "INSERT INTO breaker (account, day, start_equity) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const selectDay = db.prepare<[string, string], { start_equity: string; tripped_at: string | null }>(
    "SELECT start_equity, tripped_at FROM breaker WHERE account = ? AND day = ?",
  );
  const trip = db.prepare(
    "UPDATE breaker SET tripped_at = ? WHERE account = ? AND day = ? AND tripped_at IS NULL",
  );
  const insertAudit = db.prepare(
    "INSERT INTO audit (at, account, tool, request, checks, tx_hash, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const selectAudit = db.prepare<
    [string],
    {
      at: string;
      account: string;
      tool: string;
      request: string;
      checks: string;
      tx_hash: string | null;
      outcome: string;
    }
  >("SELECT at, account, tool, request, checks, tx_hash, outcome FROM audit WHERE account = ? ORDER BY id");
  const oauth = sqliteOAuthStore(db);
  const COLUMNS =
    "id, account, ticker, client_id, side, size, price, reduce_only, may_rest, loss_budget, lapse_height, lapse_ms";
  const insertReservation = db.prepare(
    `INSERT INTO reservations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectReservations = db.prepare<[string], ReservationRow>(
    `SELECT ${COLUMNS} FROM reservations WHERE account = ? ORDER BY rowid`,
  );
  const deleteLapsed = db.prepare(
    "DELETE FROM reservations WHERE account = ? AND (lapse_height < ? OR lapse_ms < ?)",
  );
  const selectSettled = db.prepare<[string], { settled: number }>(
    "SELECT settled FROM reservation_settled WHERE account = ?",
  );
  const bump = db.prepare(
    "INSERT INTO reservation_settled (account, settled) VALUES (?, ?) ON CONFLICT (account) DO UPDATE SET settled = settled + excluded.settled",
  );
  const settledOf = (account: string) => selectSettled.get(account)?.settled ?? 0;
  const dropLapsed = db.transaction((account: string, at: ChainClock) => {
    const { changes } = deleteLapsed.run(account, at.height, at.nowMs);
    if (changes > 0) bump.run(account, changes);
    return changes;
  });
  const drop = db.transaction(
    (account: string, where: string, values: (string | number)[], settled: boolean) => {
      const { changes } = db
        .prepare(`DELETE FROM reservations WHERE account = ? AND ${where}`)
        .run(account, ...values);
      if (settled && changes > 0) bump.run(account, changes);
    },
  );
  // One process holds this database: the account's lock is a mutex in memory.
  const locks = createKeyedMutex();
  return {
    oauth,
    writes: createRateLimiter(),
    reserve: (account, at, decide) =>
      locks.run(account, async () => {
        dropLapsed(account, at);
        const decided = await decide(
          selectReservations.all(account).map(reservationOfRow),
          settledOf(account),
        );
        if (decided) insertReservation.run(...reservationValues(decided));
        return decided;
      }),
    async settledCount(account) {
      return settledOf(account);
    },
    async release(account, id, settled) {
      drop(account, "id = ?", [id], settled);
    },
    async releaseOrder(key) {
      drop(key.account, "ticker = ? AND client_id = ?", [key.ticker, key.clientId], true);
    },
    async releaseLapsed(account, at) {
      return dropLapsed(account, at);
    },
    async reservations(account) {
      return selectReservations.all(account).map(reservationOfRow);
    },
    async claimOrder(key) {
      const { changes } = insertOrder.run(key.account, key.ticker, key.clientId, now());
      if (changes === 1) return { claimed: true };
      const row = selectOrder.get(key.account, key.ticker, key.clientId);
      return { claimed: false, outcome: row?.outcome ? JSON.parse(row.outcome) : undefined };
    },
    async releaseClaim(key) {
      return deleteClaim.run(key.account, key.ticker, key.clientId).changes === 1;
    },
    async orderOutcome(key) {
      const row = selectOrder.get(key.account, key.ticker, key.clientId);
      return row ? { outcome: row.outcome ? JSON.parse(row.outcome) : null } : undefined;
    },
    async settleOrder(key, outcome) {
      updateOrder.run(json(outcome), key.account, key.ticker, key.clientId);
    },
    async dayStartEquity(account, day, equity) {
      insertDay.run(account, day, equity);
      return selectDay.get(account, day)?.start_equity ?? equity;
    },
    async breakerTripped(account, day) {
      return Boolean(selectDay.get(account, day)?.tripped_at);
    },
    async tripBreaker(account, day) {
      trip.run(now(), account, day);
    },
    async audit(entry) {
      insertAudit.run(
        now(),
        entry.account,
        entry.tool,
        json(entry.request),
        json(entry.checks),
        entry.txHash ?? null,
        json(entry.outcome),
      );
    },
    async auditLog(account) {
      return selectAudit.all(account).map((row) => ({
        at: row.at,
        account: row.account,
        tool: row.tool,
        request: JSON.parse(row.request),
        checks: JSON.parse(row.checks),
        txHash: row.tx_hash ?? undefined,
        outcome: JSON.parse(row.outcome),
      }));
    },
    async close() {
      db.close();
    },
  };
}
