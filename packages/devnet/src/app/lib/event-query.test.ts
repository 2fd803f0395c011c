import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  flatEventSubject,
  parseQuery,
  printQuery,
  type QueryCondition,
  type QueryOp,
  QuerySyntaxError,
  queryMatches,
  valueMatches,
} from "./event-query.js";

const events = {
  "tm.event": ["Tx"],
  "tx.height": ["7"],
  "message.sender": ["perpx1alice"],
  "message.action": ["/cosmos.bank.v1beta1.MsgSend"],
  "transfer.recipient": ["perpx1bob"],
  "transfer.amount": ["100uusdc"],
  "order.price": ["6500.25"],
  "block.time": ["2026-01-02T03:04:05.123456789Z"],
  "record.day": ["2026-01-02"],
};
const matches = (query: string) => queryMatches(parseQuery(query), flatEventSubject(events));

describe("parsing", () => {
  it("reads every operator and operand kind, joined by AND", () => {
    expect(
      parseQuery(
        "tx.height>=5 AND message.sender='perpx1 x' AND transfer.amount CONTAINS 'usdc' AND a.b EXISTS AND " +
          "c.d<1.50 AND e.f<=2 AND g.h>TIME 2026-01-02T03:04:05+02:00 AND i.j=DATE 2026-02-28",
      ),
    ).toEqual([
      { key: "tx.height", op: ">=", operand: { kind: "number", text: "5" } },
      { key: "message.sender", op: "=", operand: { kind: "string", text: "perpx1 x" } },
      { key: "transfer.amount", op: "CONTAINS", operand: { kind: "string", text: "usdc" } },
      { key: "a.b", op: "EXISTS" },
      { key: "c.d", op: "<", operand: { kind: "number", text: "1.50" } },
      { key: "e.f", op: "<=", operand: { kind: "number", text: "2" } },
      { key: "g.h", op: ">", operand: { kind: "time", text: "2026-01-02T03:04:05+02:00" } },
      { key: "i.j", op: "=", operand: { kind: "date", text: "2026-02-28" } },
    ]);
  });

  it("takes whitespace anywhere between tokens, and none", () => {
    expect(parseQuery("  tm.event = 'Tx'   AND tx.height<3 ")).toEqual(
      parseQuery("tm.event='Tx' AND tx.height<3"),
    );
    expect(parseQuery("a_b-c.d9='AND'")).toEqual([
      { key: "a_b-c.d9", op: "=", operand: { kind: "string", text: "AND" } },
    ]);
  });

  it.each([
    ["", "expected a tag"],
    ["AND", "expected a tag"],
    ["tx.height", "expected an operator"],
    ["tx.height =", "after ="],
    ["tx.height=5 AND", "expected a tag"],
    ["tx.height=5 tx.height=6", "expected AND"],
    ["a.b='x", "unterminated string"],
    ["a.b CONTAINS 5", "expected a string after CONTAINS"],
    ["a.b < 'x'", "after <"],
    ["a.b EXISTS 'x'", "expected AND"],
    ["a.b=1e400", "expected AND"],
    ["a.b=-5", "invalid input"],
    ['a.b="x"', "invalid input"],
    ["a.b/c='x'", "invalid input"],
    ["a.b>TIME 2026-13-01T00:00:00Z", "invalid TIME"],
    ["a.b>TIME 2026-01-01T00:00:00.5Z", "invalid"],
    ["a.b>TIME 2026-01-01", "invalid TIME"],
    ["a.b>DATE 2026-02-30", "invalid DATE"],
    ["a.b>DATE 1899-12-31", "out of range"],
    ["tx.height>99999999999999999999999999999", "beyond the largest height"],
    ["tx.height>1.5", "integer height"],
    ["block.height='5'", "integer height"],
  ])("refuses %j (%s)", (query, problem) => {
    let caught: unknown;
    try {
      parseQuery(query);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QuerySyntaxError);
    expect((caught as QuerySyntaxError).code).toBe("INVALID_ARGUMENT");
    expect((caught as Error).message).toContain(problem);
  });

  it("reads TIME and DATE as tags unless a space follows them, as CometBFT's scanner does", () => {
    expect(parseQuery("TIME='x' AND DATE<3")).toEqual([
      { key: "TIME", op: "=", operand: { kind: "string", text: "x" } },
      { key: "DATE", op: "<", operand: { kind: "number", text: "3" } },
    ]);
    expect(() => parseQuery("TIME EXISTS")).toThrow(QuerySyntaxError);
  });
});

describe("matching", () => {
  it("matches strings exactly, CONTAINS by substring, EXISTS by presence", () => {
    expect(matches("message.sender='perpx1alice'")).toBe(true);
    expect(matches("message.sender='perpx1Alice'")).toBe(false);
    expect(matches("transfer.amount CONTAINS 'uusdc'")).toBe(true);
    expect(matches("message.action EXISTS AND transfer EXISTS")).toBe(true);
    expect(matches("coin_spent.spender EXISTS")).toBe(false);
    expect(matches("tm.event='Tx' AND transfer.recipient='perpx1alice'")).toBe(false);
  });

  it("compares numbers exactly, by an attribute's leading number", () => {
    expect(matches("tx.height=7 AND tx.height<=7 AND tx.height>6")).toBe(true);
    expect(matches("transfer.amount=100 AND transfer.amount>99.999999999999999999999")).toBe(true);
    expect(matches("order.price>6500.2499999999999999999 AND order.price<6500.25000000000000000001")).toBe(
      true,
    );
    expect(matches("order.price=6500.250")).toBe(true);
    expect(matches("message.sender>0")).toBe(false);
    expect(matches("tx.height<99999999999")).toBe(true);
    expect(matches(`transfer.amount<${"9".repeat(400)}`)).toBe(true);
  });

  it("compares times to the nanosecond and dates by day", () => {
    expect(matches("block.time>TIME 2026-01-02T03:04:05Z")).toBe(true);
    expect(matches("block.time<TIME 2026-01-02T05:04:06+02:00")).toBe(true);
    expect(matches("block.time=TIME 2026-01-02T03:04:05Z")).toBe(false);
    expect(matches("record.day=DATE 2026-01-02 AND record.day<DATE 2026-01-03")).toBe(true);
    expect(matches("block.time>DATE 2026-01-01")).toBe(false);
  });
});

const TAG = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,12}$/)
  .filter((t) => !["AND", "CONTAINS", "EXISTS"].includes(t));
const NUMBER = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^[0-9]{1,12}$/))
    .map(([w, f]) => `${w}.${f}`),
);
const TIME = fc
  .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2999-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => `${d.toISOString().slice(0, 19)}Z`);
const DATE = TIME.map((t) => t.slice(0, 10));
const OPERAND = fc.oneof(
  fc.record({ kind: fc.constant("string" as const), text: fc.string().filter((s) => !s.includes("'")) }),
  fc.record({ kind: fc.constant("number" as const), text: NUMBER }),
  fc.record({ kind: fc.constant("time" as const), text: TIME }),
  fc.record({ kind: fc.constant("date" as const), text: DATE }),
);
const CONDITION: fc.Arbitrary<QueryCondition> = fc.oneof(
  fc.record({ key: TAG, op: fc.constant("EXISTS" as QueryOp) }),
  fc
    .tuple(TAG, OPERAND, fc.constantFrom<QueryOp>("=", "<", "<=", ">", ">=", "CONTAINS"))
    .map(([key, operand, op]): QueryCondition => {
      if (operand.kind === "string") return { key, op: op === "CONTAINS" ? op : "=", operand };
      return { key, op: op === "CONTAINS" ? "=" : op, operand };
    })
    .filter((c) => c.key !== "tx.height" && c.key !== "block.height"),
);

describe("properties", () => {
  it("prints every query so that it parses back to the same conditions", () => {
    fc.assert(
      fc.property(fc.array(CONDITION, { minLength: 1, maxLength: 6 }), (conditions) => {
        expect(parseQuery(printQuery(conditions))).toEqual(conditions);
      }),
    );
  });

  it("compares numbers as exact decimals", () => {
    // value / 10^scale against operand / 10^scale: the order of the scaled integers.
    const scaled = (n: bigint, scale: number) => {
      const s = n.toString().padStart(scale + 1, "0");
      return scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
    };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom<QueryOp>("=", "<", "<=", ">", ">="),
        fc.constantFrom("", "uusdc", "  "),
        (a, b, scale, op, suffix) => {
          const [condition] = parseQuery(`k.v ${op} ${scaled(b, scale)}`) as [QueryCondition];
          const want = { "=": a === b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b }[op as "="];
          expect(valueMatches(condition, `${scaled(a, scale)}${suffix}`)).toBe(want);
        },
      ),
    );
  });

  it("matches strings by equality and CONTAINS by substring", () => {
    const text = fc.string({ maxLength: 8 }).filter((s) => !s.includes("'"));
    fc.assert(
      fc.property(text, text, (value, operand) => {
        const [eq] = parseQuery(`k.v='${operand}'`) as [QueryCondition];
        const [contains] = parseQuery(`k.v CONTAINS '${operand}'`) as [QueryCondition];
        expect(valueMatches(eq, value)).toBe(value === operand);
        expect(valueMatches(contains, value)).toBe(value.includes(operand));
      }),
    );
  });

  it("orders times as the instants they name", () => {
    fc.assert(
      fc.property(TIME, TIME, (value, operand) => {
        const [lt] = parseQuery(`k.v < TIME ${operand}`) as [QueryCondition];
        expect(valueMatches(lt, value)).toBe(Date.parse(value) < Date.parse(operand));
      }),
    );
  });

  it("never throws anything but a QuerySyntaxError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (query) => {
        try {
          parseQuery(query);
        } catch (error) {
          expect(error).toBeInstanceOf(QuerySyntaxError);
        }
      }),
    );
  });
});
