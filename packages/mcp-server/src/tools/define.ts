import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { CANONICAL_DECIMAL_PATTERN } from "@perpx/core";
import { z } from "zod";
import { failure, ok, TOOL_ERROR_CODES } from "./result.js";
import { cancelResult, decimal, orderRisk, placedOrder, verification } from "./schemas.js";

/**
 * How one tool is declared: input and output shapes (zod), annotations and what it does. The input
 * is strict (an argument the tool does not know is refused, naming it); the result is exactly the
 * output shape (fields it does not declare are left out).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const spec: ToolSpec<{ ticker: z.ZodString }> = { title: "Market", description: "...", input: { ticker: z.string() }, output: {}, annotations: { readOnlyHint: true }, run: async ({ ticker }) => ({ ticker }) };
 * await spec.run({ ticker: "BTC-USD" }, new AbortController().signal); // { ticker: "BTC-USD" }
 * ```
 */
export interface ToolSpec<I extends z.ZodRawShape> {
  /** A short title. */
  title: string;
  /** What the tool does, for the model. */
  description: string;
  /** The arguments. */
  input: I;
  /** The structured result (an object). */
  output: z.ZodRawShape;
  /** Hints for hosts. */
  annotations: ToolAnnotations;
  /** Runs the tool: its structured result, or a throw that becomes an `isError` result. */
  run: (args: z.infer<z.ZodObject<I>>, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

/**
 * The `structuredContent.error` of a failed call: its machine code, what was wrong, and the facts
 * of its kind (the limit, the retry delay, what was sent). Other scalar facts are allowed; an
 * object fact not declared here is left out.
 *
 * @example
 * ```ts
 * toolError.parse({ code: "RISK_LIMIT", message: "above the limit", limit: "maxOrderNotional" }).limit; // "maxOrderNotional"
 * toolError.safeParse({ code: "NOPE", message: "x" }).success; // false
 * ```
 */
export const toolError = z
  .object({
    code: z.enum(TOOL_ERROR_CODES),
    message: z.string(),
    limit: z.string().optional().describe("the limit a RISK_LIMIT refusal names"),
    allowedMarkets: z.array(z.string()).optional(),
    required: decimal.optional().describe("INSUFFICIENT_COLLATERAL: the initial margin the order needs"),
    freeCollateral: decimal.optional(),
    retryAfterMs: z.number().int().optional(),
    retryAfterSeconds: z.number().int().optional(),
    txHash: z.string().optional(),
    abciCode: z.number().int().optional(),
    codespace: z.string().optional(),
    log: z.string().optional(),
    order: placedOrder.optional(),
    risk: orderRisk.optional().describe("TIMEOUT_UNKNOWN: the risk the order was placed with"),
    verification: verification.optional(),
    results: z.array(cancelResult).optional(),
    existing: z
      .object({ state: z.string().optional(), txHash: z.string().optional(), filledSize: decimal.optional() })
      .nullable()
      .optional()
      .describe("DUPLICATE_CLIENT_ID: what the earlier order with that client id came to (null: in flight)"),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe("present on isError results only: the machine code, what was wrong and extra facts");

/** JSON Schema 2020-12, the dialect every listed schema declares (the MCP 2025-11-25 default). */
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12, without its own `$schema` (for nesting). */
function jsonOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as JsonSchema;
  return json;
}

/**
 * A tool's output schema as listed: an object that is either the result (its fields, every required
 * one, nothing else) or `{ error }` alone. MCP clients check a result's `structuredContent` against
 * it on failures too, so it admits both; nothing else.
 *
 * @param shape - the result's fields.
 * @returns the JSON Schema 2020-12 document.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const schema = outputSchemaOf({ ticker: z.string() });
 * schema.$schema; // "https://json-schema.org/draft/2020-12/schema"
 * schema.type; // "object"
 * (schema.oneOf as object[]).length; // 2
 * ```
 */
export function outputSchemaOf(shape: z.ZodRawShape): JsonSchema {
  const failed = z.object({ error: toolError });
  return {
    $schema: DIALECT,
    type: "object",
    oneOf: [jsonOf(z.object(shape), "output"), jsonOf(failed, "output")],
  };
}

/**
 * The input and output schemas of a server's tools as it lists them (JSON Schema 2020-12), by
 * tool name; {@link defineTool} records them.
 */
const listed = new WeakMap<McpServer, Map<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }>>();

/**
 * The schemas a tool of `server` is listed with: JSON Schema 2020-12 (`$schema` declared), the
 * input strict, the output {@link outputSchemaOf}. `undefined` for a tool not made by
 * {@link defineTool}.
 *
 * @param server - the session's server.
 * @param name - the tool's name.
 * @returns its listed `inputSchema` and `outputSchema`.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { z } from "zod";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * defineTool(server, "echo", { title: "Echo", description: "echoes", input: { ticker }, output: { ticker: z.string() }, annotations: {}, run: async (args) => args });
 * listedSchemas(server, "echo")?.inputSchema.additionalProperties; // false
 * ```
 */
export function listedSchemas(server: McpServer, name: string) {
  return listed.get(server)?.get(name);
}

/**
 * Registers a tool: its input is strict (an unknown argument is refused as `INVALID_INPUT`, naming
 * it), its result is exactly its output shape, and its failures (thrown) become `isError: true`
 * results with a machine code.
 *
 * @param server - the session's server.
 * @param name - the tool's name.
 * @param spec - its schemas, annotations and what it does.
 * @returns the SDK's registered tool (to disable it).
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { z } from "zod";
 *
 * const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
 * const tool = defineTool(server, "echo_ticker", {
 *   title: "Echo",
 *   description: "answers its ticker",
 *   input: { ticker },
 *   output: { ticker: z.string() },
 *   annotations: { readOnlyHint: true },
 *   run: async (args) => ({ ticker: args.ticker }),
 * });
 * tool.enabled; // true
 * ```
 */
export function defineTool<I extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  spec: ToolSpec<I>,
): RegisteredTool {
  const input = z.strictObject(spec.input);
  const output = z.object(spec.output);
  const schemas = listed.get(server) ?? new Map();
  listed.set(server, schemas);
  schemas.set(name, {
    inputSchema: { $schema: DIALECT, ...jsonOf(input, "input") },
    outputSchema: outputSchemaOf(spec.output),
  });
  const config = {
    title: spec.title,
    description: spec.description,
    inputSchema: input,
    outputSchema: output,
    annotations: spec.annotations,
  };
  const handler = async (args: z.infer<z.ZodObject<I>>, extra: { signal: AbortSignal }) => {
    try {
      // Parsing strips what the output does not declare (the indexer's other fields).
      return ok(output.parse(await spec.run(args, extra.signal)));
    } catch (error) {
      return conformingFailure(error);
    }
  };
  return server.registerTool(name, config, handler as never);
}

/**
 * A failed result whose `error` is exactly {@link toolError}: a fact of a shape it does not declare
 * is left out (the code and the message always stay).
 */
function conformingFailure(error: unknown) {
  const result = failure(error);
  const body = (result.structuredContent as { error: Record<string, unknown> }).error;
  const parsed = toolError.safeParse(body);
  const bad = new Set(parsed.error?.issues.map((issue) => String(issue.path[0])) ?? []);
  const kept = Object.fromEntries(Object.entries(body).filter(([key]) => !bad.has(key)));
  return { ...result, structuredContent: { error: toolError.parse(kept) } };
}

/**
 * A positive amount argument: a canonical decimal string (`CANONICAL_DECIMAL_PATTERN` of
 * `@perpx/core`, its JSON Schema `pattern`: digits with one optional `.` between digits; no sign,
 * space, exponent or bare point), above zero, at most 30 digits before the point and 18 after, so
 * the server's exact arithmetic keeps every digit.
 *
 * @example
 * ```ts
 * amount.parse("0.001"); // "0.001"
 * amount.safeParse("0").success; // false
 * amount.safeParse("1e3").success; // false
 * amount.safeParse(".5").success; // false
 * ```
 */
export const amount = z
  .string()
  .regex(
    new RegExp(CANONICAL_DECIMAL_PATTERN),
    'a positive decimal string such as "0.01" (digits with one optional "." between digits: no sign, space or exponent)',
  )
  .refine((value) => /[1-9]/.test(value), "a positive decimal string: must be above 0")
  .refine((value) => {
    const [whole = "", fraction = ""] = value.split(".");
    return whole.length <= 30 && fraction.length <= 18;
  }, "a positive decimal string with at most 30 digits before the point and 18 after")
  .describe("a positive decimal number as a string");

/**
 * A market ticker argument: upper-case letters and digits on each side of one `-`, at most 64
 * characters (a longer one is refused as `INVALID_INPUT` naming `ticker`, rather than reaching the
 * indexer, whose refusal of a huge URL would read as an upstream failure).
 *
 * @example
 * ```ts
 * ticker.parse("BTC-USD"); // "BTC-USD"
 * ticker.safeParse("btc").success; // false
 * ticker.safeParse(`${"A".repeat(100)}-USD`).success; // false
 * ```
 */
export const ticker = z
  .string()
  .max(64, "a ticker of at most 64 characters")
  .regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "a ticker such as BTC-USD")
  .describe("the market's ticker, e.g. BTC-USD");

/**
 * An order id argument: the indexer's id of an order (a UUID, as `get_open_orders` answers it).
 * Anything else is refused as `INVALID_INPUT` naming `orderId`, before the indexer is asked.
 *
 * @example
 * ```ts
 * orderId.parse("0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33"); // "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33"
 * orderId.safeParse("../orders").success; // false
 * ```
 */
export const orderId = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    "an order id: a UUID such as 0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33",
  )
  .describe("the order's id (a UUID), as get_open_orders and get_order answer it");

/**
 * A subaccount number argument (the principal's own account; default 0).
 *
 * @example
 * ```ts
 * subaccountNumber.parse(0); // 0
 * subaccountNumber.parse(undefined); // undefined
 * ```
 */
export const subaccountNumber = z
  .number()
  .int()
  .min(0)
  .max(128_000)
  .optional()
  .describe("the subaccount number of your account (default 0)");
