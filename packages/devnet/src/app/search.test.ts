import { describe, expect, it } from "vitest";
import { event } from "./events.js";
import { parseQuery, QuerySyntaxError, txMatches } from "./search.js";

const tx = {
  height: 7n,
  hashHex: "ABCD",
  events: [
    event("message", [
      ["sender", "perpx1alice"],
      ["action", "/cosmos.bank.v1beta1.MsgSend"],
    ]),
    event("transfer", [
      ["recipient", "perpx1bob"],
      ["amount", "100uusdc"],
    ]),
  ],
};

describe("tx search queries", () => {
  it("parses conditions joined by AND", () => {
    expect(
      parseQuery("tx.height=5 AND message.sender='perpx1x' AND transfer.amount CONTAINS 'usdc'"),
    ).toEqual([
      { key: "tx.height", op: "=", operand: { kind: "number", value: 5 } },
      { key: "message.sender", op: "=", operand: { kind: "string", value: "perpx1x" } },
      { key: "transfer.amount", op: "CONTAINS", operand: { kind: "string", value: "usdc" } },
    ]);
    expect(parseQuery("tx.height >= 3 AND message.module EXISTS")).toHaveLength(2);
    expect(() => parseQuery("tx.height = ")).toThrow(QuerySyntaxError);
    expect(() => parseQuery("AND")).toThrow(QuerySyntaxError);
  });

  it("matches heights, hashes and attributes", () => {
    expect(txMatches(parseQuery("tx.height=7"), tx)).toBe(true);
    expect(txMatches(parseQuery("tx.height>7"), tx)).toBe(false);
    expect(txMatches(parseQuery("tx.height<=7 AND tx.height>6"), tx)).toBe(true);
    expect(txMatches(parseQuery("tx.hash='abcd'"), tx)).toBe(true);
    expect(txMatches(parseQuery("message.sender='perpx1alice' AND transfer.recipient='perpx1bob'"), tx)).toBe(
      true,
    );
    expect(txMatches(parseQuery("transfer.recipient='perpx1alice'"), tx)).toBe(false);
    expect(txMatches(parseQuery("transfer.amount CONTAINS 'uusdc'"), tx)).toBe(true);
    expect(txMatches(parseQuery("message.action EXISTS"), tx)).toBe(true);
    expect(txMatches(parseQuery("coin_spent.spender EXISTS"), tx)).toBe(false);
  });
});
