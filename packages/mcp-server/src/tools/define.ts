import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { failure, ok } from "./result.js";

/**
 * How one tool is declared: input and output shapes (zod), annotations and what it does.
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
 * The `structuredContent.error` of a failed call: its machine code, what was wrong, and extra facts.
 *
 * @example
 * ```ts
 * toolError.parse({ code: "RISK_LIMIT", message: "above the limit", limit: "maxOrderNotional" }).limit; // "maxOrderNotional"
 * ```
 */
export const toolError = z
  .looseObject({ code: z.string(), message: z.string() })
  .describe("present on isError results only: the machine code, what was wrong and extra facts");

/**
 * A tool's output schema: its result's fields, or `error` alone on a failed call. MCP clients check
 * a result's `structuredContent` against the declared schema even when `isError` is set, so the
 * schema they see admits both (every field optional, plus `error`); the server checks its own
 * successful results against the full shape.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const schema = outputSchemaOf({ ticker: z.string() });
 * schema.safeParse({ ticker: "BTC-USD" }).success; // true
 * schema.safeParse({ error: { code: "NOT_FOUND", message: "no market" } }).success; // true
 * schema.safeParse({}).success; // false
 * ```
 */
export function outputSchemaOf(shape: z.ZodRawShape) {
  const success = z.object(shape);
  return success
    .partial()
    .extend({ error: toolError.optional() })
    .superRefine((value, context) => {
      if (value.error !== undefined) return;
      const parsed = success.safeParse(value);
      if (!parsed.success) context.addIssue({ code: "custom", message: parsed.error.message });
    });
}

/**
 * Registers a tool whose failures (thrown) become `isError: true` results with a machine code.
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
  const config = {
    title: spec.title,
    description: spec.description,
    inputSchema: spec.input,
    outputSchema: outputSchemaOf(spec.output),
    annotations: spec.annotations,
  };
  const handler = async (args: z.infer<z.ZodObject<I>>, extra: { signal: AbortSignal }) => {
    try {
      return ok(await spec.run(args, extra.signal));
    } catch (error) {
      return failure(error);
    }
  };
  return server.registerTool(name, config, handler as never);
}

/**
 * A decimal string, as tools answer every amount.
 *
 * @example
 * ```ts
 * decimal.parse("1.5"); // "1.5"
 * ```
 */
export const decimal = z.string().describe("a decimal number as a string");

/**
 * A positive amount argument: a plain decimal string (no sign, exponent or spaces), at most 30
 * digits before the point and 18 after, so the server's exact arithmetic keeps every digit.
 *
 * @example
 * ```ts
 * amount.parse("0.001"); // "0.001"
 * amount.safeParse("0").success; // false
 * amount.safeParse("1e3").success; // false
 * ```
 */
export const amount = z
  .string()
  .regex(
    /^(?=[\d.]*[1-9])\d{1,30}(\.\d{1,18})?$/,
    'a positive decimal string such as "0.01" (at most 30 digits before the point and 18 after)',
  )
  .describe("a positive decimal number as a string");

/**
 * A loose record: the named fields checked, the indexer's other fields passed through.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const market = record({ ticker: z.string() });
 * market.parse({ ticker: "BTC-USD", status: "ACTIVE" }); // { ticker: "BTC-USD", status: "ACTIVE" }
 * ```
 */
export function record(shape: z.ZodRawShape) {
  return z.looseObject(shape);
}

/**
 * A market ticker argument.
 *
 * @example
 * ```ts
 * ticker.parse("BTC-USD"); // "BTC-USD"
 * ticker.safeParse("btc").success; // false
 * ```
 */
export const ticker = z
  .string()
  .regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "a ticker such as BTC-USD")
  .describe("the market's ticker, e.g. BTC-USD");

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
