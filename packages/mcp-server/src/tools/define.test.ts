import { describe, expect, it } from "vitest";
import { z } from "zod";
import { outputSchemaOf, toolError } from "./define.js";

describe("outputSchemaOf", () => {
  const schema = outputSchemaOf({ ticker: z.string(), size: z.string(), note: z.string().optional() });

  it("admits a full result, or an error alone", () => {
    expect(schema.safeParse({ ticker: "BTC-USD", size: "1" }).success).toBe(true);
    expect(schema.safeParse({ error: { code: "RISK_LIMIT", message: "over", limit: "x" } }).success).toBe(
      true,
    );
  });

  it("refuses a partial result without an error, and an error without its code", () => {
    expect(schema.safeParse({ ticker: "BTC-USD" }).success).toBe(false);
    expect(schema.safeParse({ error: { message: "no code" } }).success).toBe(false);
    expect(toolError.safeParse({ code: "X" }).success).toBe(false);
  });

  it("declares an object schema with every field and error, none required", () => {
    const json = z.toJSONSchema(schema, { io: "output" }) as {
      type: string;
      properties: object;
      required?: string[];
    };
    expect(json.type).toBe("object");
    expect(Object.keys(json.properties).sort()).toEqual(["error", "note", "size", "ticker"]);
    expect(json.required ?? []).toEqual([]);
  });
});
