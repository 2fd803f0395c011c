import { OAUTH_PG_SCHEMA, postgresOAuthStore } from "./oauth/postgres.js";
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
CREATE TABLE IF NOT EXISTS perpx_mcp_audit (
  id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now(), account TEXT NOT NULL,
  tool TEXT NOT NULL, request TEXT NOT NULL, checks TEXT NOT NULL, tx_hash TEXT, outcome TEXT NOT NULL
);`;

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * The store in Postgres, for several server instances behind one load balancer: a client id
 * claimed on one instance is a duplicate on every other, and the breaker and the audit log are
 * shared. Creates its tables (`perpx_mcp_*`) when missing.
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
    await pool.query(SCHEMA);
    await pool.query(OAUTH_PG_SCHEMA);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const one = async <T>(text: string, values: unknown[]) =>
    (await pool.query(text, values)).rows[0] as T | undefined;
  return {
    oauth: postgresOAuthStore(pool),
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
