import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coinsField, FieldError, intField, objectField, textField, uintField } from "./request-fields.js";

function fieldError(fn: () => unknown): FieldError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FieldError) return error;
    throw error;
  }
  throw new Error("no FieldError");
}

describe("request fields", () => {
  it("reads non-negative integers from decimal strings and safe numbers, exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 77n }), (n) => {
        expect(uintField({ n: n.toString() }, "n")).toBe(n);
        if (n <= BigInt(Number.MAX_SAFE_INTEGER)) expect(uintField({ n: Number(n) }, "n")).toBe(n);
      }),
    );
  });

  it("refuses anything else with a FieldError naming the field, never another error", () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const valid =
          (typeof raw === "string" && /^\d{1,78}$/.test(raw)) ||
          (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) ||
          raw === undefined ||
          raw === null;
        if (valid) return;
        const error = fieldError(() => uintField({ v: raw }, "v", { path: "message." }));
        expect(error.field).toBe("message.v");
        expect(error.code).toBe("INVALID_ARGUMENT");
        expect(error.shortMessage).toMatch(/^the field "message\.v" must be a non-negative integer, got /);
      }),
    );
  });

  it("names nested and indexed fields", () => {
    const { fields, path } = objectField({ message: { nonce: "x" } }, "message");
    expect(fieldError(() => uintField(fields, "nonce", { path })).field).toBe("message.nonce");
    expect(fieldError(() => objectField({}, "message")).shortMessage).toBe(
      'the field "message" is required (an object)',
    );
    expect(
      fieldError(() => coinsField({ coins: [{ denom: "uusdc", amount: "1" }, { denom: "9x" }] }, "coins"))
        .field,
    ).toBe("coins[1].denom");
    expect(fieldError(() => intField({ count: -1 }, "count")).shortMessage).toBe(
      'the field "count" must be a non-negative integer, got -1',
    );
    expect(fieldError(() => textField({ channel: "" }, "channel")).shortMessage).toContain(
      "a non-empty string",
    );
    expect(textField({}, "port", "transfer")).toBe("transfer");
  });

  it("reads coins with valid denoms and positive amounts, each denom once", () => {
    const denom = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9/:._-]{2,20}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(denom, fc.bigInt({ min: 1n, max: 10n ** 30n })), {
          minLength: 1,
          selector: ([d]) => d,
        }),
        (coins) => {
          const raw = coins.map(([d, a]) => ({ denom: d, amount: a.toString() }));
          expect(coinsField({ coins: raw }, "coins")).toEqual(
            coins.map(([d, a]) => ({ denom: d, amount: a })),
          );
        },
      ),
    );
  });
});
