/**
 * The tools' schemas are JSON Schema 2020-12 that constrain what they accept, and every tool's
 * real results (success and error) on a devnet validate against its output schema, checked with
 * Ajv's 2020-12 validator in strict mode.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { CANONICAL_DECIMAL_PATTERN } from "@perpx/core";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useMcpNet } from "./support.js";

const net = useMcpNet({ server: { limits: { maxOrderNotional: "500", confirmAboveNotional: "200" } } });
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

// Strict, with union types (`["string", "null"]`), which JSON Schema allows and Ajv only flags.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

type Json = Record<string, unknown>;

/** Every subschema of a schema, with its JSON pointer. */
function* subschemas(schema: unknown, at = "#"): Generator<[string, unknown]> {
  yield [at, schema];
  if (typeof schema !== "object" || schema === null) return;
  const node = schema as Json;
  for (const key of ["items", "additionalProperties", "propertyNames", "not"]) {
    if (node[key] !== undefined) yield* subschemas(node[key], `${at}/${key}`);
  }
  for (const key of ["properties", "$defs"]) {
    for (const [name, child] of Object.entries((node[key] as Json | undefined) ?? {}))
      yield* subschemas(child, `${at}/${key}/${name}`);
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    for (const [i, child] of ((node[key] as unknown[] | undefined) ?? []).entries())
      yield* subschemas(child, `${at}/${key}/${i}`);
  }
}

/** What is unconstrained in a schema: an untyped `{}` or `true`, an open or untyped object. */
function looseParts(schema: unknown): string[] {
  const loose: string[] = [];
  for (const [at, node] of subschemas(schema)) {
    if (node === false) continue; // admits nothing: as strict as it gets
    if (typeof node !== "object" || node === null) {
      loose.push(`${at}: ${JSON.stringify(node)}`);
      continue;
    }
    const n = node as Json;
    const typed = ["type", "anyOf", "oneOf", "allOf", "const", "enum", "$ref"].some((k) => k in n);
    if (!typed) loose.push(`${at}: untyped ${JSON.stringify(n)}`);
    if (n.type === "object" && !("oneOf" in n)) {
      const extra = n.additionalProperties;
      if (extra === undefined || extra === true || (typeof extra === "object" && looseParts(extra).length))
        loose.push(`${at}: open object (additionalProperties ${JSON.stringify(extra)})`);
    }
  }
  return loose;
}

let tools: Tool[];
const validators = new Map<string, ValidateFunction>();
/** Tools whose success and error results were validated. */
const seen = { success: new Set<string>(), error: new Set<string>() };

/** Calls a tool and validates its structured content against its output schema; answers it. */
async function checked(client: Client, name: string, args: Json = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const schema = tools.find((t) => t.name === name)?.outputSchema;
  if (!schema) throw new Error(`no output schema for ${name}`);
  const validate = validators.get(name) ?? ajv.compile(schema);
  validators.set(name, validate);
  expect(result.structuredContent, `${name} answered no structured content`).toBeDefined();
  if (!validate(result.structuredContent)) {
    throw new Error(
      `${name} ${JSON.stringify(args)} answered ${JSON.stringify(result.structuredContent)}: ${ajv.errorsText(validate.errors)}`,
    );
  }
  (result.isError ? seen.error : seen.success).add(name);
  // biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
  return result.structuredContent as Record<string, any>;
}

beforeAll(async () => {
  const { credential } = await net.account();
  tools = (await (await net.connect(credential)).listTools()).tools;
});

describe("tool schemas", () => {
  it("declare JSON Schema 2020-12, compile in a strict 2020-12 validator, and leave nothing untyped or open", () => {
    expect(tools.length).toBe(16);
    for (const tool of tools) {
      expect(tool.inputSchema.$schema, tool.name).toBe(DIALECT);
      expect(tool.outputSchema?.$schema, tool.name).toBe(DIALECT);
      expect(() => ajv.compile(tool.inputSchema), `${tool.name} input`).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema as Json), `${tool.name} output`).not.toThrow();
      expect(looseParts(tool.inputSchema), `${tool.name} input`).toEqual([]);
      expect(looseParts(tool.outputSchema), `${tool.name} output`).toEqual([]);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
  });

  it("take every decimal argument as a canonical decimal string, with core's one pattern", () => {
    const place = tools.find((t) => t.name === "place_order");
    const props = place?.inputSchema.properties as Record<string, Json>;
    for (const field of ["size", "notionalUsd", "price"]) {
      expect(props[field], field).toMatchObject({ type: "string", pattern: CANONICAL_DECIMAL_PATTERN });
    }
    // Any other argument described as a decimal uses the same pattern.
    for (const tool of tools) {
      for (const [name, prop] of Object.entries(
        (tool.inputSchema.properties ?? {}) as Record<string, Json>,
      )) {
        if (/decimal/i.test(String(prop.description ?? "")))
          expect(prop.pattern, `${tool.name}.${name}`).toBe(CANONICAL_DECIMAL_PATTERN);
      }
    }
  });
});

describe("tool results", () => {
  it("validate against each tool's output schema, success and error shapes, for every tool", async () => {
    const { credential, readOnly } = await net.account();
    const client = await net.connect(credential);
    const { market } = await checked(client, "get_market", { ticker: "BTC-USD" });
    const far = String(Math.floor(Number(market.oraclePrice) * 0.95));
    const resting = async () =>
      (
        await checked(client, "place_order", {
          ticker: "BTC-USD",
          side: "BUY",
          type: "LIMIT",
          size: "0.001",
          price: far,
        })
      ).order.clientId as number;

    const filled = await checked(client, "place_order", {
      ticker: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
    });
    expect(filled.verification.state).toBe("FILLED");
    await checked(client, "place_order", {
      ticker: "BTC-USD",
      side: "SELL",
      type: "LIMIT",
      size: "0.001",
      price: far,
      dryRun: true,
    });
    const clientId = await resting();
    await vi.waitFor(
      async () => {
        expect((await checked(client, "get_open_orders", { ticker: "BTC-USD" })).orders.length).toBe(1);
        expect((await checked(client, "get_fills", { ticker: "BTC-USD" })).fills.length).toBeGreaterThan(0);
        expect((await checked(client, "get_positions")).positions.length).toBe(1);
      },
      { timeout: 20_000, interval: 200 },
    );
    for (const [name, args] of [
      ["list_markets", {}],
      ["get_orderbook", { ticker: "BTC-USD", depth: 5 }],
      ["get_recent_trades", { ticker: "BTC-USD", limit: 5 }],
      ["get_candles", { ticker: "BTC-USD", resolution: "1MIN" }],
      ["get_account", {}],
      ["get_order", { clientId, ticker: "BTC-USD" }],
      ["get_funding_and_pnl", { ticker: "BTC-USD" }],
      ["get_trading_limits", {}],
    ] as const) {
      await checked(client, name, args);
    }
    expect(
      (await checked(client, "cancel_order", { clientId, ticker: "BTC-USD" })).results[0].cancelled,
    ).toBe(true);
    const second = await resting();
    await checked(client, "batch_cancel_orders", { ticker: "BTC-USD", clientIds: [second] });
    await resting();
    await checked(client, "cancel_all_orders", { ticker: "BTC-USD" });

    // Error shapes: the refusals with facts, then an unknown argument on every tool.
    const errors: Array<[string, Json, string]> = [
      ["get_market", { ticker: "NOPE-USD" }, "NOT_FOUND"],
      ["get_order", { clientId: 1, ticker: "BTC-USD" }, "NOT_FOUND"],
      ["place_order", { ticker: "BTC-USD", side: "BUY", type: "LIMIT", size: "1", price: far }, "RISK_LIMIT"],
      [
        "place_order",
        { ticker: "BTC-USD", side: "BUY", type: "LIMIT", size: "0.004", price: far },
        "CONFIRMATION_REQUIRED",
      ],
      [
        "place_order",
        { ticker: "BTC-USD", side: "BUY", type: "LIMIT", size: "0.001", price: far, clientId, dryRun: true },
        "DUPLICATE_CLIENT_ID",
      ],
      ["cancel_all_orders", {}, "CONFIRMATION_REQUIRED"],
    ];
    for (const [name, args, code] of errors) {
      expect((await checked(client, name, args)).error.code, name).toBe(code);
    }
    const readOnlyClient = await net.connect(readOnly);
    for (const tool of tools) {
      const result = await checked(tool.annotations?.readOnlyHint ? client : readOnlyClient, tool.name, {
        bogus: 1,
      });
      expect(result.error.code, tool.name).toBe(
        tool.annotations?.readOnlyHint ? "INVALID_INPUT" : "READ_ONLY_SESSION",
      );
      if (!tool.annotations?.readOnlyHint) {
        const refused = await checked(client, tool.name, { bogus: 1 });
        expect(refused.error).toMatchObject({
          code: "INVALID_INPUT",
          message: expect.stringContaining("bogus"),
        });
      }
    }
    const names = tools.map((t) => t.name).sort();
    expect([...seen.success].sort()).toEqual(names);
    expect([...seen.error].sort()).toEqual(names);
  }, 180_000);
});
