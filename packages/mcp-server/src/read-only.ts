import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { failure, ToolFailure } from "./tools/result.js";

/**
 * The tools that sign and send: a read-only session neither lists nor may call them.
 *
 * @example
 * ```ts
 * WRITE_TOOLS.includes("place_order"); // true
 * ```
 */
export const WRITE_TOOLS: readonly string[] = Object.freeze([
  "place_order",
  "cancel_order",
  "batch_cancel_orders",
  "cancel_all_orders",
]);

/**
 * The answer of a read-only session to a write tool: `isError: true`, code `READ_ONLY_SESSION`.
 *
 * @example
 * ```ts
 * readOnlyRefusal("place_order").structuredContent; // { error: { code: "READ_ONLY_SESSION", message: "place_order needs a trading credential: this session is read-only (its credential has no tradingPrivateKey); nothing was sent" } }
 * ```
 */
export function readOnlyRefusal(tool: string): CallToolResult {
  return failure(
    new ToolFailure(
      "READ_ONLY_SESSION",
      `${tool} needs a trading credential: this session is read-only (its credential has no tradingPrivateKey); nothing was sent`,
    ),
  );
}

type CallHandler = (request: { params: { name: string } }, extra: unknown) => unknown;

/**
 * Registers the tools of a read-only session through `register`, answering a call to any of
 * `writes` with {@link readOnlyRefusal} before the SDK looks the tool up (the SDK would answer a
 * disabled tool with a bare "Tool disabled" text). The write tools `register` returns disabled stay
 * unlisted.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * refuseWrites(server, WRITE_TOOLS, () => {
 *   server.registerTool("place_order", { description: "places an order" }, async () => ({ content: [] })).disable();
 * });
 * ```
 */
export function refuseWrites(server: McpServer, writes: readonly string[], register: () => void): void {
  const low = server.server;
  const set = low.setRequestHandler;
  const guarded = new Set(writes);
  low.setRequestHandler = ((schema: unknown, handler: CallHandler) => {
    const wrapped: CallHandler =
      schema === CallToolRequestSchema
        ? (request, extra) =>
            guarded.has(request.params.name) ? readOnlyRefusal(request.params.name) : handler(request, extra)
        : handler;
    return (set as (s: unknown, h: CallHandler) => void).call(low, schema, wrapped);
  }) as typeof low.setRequestHandler;
  try {
    register();
  } finally {
    low.setRequestHandler = set;
  }
}
