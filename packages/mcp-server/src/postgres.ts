import type { Pool, PoolClient } from "pg";
import { createKeyedMutex } from "./mutex.js";
import { OAUTH_PG_SCHEMA, postgresOAuthStore } from "./oauth/postgres.js";
import type { RateLimiter } from "./rate-limit.js";
import { type ReservationRow, reservationOfRow, reservationValues } from "./reservation.js";
import type { AuditEntry, McpStore } from "./store.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS perpx_mcp_orders (
  account TEXT NOT NULL, ticker TEXT NOT NULL, client_id BIGINT NOT NULL,
  outcome TEXT, created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account, ticker, client_id)
);
CREATE TABLE IF NOT EXISTS perpx_mcp_breaker (
  account TEXT NOT NULL, day TEXT NOT NULL, start_equity TEXT NOT NULL, tripped_at TIMESTAMPTZ,
  PRIMARY KEY (account, day)
);
CREATE TABLE IF NOT EXISTS perpx_mcp_locks (name TEXT PRIMARY KEY, settled BIGINT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS perpx_mcp_reservations (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, ticker TEXT NOT NULL, client_id BIGINT NOT NULL,
  side TEXT NOT NULL, size TEXT NOT NULL, price TEXT NOT NULL, reduce_only SMALLINT NOT NULL,
  may_rest SMALLINT NOT NULL, loss_budget TEXT NOT NULL, lapse_height BIGINT, lapse_ms BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS perpx_mcp_reservations_account ON perpx_mcp_reservations (account);
CREATE TABLE IF NOT EXISTS perpx_mcp_writes (key TEXT NOT NULL, at_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS perpx_mcp_writes_key ON perpx_mcp_writes (key, at_ms);
CREATE TABLE IF NOT EXISTS perpx_mcp_audit (
  id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now(), account TEXT NOT NULL,
  tool TEXT NOT NULL, request TEXT NOT NULL, checks TEXT NOT NULL, tx_hash TEXT, outcome TEXT NOT NULL
);`;

/** The advisory lock key under which a store creates its tables. */
const SCHEMA_LOCK = 7_252_031;

const COLUMNS =
  "id, account, ticker, client_id, side, size, price, reduce_only, may_rest, loss_budget, lapse_height, lapse_ms";

/** Creates the tables when missing, one instance at a time (instances starting together would race on them). */
async function createSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(SCHEMA);
    await client.query(OAUTH_PG_SCHEMA);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs `task` in a transaction that holds the row lock of `name` (created when missing): one such
 * transaction at a time per name, across every instance sharing the database.
 */
async function locked<T>(pool: Pool, name: string, task: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("INSERT INTO perpx_mcp_locks (name) VALUES ($1) ON CONFLICT DO NOTHING", [name]);
    await client.query("SELECT name FROM perpx_mcp_locks WHERE name = $1 FOR UPDATE", [name]);
    const result = await task(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The write rate in the database: one transaction per call, under the credential's row lock,
 * counts its calls in the window (by the database's clock, so instances agree) and records this
 * one when it is allowed.
 */
function postgresRateLimiter(pool: Pool, windowMs = 60_000): RateLimiter {
  return {
    take: (key, limit, now) =>
      locked(pool, `writes:${key}`, async (client) => {
        const at =
          now ??
          Number(
            (
              await client.query<{ now: string }>(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now",
              )
            ).rows[0]?.now,
          );
        await client.query("DELETE FROM perpx_mcp_writes WHERE key = $1 AND at_ms <= $2", [
          key,
          at - windowMs,
        ]);
        const { rows } = await client.query<{ at_ms: string }>(
          "SELECT at_ms FROM perpx_mcp_writes WHERE key = $1 ORDER BY at_ms DESC",
          [key],
        );
        if (rows.length < limit) {
          await client.query("INSERT INTO perpx_mcp_writes (key, at_ms) VALUES ($1, $2)", [key, at]);
          return { allowed: true as const };
        }
        // The call `limit` places back leaves the window first; limit 0 never allows one.
        const oldest = rows[limit - 1];
        return {
          allowed: false as const,
          retryAfterMs: oldest === undefined ? windowMs : Number(oldest.at_ms) + windowMs - at,
        };
      }),
  };
}

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * The store in Postgres, for several server instances behind one load balancer: a client id
 * claimed on one instance is a duplicate on every other; exposure reservations (one transaction
 * under a row lock per account), the write rate (one under a row lock per credential), the breaker
 * and the audit log are shared. Creates its tables (`perpx_mcp_*`) when missing.
 *
 * @param options - `connectionString`, and `maxConnections` (default 10) of the pool.
 * @returns the store, its tables created.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ connectionString: postgresUrl });
 * const server = await startMcpServer({ ...serverOptions, store });
 * await store.claimOrder({ account: "perpx1docs", ticker: "BTC-USD", clientId: 1 }); // { claimed: true }
 * await server.close(); // closes the store too
 * ```
 */
export async function openPostgresStore(options: {
  connectionString: string;
  maxConnections?: number;
}): Promise<McpStore> {
  // Loaded on first use: pg sets a global fetch dispatcher when it loads.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  try {
    await createSchema(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const one = async <T>(text: string, values: unknown[]) =>
    (await pool.query(text, values)).rows[0] as T | undefined;
  const deleteLapsed =
    "DELETE FROM perpx_mcp_reservations WHERE account = $1 AND (lapse_height < $2 OR lapse_ms < $3)";
  const selectReservations = `SELECT ${COLUMNS} FROM perpx_mcp_reservations WHERE account = $1 ORDER BY created_at, id`;
  // At most one connection per account waits on its row lock in this instance: the others wait
  // here, leaving the pool to the queries a decision makes.
  const local = createKeyedMutex();
  const withAccount = <T>(account: string, task: (client: PoolClient) => Promise<T>) =>
    local.run(account, () => locked(pool, `account:${account}`, task));
  /** Deletes under the account's lock; counts what a settled release deleted. */
  const drop = (account: string, where: string, values: unknown[], settled: boolean) =>
    withAccount(account, async (client) => {
      const deleted =
        (
          await client.query(`DELETE FROM perpx_mcp_reservations WHERE account = $1 AND ${where}`, [
            account,
            ...values,
          ])
        ).rowCount ?? 0;
      if (settled && deleted > 0) await bump(client, account, deleted);
      return deleted;
    });
  const bump = (client: PoolClient, account: string, count: number) =>
    client.query("UPDATE perpx_mcp_locks SET settled = settled + $2 WHERE name = $1", [
      `account:${account}`,
      count,
    ]);
  return {
    oauth: postgresOAuthStore(pool),
    writes: postgresRateLimiter(pool),
    reserve: (account, at, decide) =>
      withAccount(account, async (client) => {
        const lapsed = (await client.query(deleteLapsed, [account, at.height, at.nowMs])).rowCount ?? 0;
        if (lapsed > 0) await bump(client, account, lapsed);
        const { rows } = await client.query<ReservationRow>(selectReservations, [account]);
        const settled = await client.query<{ settled: string }>(
          "SELECT settled FROM perpx_mcp_locks WHERE name = $1",
          [`account:${account}`],
        );
        const decided = await decide(rows.map(reservationOfRow), Number(settled.rows[0]?.settled ?? 0));
        if (decided) {
          await client.query(
            `INSERT INTO perpx_mcp_reservations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            reservationValues(decided),
          );
        }
        return decided;
      }),
    async settledCount(account) {
      const row = await one<{ settled: string }>("SELECT settled FROM perpx_mcp_locks WHERE name = $1", [
        `account:${account}`,
      ]);
      return Number(row?.settled ?? 0);
    },
    async release(account, id, settled) {
      await drop(account, "id = $2", [id], settled);
    },
    async releaseOrder(key) {
      await drop(key.account, "ticker = $2 AND client_id = $3", [key.ticker, key.clientId], true);
    },
    releaseLapsed: (account, at) =>
      drop(account, "(lapse_height < $2 OR lapse_ms < $3)", [at.height, at.nowMs], true),
    async reservations(account) {
      return (await pool.query<ReservationRow>(selectReservations, [account])).rows.map(reservationOfRow);
    },
    async claimOrder(key) {
      const inserted = await pool.query(
        "INSERT INTO perpx_mcp_orders (account, ticker, client_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [key.account, key.ticker, key.clientId],
      );
      if (inserted.rowCount === 1) return { claimed: true };
      const row = await one<{ outcome: string | null }>(
        "SELECT outcome FROM perpx_mcp_orders WHERE account = $1 AND ticker = $2 AND client_id = $3",
        [key.account, key.ticker, key.clientId],
      );
      return { claimed: false, outcome: row?.outcome ? JSON.parse(row.outcome) : undefined };
    },
    async releaseClaim(key) {
      const deleted = await pool.query(
        "DELETE FROM perpx_mcp_orders WHERE account = $1 AND ticker = $2 AND client_id = $3 AND outcome IS NULL",
        [key.account, key.ticker, key.clientId],
      );
      return deleted.rowCount === 1;
    },
    async orderOutcome(key) {
      const row = await one<{ outcome: string | null }>(
        "SELECT outcome FROM perpx_mcp_orders WHERE account = $1 AND ticker = $2 AND client_id = $3",
        [key.account, key.ticker, key.clientId],
      );
      return row ? { outcome: row.outcome ? JSON.parse(row.outcome) : null } : undefined;
    },
    async settleOrder(key, outcome) {
      await pool.query(
        "UPDATE perpx_mcp_orders SET outcome = $1 WHERE account = $2 AND ticker = $3 AND client_id = $4",
        [json(outcome), key.account, key.ticker, key.clientId],
      );
    },
    async dayStartEquity(account, day, equity) {
      await pool.query(
        "INSERT INTO perpx_mcp_breaker (account, day, start_equity) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [account, day, equity],
      );
      const row = await one<{ start_equity: string }>(
        "SELECT start_equity FROM perpx_mcp_breaker WHERE account = $1 AND day = $2",
        [account, day],
      );
      return row?.start_equity ?? equity;
    },
    async breakerTripped(account, day) {
      const row = await one<{ tripped_at: Date | null }>(
        "SELECT tripped_at FROM perpx_mcp_breaker WHERE account = $1 AND day = $2",
        [account, day],
      );
      return Boolean(row?.tripped_at);
    },
    async tripBreaker(account, day) {
      await pool.query(
        "UPDATE perpx_mcp_breaker SET tripped_at = now() WHERE account = $1 AND day = $2 AND tripped_at IS NULL",
        [account, day],
      );
    },
    async audit(entry: AuditEntry) {
      await pool.query(
        "INSERT INTO perpx_mcp_audit (account, tool, request, checks, tx_hash, outcome) VALUES ($1, $2, $3, $4, $5, $6)",
        [
          entry.account,
          entry.tool,
          json(entry.request),
          json(entry.checks),
          entry.txHash ?? null,
          json(entry.outcome),
        ],
      );
    },
    async auditLog(account) {
      const { rows } = await pool.query<{
        at: Date;
        account: string;
        tool: string;
        request: string;
        checks: string;
        tx_hash: string | null;
        outcome: string;
      }>(
        "SELECT at, account, tool, request, checks, tx_hash, outcome FROM perpx_mcp_audit WHERE account = $1 ORDER BY id",
        [account],
      );
      return rows.map((row) => ({
        at: row.at.toISOString(),
        account: row.account,
        tool: row.tool,
        request: JSON.parse(row.request),
        checks: JSON.parse(row.checks),
        txHash: row.tx_hash ?? undefined,
        outcome: JSON.parse(row.outcome),
      }));
    },
    async close() {
      await pool.end();
    },
  };
}
