import type { Pool } from "pg";
import type { AuthorizationCode, ConsentRequest, Grant, IssuedToken, OAuthStore } from "./store.js";

/** The OAuth tables in Postgres (`perpx_mcp_oauth_*`). */
export const OAUTH_PG_SCHEMA = `
CREATE TABLE IF NOT EXISTS perpx_mcp_oauth_clients (
  client_id TEXT PRIMARY KEY, info TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS perpx_mcp_oauth_requests (
  id TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at BIGINT NOT NULL, used BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS perpx_mcp_oauth_grants (
  id TEXT PRIMARY KEY, record TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  revoked BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS perpx_mcp_oauth_codes (
  hash TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at BIGINT NOT NULL, used BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS perpx_mcp_oauth_tokens (
  hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, record TEXT NOT NULL, expires_at BIGINT NOT NULL,
  used BOOLEAN NOT NULL DEFAULT false, revoked BOOLEAN NOT NULL DEFAULT false
);`;

type Row = { record: string; used: boolean };

/**
 * The OAuth tables in the agent server's Postgres database (its pool; the tables are created by
 * `openPostgresStore` with {@link OAUTH_PG_SCHEMA}), shared by every instance.
 */
export function postgresOAuthStore(pool: Pool): OAuthStore {
  const one = async (text: string, values: unknown[]) =>
    (await pool.query<Row>(text, values)).rows[0] as Row | undefined;
  const changed = async (text: string, values: unknown[]) => (await pool.query(text, values)).rowCount === 1;
  const parsed = <T>(row: Row | undefined): (T & { used: boolean }) | undefined =>
    row ? { ...(JSON.parse(row.record) as T), used: row.used } : undefined;
  return {
    async saveClient(clientId, info) {
      await pool.query(
        "INSERT INTO perpx_mcp_oauth_clients (client_id, info) VALUES ($1, $2) ON CONFLICT (client_id) DO UPDATE SET info = $2",
        [clientId, JSON.stringify(info)],
      );
    },
    async client(clientId) {
      const { rows } = await pool.query<{ info: string }>(
        "SELECT info FROM perpx_mcp_oauth_clients WHERE client_id = $1",
        [clientId],
      );
      return rows[0] ? (JSON.parse(rows[0].info) as Record<string, unknown>) : undefined;
    },
    async saveRequest(request) {
      await pool.query(
        "INSERT INTO perpx_mcp_oauth_requests (id, record, expires_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET record = $2",
        [request.id, JSON.stringify(request), request.expiresAt],
      );
    },
    async request(id) {
      const found = parsed<ConsentRequest>(
        await one(
          "SELECT record, used FROM perpx_mcp_oauth_requests WHERE id = $1 AND NOT used AND expires_at > $2",
          [id, Date.now()],
        ),
      );
      if (!found) return undefined;
      const { used: _used, ...request } = found;
      return request;
    },
    takeRequest: (id) =>
      changed(
        "UPDATE perpx_mcp_oauth_requests SET used = true WHERE id = $1 AND NOT used AND expires_at > $2",
        [id, Date.now()],
      ),
    async saveGrant(grant) {
      await pool.query("INSERT INTO perpx_mcp_oauth_grants (id, record) VALUES ($1, $2)", [
        grant.id,
        JSON.stringify(grant),
      ]);
    },
    async grant(id) {
      const found = parsed<Grant>(
        await one("SELECT record, false AS used FROM perpx_mcp_oauth_grants WHERE id = $1 AND NOT revoked", [
          id,
        ]),
      );
      if (!found) return undefined;
      const { used: _used, ...grant } = found;
      return grant;
    },
    async revokeGrant(id) {
      await pool.query("UPDATE perpx_mcp_oauth_grants SET revoked = true WHERE id = $1", [id]);
    },
    async saveCode(code) {
      await pool.query("INSERT INTO perpx_mcp_oauth_codes (hash, record, expires_at) VALUES ($1, $2, $3)", [
        code.hash,
        JSON.stringify(code),
        code.expiresAt,
      ]);
    },
    async code(hash) {
      return parsed<AuthorizationCode>(
        await one("SELECT record, used FROM perpx_mcp_oauth_codes WHERE hash = $1 AND expires_at > $2", [
          hash,
          Date.now(),
        ]),
      );
    },
    takeCode: (hash) =>
      changed(
        "UPDATE perpx_mcp_oauth_codes SET used = true WHERE hash = $1 AND NOT used AND expires_at > $2",
        [hash, Date.now()],
      ),
    async saveToken(token) {
      await pool.query(
        "INSERT INTO perpx_mcp_oauth_tokens (hash, grant_id, record, expires_at) VALUES ($1, $2, $3, $4)",
        [token.hash, token.grantId, JSON.stringify(token), token.expiresAt],
      );
    },
    async token(hash) {
      return parsed<IssuedToken>(
        await one(
          "SELECT record, used FROM perpx_mcp_oauth_tokens WHERE hash = $1 AND NOT revoked AND expires_at > $2",
          [hash, Date.now()],
        ),
      );
    },
    takeToken: (hash) =>
      changed(
        "UPDATE perpx_mcp_oauth_tokens SET used = true WHERE hash = $1 AND NOT used AND NOT revoked AND expires_at > $2",
        [hash, Date.now()],
      ),
    async revokeToken(hash) {
      await pool.query("UPDATE perpx_mcp_oauth_tokens SET revoked = true WHERE hash = $1", [hash]);
    },
  };
}
