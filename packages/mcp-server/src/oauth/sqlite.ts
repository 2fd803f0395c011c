import type Database from "better-sqlite3";
import type { AuthorizationCode, ConsentRequest, Grant, IssuedToken, OAuthStore } from "./store.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id TEXT PRIMARY KEY, info TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS oauth_requests (
  id TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS oauth_grants (
  id TEXT PRIMARY KEY, record TEXT NOT NULL, created_at TEXT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS oauth_codes (
  hash TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS oauth_tokens (
  hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, record TEXT NOT NULL, expires_at INTEGER NOT NULL,
  used INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0
);`;

type Row = { record: string; used: number };

/**
 * The OAuth tables (`oauth_*`) in the agent server's SQLite database: created when missing.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 *
 * const oauth = sqliteOAuthStore(new Database(":memory:"));
 * await oauth.saveClient("c1", { client_id: "c1", redirect_uris: ["http://127.0.0.1/cb"] });
 * await oauth.client("c1"); // { client_id: "c1", redirect_uris: ["http://127.0.0.1/cb"] }
 * await oauth.takeCode("no such code"); // false
 * ```
 */
export function sqliteOAuthStore(db: Database.Database): OAuthStore {
  db.exec(SCHEMA);
  const now = () => new Date().toISOString();
  const q = {
    saveClient: db.prepare(
      "INSERT OR REPLACE INTO oauth_clients (client_id, info, created_at) VALUES (?, ?, ?)",
    ),
    client: db.prepare<[string], { info: string }>("SELECT info FROM oauth_clients WHERE client_id = ?"),
    saveRequest: db.prepare(
      "INSERT OR REPLACE INTO oauth_requests (id, record, expires_at) VALUES (?, ?, ?)",
    ),
    request: db.prepare<[string, number], Row>(
      "SELECT record, used FROM oauth_requests WHERE id = ? AND used = 0 AND expires_at > ?",
    ),
    takeRequest: db.prepare(
      "UPDATE oauth_requests SET used = 1 WHERE id = ? AND used = 0 AND expires_at > ?",
    ),
    saveGrant: db.prepare("INSERT INTO oauth_grants (id, record, created_at) VALUES (?, ?, ?)"),
    grant: db.prepare<[string], Row>(
      "SELECT record, 0 AS used FROM oauth_grants WHERE id = ? AND revoked = 0",
    ),
    revokeGrant: db.prepare("UPDATE oauth_grants SET revoked = 1 WHERE id = ?"),
    saveCode: db.prepare("INSERT INTO oauth_codes (hash, record, expires_at) VALUES (?, ?, ?)"),
    code: db.prepare<[string, number], Row>(
      "SELECT record, used FROM oauth_codes WHERE hash = ? AND expires_at > ?",
    ),
    takeCode: db.prepare("UPDATE oauth_codes SET used = 1 WHERE hash = ? AND used = 0 AND expires_at > ?"),
    saveToken: db.prepare(
      "INSERT INTO oauth_tokens (hash, grant_id, record, expires_at) VALUES (?, ?, ?, ?)",
    ),
    token: db.prepare<[string, number], Row>(
      "SELECT record, used FROM oauth_tokens WHERE hash = ? AND revoked = 0 AND expires_at > ?",
    ),
    takeToken: db.prepare(
      "UPDATE oauth_tokens SET used = 1 WHERE hash = ? AND used = 0 AND revoked = 0 AND expires_at > ?",
    ),
    revokeToken: db.prepare("UPDATE oauth_tokens SET revoked = 1 WHERE hash = ?"),
  };
  const parsed = <T>(row: Row | undefined): (T & { used: boolean }) | undefined =>
    row ? { ...(JSON.parse(row.record) as T), used: row.used === 1 } : undefined;
  return {
    async saveClient(clientId, info) {
      q.saveClient.run(clientId, JSON.stringify(info), now());
    },
    async client(clientId) {
      const row = q.client.get(clientId);
      return row ? (JSON.parse(row.info) as Record<string, unknown>) : undefined;
    },
    async saveRequest(request) {
      q.saveRequest.run(request.id, JSON.stringify(request), request.expiresAt);
    },
    async request(id) {
      const found = parsed<ConsentRequest>(q.request.get(id, Date.now()));
      if (!found) return undefined;
      const { used: _used, ...request } = found;
      return request;
    },
    async takeRequest(id) {
      return q.takeRequest.run(id, Date.now()).changes === 1;
    },
    async saveGrant(grant) {
      q.saveGrant.run(grant.id, JSON.stringify(grant), now());
    },
    async grant(id) {
      const found = parsed<Grant>(q.grant.get(id));
      if (!found) return undefined;
      const { used: _used, ...grant } = found;
      return grant;
    },
    async revokeGrant(id) {
      q.revokeGrant.run(id);
    },
    async saveCode(code) {
      q.saveCode.run(code.hash, JSON.stringify(code), code.expiresAt);
    },
    async code(hash) {
      return parsed<AuthorizationCode>(q.code.get(hash, Date.now()));
    },
    async takeCode(hash) {
      return q.takeCode.run(hash, Date.now()).changes === 1;
    },
    async saveToken(token) {
      q.saveToken.run(token.hash, token.grantId, JSON.stringify(token), token.expiresAt);
    },
    async token(hash) {
      return parsed<IssuedToken>(q.token.get(hash, Date.now()));
    },
    async takeToken(hash) {
      return q.takeToken.run(hash, Date.now()).changes === 1;
    },
    async revokeToken(hash) {
      q.revokeToken.run(hash);
    },
  };
}
