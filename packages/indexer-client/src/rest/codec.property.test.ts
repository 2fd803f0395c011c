/**
 * Property tests of the pure parts: query-string encoding, Retry-After reading, backoff bounds,
 * error-body parsing and Exact conversion.
 */
import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockedCodeOf, httpErrorOf, IndexerValidationError } from "../errors.js";
import { withDecimals } from "./decimals.js";
import { encodeQuery, type QueryValue } from "./query.js";
import { backoffDelayMs, retryAfterMsOf, retryPolicyOf } from "./retry.js";

const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,15}$/);
const value: fc.Arbitrary<QueryValue> = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(undefined),
  fc.array(
    fc.string().filter((text) => !text.includes(",") && text.length > 0),
    { maxLength: 4 },
  ),
);

describe("encodeQuery", () => {
  it("round-trips through URLSearchParams, dropping undefined and empty arrays", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value), (params) => {
        const text = encodeQuery(params);
        const parsed = new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
        const expected: Array<[string, string]> = [];
        for (const [name, v] of Object.entries(params)) {
          if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
          expected.push([name, Array.isArray(v) ? v.join(",") : String(v)]);
        }
        expect([...parsed.entries()]).toEqual(expected);
        expect(text === "" || text.startsWith("?")).toBe(true);
        expect(text).not.toMatch(/=undefined|=null/);
      }),
    );
  });

  it("joins arrays with commas that split back into the items", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("OPEN", "FILLED", "CANCELED", "UNTRIGGERED"), { minLength: 1 }),
        (status) => {
          const parsed = new URLSearchParams(encodeQuery({ status }).slice(1));
          expect(parsed.get("status")?.split(",")).toEqual(status);
        },
      ),
    );
  });
});

describe("retry timing", () => {
  it("reads Retry-After as milliseconds, an HTTP date, or RateLimit-Reset", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        (ms, now) => {
          expect(retryAfterMsOf(new Headers({ "retry-after": String(ms) }), now)).toBe(ms);
          expect(retryAfterMsOf(new Headers({ "ratelimit-reset": String(now + ms) }), now)).toBe(ms);
        },
      ),
    );
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMsOf(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMsOf(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });

  it("waits within [server wait, maxDelayMs] and under the exponential ceiling otherwise", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 30 }),
        fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (base, extra, attempt, server, random) => {
          const policy = retryPolicyOf({ baseDelayMs: base, maxDelayMs: base + extra });
          const delay = backoffDelayMs(policy, attempt, server, random);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
          if (server !== undefined) expect(delay).toBeGreaterThanOrEqual(Math.min(server, policy.maxDelayMs));
          else expect(delay).toBeLessThanOrEqual(base * 2 ** attempt);
        },
      ),
    );
  });
});

describe("error bodies", () => {
  it("never throws on any body and keeps only well-formed entries", () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), fc.anything(), (status, body) => {
        const error = httpErrorOf({ status, url: "http://x/v4/fills", body });
        expect(error.status).toBe(status);
        if (error instanceof IndexerValidationError) {
          for (const entry of error.entries) expect(typeof entry.msg).toBe("string");
        }
      }),
    );
  });

  it("keeps param, msg, location and value of each validation entry", () => {
    const entry = fc.record(
      {
        value: fc.oneof(fc.string(), fc.integer()),
        msg: fc.string(),
        param: fc.string(),
        location: fc.constantFrom("query" as const, "params" as const),
      },
      { requiredKeys: ["msg"] },
    );
    fc.assert(
      fc.property(fc.array(entry), (entries) => {
        const error = new IndexerValidationError({
          status: 400,
          url: "http://x/v4/fills",
          body: { errors: entries },
        });
        expect(error.entries).toEqual(entries);
      }),
    );
  });

  it("finds the 403 code wherever it is listed", () => {
    expect(blockedCodeOf({ errors: [{ msg: "a" }, { code: "COMPLIANCE_BLOCKED", msg: "b" }] })).toBe(
      "COMPLIANCE_BLOCKED",
    );
    expect(
      httpErrorOf({ status: 403, url: "http://x/v4/fills", body: { errors: [{ msg: "Forbidden" }] } }).name,
    ).toBe("IndexerHttpError");
  });
});

describe("withDecimals", () => {
  const decimalText = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
    .map(([negative, digits, scale]) => {
      const text = digits.toString().padStart(scale + 1, "0");
      const whole = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
      return negative ? `-${whole}` : whole;
    });

  it("converts exactly and leaves other fields alone", () => {
    fc.assert(
      fc.property(decimalText, decimalText, (price, size) => {
        const row = { price, size, id: "x", exitPrice: null as string | null };
        const converted = withDecimals(row, ["price", "exitPrice"]);
        expect(converted.price).toBeInstanceOf(Exact);
        expect(converted.price.equals(new Exact(price))).toBe(true);
        expect(converted.size).toBe(size);
        expect(converted.exitPrice).toBeNull();
        expect(row.price).toBe(price);
      }),
    );
  });

  it("refuses text that is not a decimal, naming the field", () => {
    expect(() => withDecimals({ price: "1e" }, ["price"])).toThrow(/Invalid price/);
    expect(() => withDecimals({ price: "NaN" }, ["price"])).toThrow(/Invalid price/);
  });

  it("refuses a field that is a JSON number (its digits may be lost already), or any other non-string", () => {
    // What a server that writes amounts as numbers answers: the type promises an Exact here.
    const row = JSON.parse('{"price":65000.123456789012345,"size":"1"}') as { price: string; size: string };
    expect(() => withDecimals(row, ["price", "size"])).toThrow(/Invalid price: is a number/);
    for (const price of [true, {}, [], 1n]) {
      expect(() => withDecimals({ price } as unknown as { price: string }, ["price"])).toThrow(
        /Invalid price/,
      );
    }
    expect(withDecimals({ price: undefined as string | undefined }, ["price"]).price).toBeUndefined();
  });
});
