/**
 * `@perpx/mcp-server`: the perpx agent server. MCP over Streamable HTTP at `/mcp` for one network:
 * AI agents read markets and their account and, with a trading credential, trade subaccount 0 with
 * a scoped on-chain trading key, under safety limits, with verified fills.
 *
 * @packageDocumentation
 */
export { type AccountContext, type Accounts, createAccounts } from "./accounts.js";
export { AuthError, authenticatorOf, fingerprintOf, type Principal, principalOf } from "./auth.js";
export { type CheckResult, type OrderFacts, runOrderChecks } from "./checks.js";
export { type McpRoutes, mcpHttpHandler } from "./http.js";
export { DEFAULT_LIMITS, effectiveLimits, resolveLimits, type TradingLimits } from "./limits.js";
export type { OAuthOptions } from "./oauth/options.js";
export type { OAuthStore } from "./oauth/store.js";
export { openPostgresStore } from "./postgres.js";
export type { ChainClock, Reservation } from "./reservation.js";
export { type McpServerOptions, type RunningMcpServer, startMcpServer } from "./server.js";
export { SqliteUnavailableError } from "./sqlite-driver.js";
export { type AuditEntry, type McpStore, type OrderKey, openSqliteStore } from "./store.js";
export { failure, ok, type ToolErrorCode, ToolFailure } from "./tools/result.js";
