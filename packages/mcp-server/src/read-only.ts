import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { listedSchemas } from "./tools/define.js";
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
 * `tools/call` as the SDK's protocol layer parses it, but with its `arguments` as they came: its own
 * check (a record) would drop an argument named `__proto__` unseen (the tool's strict schema then
 * refuses it, naming it), and answer arguments that are not an object with a JSON-RPC internal
 * error, where the SDK's server then answers `-32602` (invalid params).
 */
const CallWithRawArguments = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

/** A tool name for a message (the SDK's wording): at most 64 characters of it. */
const shownName = (name: string) => (name.length > 64 ? `${name.slice(0, 64)}...` : name);

/**
 * An SDK-made failure (input validation, unknown tool) as this server's failures are: its text
 * becomes `structuredContent.error` with a machine code (`INVALID_INPUT`, `NOT_FOUND`). Other
 * results pass unchanged.
 *
 * @example
 * ```ts
 * const sdk = { isError: true, content: [{ type: "text" as const, text: "MCP error -32602: Input validation error: Invalid arguments for tool place_order: expected string at size" }] };
 * withMachineCode(sdk).structuredContent; // { error: { code: "INVALID_INPUT", message: "Input validation error: Invalid arguments for tool place_order: expected string at size" } }
 * withMachineCode({ content: [] }); // { content: [] }
 * ```
 */
export function withMachineCode(result: CallToolResult): CallToolResult {
  if (!result.isError || result.structuredContent !== undefined) return result;
  const first = result.content[0];
  const text = (first?.type === "text" ? first.text : "the call failed").replace(/^MCP error -?\d+: /, "");
  const code = /^Input validation error/.test(text)
    ? "INVALID_INPUT"
    : /^Tool \S+ not found/.test(text)
      ? "NOT_FOUND"
      : "INTERNAL";
  return failure(new ToolFailure(code, text));
}

/**
 * Registers a session's tools through `register`, so that every call's failure carries a machine
 * code ({@link withMachineCode}), a call to a tool `register` did not make with `defineTool` is
 * `NOT_FOUND` (`__proto__`, `toString` and the like included, which the SDK would answer as
 * disabled), its arguments reach the tool's strict input schema as they came (an argument named
 * `__proto__` is refused naming it; arguments that are not an object are a JSON-RPC `-32602`), and
 * a call to any of `refused` (the write tools of a read-only
 * session) answers {@link readOnlyRefusal} before the SDK looks the tool up (the SDK would answer a
 * disabled tool with a bare "Tool disabled" text). Tools `register` disables stay unlisted. Listed
 * tools carry the JSON Schema 2020-12 schemas {@link listedSchemas} records (the SDK would list
 * draft-07 ones).
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * guardToolCalls(server, WRITE_TOOLS, () => {
 *   server.registerTool("place_order", { description: "places an order" }, async () => ({ content: [] })).disable();
 * });
 * ```
 */
export function guardToolCalls(server: McpServer, refused: readonly string[], register: () => void): void {
  const low = server.server;
  const set = low.setRequestHandler;
  const guarded = new Set(refused);
  low.setRequestHandler = ((schema: unknown, handler: CallHandler) => {
    const call = schema === CallToolRequestSchema;
    const wrapped: CallHandler = call
      ? async (request, extra) => {
          const { name } = request.params;
          if (guarded.has(name)) return readOnlyRefusal(name);
          // Only the session's own tools (the SDK looks names up in a plain object, where
          // `toString` or `__proto__` would be found, and answers them as disabled).
          if (listedSchemas(server, name) === undefined) {
            return failure(new ToolFailure("NOT_FOUND", `Tool ${shownName(name)} not found`));
          }
          return withMachineCode((await handler(request, extra)) as CallToolResult);
        }
      : schema === ListToolsRequestSchema
        ? async (request, extra) => {
            const listing = (await handler(request, extra)) as ListToolsResult;
            return {
              ...listing,
              tools: listing.tools.map((tool) => ({ ...tool, ...listedSchemas(server, tool.name) })),
            };
          }
        : handler;
    return (set as (s: unknown, h: CallHandler) => void).call(
      low,
      call ? CallWithRawArguments : schema,
      wrapped,
    );
  }) as typeof low.setRequestHandler;
  try {
    register();
  } finally {
    low.setRequestHandler = set;
  }
}
