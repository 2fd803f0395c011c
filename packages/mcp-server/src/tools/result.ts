import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPerpxError, PerpxError, redactSecrets } from "@perpx/errors";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { isIndexerValidationError } from "@perpx/indexer-client/rest";
import { isBroadcastTxError } from "@perpx/node-client";

/**
 * The machine codes of a failed tool call (`structuredContent.error.code`), one source for the type
 * and the output schemas.
 *
 * @example
 * ```ts
 * TOOL_ERROR_CODES.includes("RISK_LIMIT"); // true
 * ```
 */
export const TOOL_ERROR_CODES = [
  "INVALID_INPUT",
  "MARKET_NOT_ALLOWED",
  "MARKET_NOT_ACTIVE",
  "PRICE_BAND",
  "QUANTIZATION",
  "RISK_LIMIT",
  "INSUFFICIENT_COLLATERAL",
  "CIRCUIT_BREAKER",
  "REDUCE_ONLY",
  "CONFIRMATION_REQUIRED",
  "DUPLICATE_CLIENT_ID",
  "NOT_FOUND",
  "REJECTED",
  "READ_ONLY_SESSION",
  "RATE_LIMITED",
  "TIMEOUT_UNKNOWN",
  "CANCELLED",
  "UPSTREAM_UNAVAILABLE",
  "INTERNAL",
] as const;

/**
 * The machine codes of a failed tool call (`structuredContent.error.code`).
 *
 * @example
 * ```ts
 * const code: ToolErrorCode = "RISK_LIMIT";
 * ```
 */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * A refusal a tool answers with `isError: true` and its machine code.
 *
 * @example
 * ```ts
 * const refusal = new ToolFailure("RISK_LIMIT", "the order's notional 20000 is above the limit 10000");
 * refusal.toolCode; // "RISK_LIMIT"
 * ```
 */
export class ToolFailure extends PerpxError {
  override name = "ToolFailure";
  /** The machine code. */
  readonly toolCode: ToolErrorCode;
  /** Extra facts for the agent (what the limit is, what was asked). */
  readonly facts: Record<string, unknown>;

  /**
   * @param toolCode - the machine code.
   * @param problem - what was wrong, in words.
   * @param facts - extra facts for the agent.
   */
  constructor(toolCode: ToolErrorCode, problem: string, facts: Record<string, unknown> = {}) {
    super("INVALID_ARGUMENT", problem);
    this.toolCode = toolCode;
    this.facts = facts;
  }
}

const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)));

/**
 * A successful tool result: the structured content, and the same JSON as text for hosts that only
 * read text.
 *
 * @param structured - the structured content.
 * @returns the tool result.
 *
 * @example
 * ```ts
 * ok({ markets: [] }).structuredContent; // { markets: [] }
 * ```
 */
export function ok(structured: Record<string, unknown>): CallToolResult {
  const content = plain(structured) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(content) }], structuredContent: content };
}

function classify(error: unknown): { code: ToolErrorCode; message: string; facts: Record<string, unknown> } {
  if (error instanceof ToolFailure)
    return { code: error.toolCode, message: error.shortMessage, facts: error.facts };
  if (isBroadcastTxError(error)) {
    const collateral = /collateral|margin/i.test(error.log) || error.reason === "insufficient-funds";
    return {
      code: collateral ? "INSUFFICIENT_COLLATERAL" : "REJECTED",
      message: error.shortMessage,
      facts: { abciCode: error.abciCode, codespace: error.codespace, log: error.log, txHash: error.txHash },
    };
  }
  if (isIndexerNotFoundError(error)) return { code: "NOT_FOUND", message: error.shortMessage, facts: {} };
  if (isIndexerValidationError(error))
    return { code: "INVALID_INPUT", message: error.shortMessage, facts: {} };
  if (isPerpxError(error)) {
    const upstream = ["TRANSPORT", "TIMEOUT", "INDEXER_HTTP", "QUERY", "WEBSOCKET_CLOSED"].includes(
      error.code,
    );
    const code: ToolErrorCode =
      error.code === "INVALID_AMOUNT" ? "QUANTIZATION" : upstream ? "UPSTREAM_UNAVAILABLE" : "INVALID_INPUT";
    return { code, message: error.shortMessage, facts: {} };
  }
  return {
    code: "INTERNAL",
    message: `internal error (${error instanceof Error ? error.name : typeof error})`,
    facts: {},
  };
}

/**
 * A failed tool result (`isError: true`) with `structuredContent.error = { code, message, ... }`.
 * Messages pass through the secret redactor.
 *
 * @param error - a `ToolFailure`, another perpx error, or anything thrown.
 * @returns the tool result, with `isError: true`.
 *
 * @example
 * ```ts
 * const result = failure(new ToolFailure("MARKET_NOT_ALLOWED", "ETH-USD is not allowed"));
 * result.isError; // true
 * result.structuredContent; // { error: { code: "MARKET_NOT_ALLOWED", message: "ETH-USD is not allowed" } }
 * ```
 */
export function failure(error: unknown): CallToolResult {
  const { code, message, facts } = classify(error);
  const body = { error: { code, message: redactSecrets(message), ...(plain(facts) as object) } };
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${body.error.message}` }],
    structuredContent: body,
  };
}
