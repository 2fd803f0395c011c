import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CANONICAL_DECIMAL_PATTERN } from "@perpx/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { amount, defineTool, listedSchemas, outputSchemaOf, ticker, toolError } from "./define.js";

// Strict, with union types (`["string", "null"]`), which JSON Schema allows and Ajv only flags.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });

describe("outputSchemaOf", () => {
  const schema = ajv.compile(
    outputSchemaOf({ ticker: z.string(), size: z.string(), note: z.string().optional() }),
  );

  it("admits a full result, or an error alone", () => {
    expect(schema({ ticker: "BTC-USD", size: "1" })).toBe(true);
    expect(schema({ ticker: "BTC-USD", size: "1", note: "x" })).toBe(true);
    expect(schema({ error: { code: "RISK_LIMIT", message: "over", limit: "x" } })).toBe(true);
  });

  it("refuses a partial result, an unknown field, a result beside an error, an error without its code", () => {
    expect(schema({ ticker: "BTC-USD" })).toBe(false);
    expect(schema({ ticker: "BTC-USD", size: "1", extra: 1 })).toBe(false);
    expect(schema({ ticker: "BTC-USD", size: "1", error: { code: "INTERNAL", message: "x" } })).toBe(false);
    expect(schema({ error: { message: "no code" } })).toBe(false);
    expect(schema({ error: { code: "NOT_A_CODE", message: "x" } })).toBe(false);
    expect(schema({})).toBe(false);
    expect(toolError.safeParse({ code: "INTERNAL" }).success).toBe(false);
  });
});

describe("defineTool", () => {
  it("lists JSON Schema 2020-12, refuses unknown arguments naming them, answers exactly its output", async () => {
    const server = new McpServer({ name: "perpx-mcp", version: "0.0.0" });
    const tool = defineTool(server, "echo", {
      title: "Echo",
      description: "answers its ticker",
      input: { ticker, size: amount.optional() },
      output: { ticker: z.string() },
      annotations: { readOnlyHint: true },
      run: async (args) => ({ ticker: args.ticker, secret: "left out" }),
    });
    const listed = listedSchemas(server, "echo");
    expect(listed?.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      properties: { size: { type: "string", pattern: CANONICAL_DECIMAL_PATTERN } },
    });
    expect(listed?.outputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const parse = (args: unknown) => (tool.inputSchema as z.ZodType).safeParse(args);
    const unknown = parse({ ticker: "BTC-USD", sise: "1" });
    expect(unknown.error?.issues[0]?.message).toMatch(/"sise"/);
    expect(parse({ ticker: "BTC-USD", size: "1.5" }).success).toBe(true);
    const handler = tool.handler as (
      args: unknown,
      extra: unknown,
    ) => Promise<{ structuredContent: unknown }>;
    const result = await handler({ ticker: "BTC-USD" }, { signal: new AbortController().signal });
    expect(result.structuredContent).toEqual({ ticker: "BTC-USD" });
  });
});

describe("amount", () => {
  it("takes canonical positive decimals only, within 30 digits before the point and 18 after", () => {
    for (const good of ["1", "0.5", "28688.5", "00.1", `${"9".repeat(30)}.${"9".repeat(18)}`])
      expect(amount.safeParse(good).success, good).toBe(true);
    for (const bad of [" 1", "1\n", "+1", "-1", ".5", "5.", "1e5", "1E-3", "0", "0.000", "1,5", "１", ""])
      expect(amount.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(amount.safeParse(`${"1".repeat(31)}`).success).toBe(false);
    expect(amount.safeParse(`1.${"1".repeat(19)}`).success).toBe(false);
    expect(amount.safeParse(1).success).toBe(false);
  });
});

describe("ticker", () => {
  it("takes upper-case tickers of at most 64 characters", () => {
    for (const good of ["BTC-USD", "1000PEPE-USD", `${"A".repeat(60)}-USD`])
      expect(ticker.safeParse(good).success, good).toBe(true);
    for (const bad of ["btc-usd", "BTC", "BTC-USD ", `${"A".repeat(61)}-USD`, `${"A".repeat(500_000)}-USD`])
      expect(ticker.safeParse(bad).success, bad.slice(0, 20)).toBe(false);
  });
});
