/**
 * CometBFT event queries (`tx_search`, subscriptions): `tx.height=5 AND message.sender='perpx1..'`.
 * Conditions are `composite.key OP operand` joined by AND; OP is =, <, <=, >, >=, CONTAINS or
 * EXISTS; operands are 'quoted strings', numbers, or `TIME <rfc3339>` / `DATE <yyyy-mm-dd>`.
 */
import type { AbciEvent } from "./contract.js";

/** The operators of a condition. */
export type QueryOp = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

/** One condition of a query. */
export interface QueryCondition {
  /** `type.attribute`, or `tx.height` / `tx.hash`. */
  readonly key: string;
  readonly op: QueryOp;
  /** The operand: a string, a number (as text, compared numerically), or a time in ms. */
  readonly operand: { kind: "string"; value: string } | { kind: "number"; value: number } | { kind: "none" };
}

/** Thrown for a query that does not parse. */
export class QuerySyntaxError extends Error {
  override name = "QuerySyntaxError";
}

const TOKEN =
  /\s*(?:(AND)\b|(CONTAINS|EXISTS)\b|(<=|>=|=|<|>)|'((?:[^'\\]|\\.)*)'|(TIME\s+\S+|DATE\s+\S+)|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])|([A-Za-z_][\w.\-/]*))/y;

type Token =
  | { t: "and" }
  | { t: "op"; op: QueryOp }
  | { t: "string"; v: string }
  | { t: "number"; v: number }
  | { t: "ident"; v: string };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  const rest = query.trim();
  let offset = 0;
  while (offset < rest.length) {
    TOKEN.lastIndex = offset;
    const match = TOKEN.exec(rest);
    if (match === null) throw new QuerySyntaxError(`failed to parse query: ${query}`);
    offset = TOKEN.lastIndex;
    if (match[1] !== undefined) tokens.push({ t: "and" });
    else if (match[2] !== undefined) tokens.push({ t: "op", op: match[2] as QueryOp });
    else if (match[3] !== undefined) tokens.push({ t: "op", op: match[3] as QueryOp });
    else if (match[4] !== undefined) tokens.push({ t: "string", v: match[4].replace(/\\(.)/g, "$1") });
    else if (match[5] !== undefined) {
      const [kind, text] = match[5].split(/\s+/) as [string, string];
      const ms = Date.parse(kind === "DATE" ? `${text}T00:00:00Z` : text);
      if (Number.isNaN(ms)) throw new QuerySyntaxError(`invalid ${kind.toLowerCase()}: ${text}`);
      tokens.push({ t: "number", v: ms });
    } else if (match[6] !== undefined) tokens.push({ t: "number", v: Number(match[6]) });
    else if (match[7] !== undefined) tokens.push({ t: "ident", v: match[7] });
  }
  return tokens;
}

/** Parses a query into its conditions; throws {@link QuerySyntaxError}. */
export function parseQuery(query: string): QueryCondition[] {
  const tokens = tokenize(query);
  const conditions: QueryCondition[] = [];
  let i = 0;
  for (;;) {
    const key = tokens[i++];
    const op = tokens[i++];
    if (key?.t !== "ident" || op?.t !== "op") throw new QuerySyntaxError(`failed to parse query: ${query}`);
    if (op.op === "EXISTS") {
      conditions.push({ key: key.v, op: op.op, operand: { kind: "none" } });
    } else {
      const operand = tokens[i++];
      if (operand?.t === "string")
        conditions.push({ key: key.v, op: op.op, operand: { kind: "string", value: operand.v } });
      else if (operand?.t === "number")
        conditions.push({ key: key.v, op: op.op, operand: { kind: "number", value: operand.v } });
      else throw new QuerySyntaxError(`failed to parse query: ${query}`);
    }
    if (i >= tokens.length) return conditions;
    if (tokens[i++]?.t !== "and") throw new QuerySyntaxError(`failed to parse query: ${query}`);
  }
}

/** True when one attribute value satisfies a condition. */
export function valueMatches(condition: QueryCondition, value: string): boolean {
  const { op, operand } = condition;
  if (op === "EXISTS") return true;
  if (operand.kind === "none") return false;
  if (op === "CONTAINS") return value.includes(String(operand.value));
  if (operand.kind === "string") {
    if (op === "=") return value === operand.value;
    // Strings that look like numbers compare numerically, as CometBFT's indexer does.
    const a = Number(value);
    const b = Number(operand.value);
    if (Number.isNaN(a) || Number.isNaN(b)) return false;
    return compare(op, a, b);
  }
  const numeric = Number(value);
  const timed = Number.isNaN(numeric) ? Date.parse(value) : numeric;
  if (Number.isNaN(timed)) return false;
  return compare(op, timed, operand.value);
}

function compare(op: QueryOp, a: number, b: number): boolean {
  switch (op) {
    case "=":
      return a === b;
    case "<":
      return a < b;
    case "<=":
      return a <= b;
    case ">":
      return a > b;
    case ">=":
      return a >= b;
    default:
      return false;
  }
}

/** What a condition is checked against: a tx's height, upper-case hex hash and events. */
export interface SearchableTx {
  readonly height: bigint;
  readonly hashHex: string;
  readonly events: readonly AbciEvent[];
}

/** True when a tx satisfies every condition (each against any event attribute with that key). */
export function txMatches(conditions: readonly QueryCondition[], tx: SearchableTx): boolean {
  return conditions.every((condition) => {
    if (condition.key === "tx.height") return valueMatches(condition, tx.height.toString());
    if (condition.key === "tx.hash") {
      return condition.operand.kind === "string" && condition.op === "="
        ? condition.operand.value.toUpperCase() === tx.hashHex
        : valueMatches(condition, tx.hashHex);
    }
    const dot = condition.key.lastIndexOf(".");
    if (dot < 0) return false;
    const type = condition.key.slice(0, dot);
    const attribute = condition.key.slice(dot + 1);
    for (const e of tx.events) {
      if (e.type !== type) continue;
      for (const a of e.attributes) if (a.key === attribute && valueMatches(condition, a.value)) return true;
    }
    return false;
  });
}
