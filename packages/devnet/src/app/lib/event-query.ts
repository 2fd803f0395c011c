/**
 * CometBFT's event query language, as `tx_search`, `block_search` and WebSocket `subscribe` take
 * it: conditions `tag OP operand` joined by `AND`. A tag starts with a letter or `_` and holds
 * letters, digits, `.`, `_` and `-`; OP is `=`, `<`, `<=`, `>`, `>=`, `CONTAINS` or `EXISTS` (no
 * operand). Operands are 'single-quoted strings' (no escapes), numbers (digits with an optional
 * fraction, compared exactly, however long), `TIME 2026-01-02T03:04:05Z` (RFC 3339, offset `Z` or
 * `±hh:mm`) and `DATE 2026-01-02`. `CONTAINS` takes a string; the order comparisons a number, time
 * or date; `=` any. A number condition matches an attribute whose value starts with a number
 * (`100uusdc` is 100); a time or date condition one whose value is a time or date.
 *
 * One module for every place that takes a query; {@link printQuery} prints a parsed query back.
 */
import { PerpxError } from "@perpx/errors";

/** The operators of a condition. */
export type QueryOp = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

/** An operand, as written (numbers, times and dates keep their text; they compare by value). */
export interface QueryOperand {
  readonly kind: "string" | "number" | "time" | "date";
  readonly text: string;
}

/** One condition of a query; `operand` is absent for `EXISTS` only. */
export interface QueryCondition {
  readonly key: string;
  readonly op: QueryOp;
  readonly operand?: QueryOperand;
}

/** Keys whose operand is a block height: an integer below 2^63. */
const HEIGHT_KEYS = new Set(["tx.height", "block.height"]);
const MAX_HEIGHT = (1n << 63n) - 1n;

/**
 * A query that does not parse, or asks for something no chain has (a height beyond int64).
 *
 * @example
 * ```ts
 * try {
 *   parseQuery("tx.height>");
 * } catch (error) {
 *   if (error instanceof QuerySyntaxError) console.error(error.shortMessage);
 * }
 * ```
 */
export class QuerySyntaxError extends PerpxError {
  override name = "QuerySyntaxError";
  constructor(problem: string) {
    super("INVALID_ARGUMENT", problem);
  }
}

type Token =
  | { t: "tag"; text: string; at: number }
  | { t: "op"; op: QueryOp; at: number }
  | { t: "and"; at: number }
  | { t: "operand"; operand: QueryOperand; at: number };

const TAG_START = /[\p{L}_]/u;
const TAG_CHAR = /[\p{L}\p{N}._-]/u;
const TIME_TEXT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Nanoseconds since the epoch of an RFC 3339 time (fraction optional), or undefined. */
function timeNanos(text: string): bigint | undefined {
  const m = TIME_TEXT.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m as unknown as [string, ...string[]];
  const ms = calendarMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  if (ms === undefined) return undefined;
  let offsetMin = 0;
  if (zone !== "Z") {
    const oh = Number(zone?.slice(1, 3));
    const om = Number(zone?.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (zone?.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const nanos = BigInt((fraction ?? "").padEnd(9, "0"));
  return (BigInt(ms) - BigInt(offsetMin) * 60_000n) * 1_000_000n + nanos;
}

/** Nanoseconds since the epoch of a `yyyy-mm-dd` date (UTC midnight), or undefined. */
function dateNanos(text: string): bigint | undefined {
  const m = DATE_TEXT.exec(text);
  if (m === null) return undefined;
  const ms = calendarMs(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0);
  return ms === undefined ? undefined : BigInt(ms) * 1_000_000n;
}

/** Unix ms of a calendar date and time, or undefined when a field is out of range. */
function calendarMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms;
}

/** Reads a TIME or DATE literal after its label; the label's year must be within 1900..2999. */
function stampOperand(kind: "time" | "date", text: string): QueryOperand {
  const nanos = kind === "time" ? timeNanos(text) : dateNanos(text);
  const label = kind === "time" ? "TIME" : "DATE";
  if (nanos === undefined) {
    throw new QuerySyntaxError(`invalid ${label} value: ${JSON.stringify(text)}`);
  }
  const year = Number(text.slice(0, 4));
  if (year < 1900 || year > 2999) throw new QuerySyntaxError(`${label} year ${year} out of range`);
  return { kind, text };
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    const c = query[i] as string;
    const at = i;
    if (/\s/.test(c)) {
      i++;
    } else if (c >= "0" && c <= "9") {
      while (i < n && (query[i] as string) >= "0" && (query[i] as string) <= "9") i++;
      if (query[i] === ".") {
        i++;
        while (i < n && (query[i] as string) >= "0" && (query[i] as string) <= "9") i++;
      }
      tokens.push({ t: "operand", operand: { kind: "number", text: query.slice(at, i) }, at });
    } else if (c === "'") {
      const end = query.indexOf("'", i + 1);
      if (end < 0) throw new QuerySyntaxError(`unterminated string at offset ${at}`);
      tokens.push({ t: "operand", operand: { kind: "string", text: query.slice(i + 1, end) }, at });
      i = end + 1;
    } else if (c === "<" || c === ">") {
      const op = (query[i + 1] === "=" ? `${c}=` : c) as QueryOp;
      i += op.length;
      tokens.push({ t: "op", op, at });
    } else if (c === "=") {
      i++;
      tokens.push({ t: "op", op: "=", at });
    } else if (TAG_START.test(c)) {
      while (i < n && TAG_CHAR.test(query[i] as string)) i++;
      const text = query.slice(at, i);
      if ((text === "TIME" || text === "DATE") && query[i] === " ") {
        let end = i + 1;
        while (end < n && /[0-9TZ:+-]/.test(query[end] as string)) end++;
        tokens.push({
          t: "operand",
          operand: stampOperand(text === "TIME" ? "time" : "date", query.slice(i + 1, end)),
          at,
        });
        i = end;
      } else if (text === "AND") tokens.push({ t: "and", at });
      else if (text === "CONTAINS" || text === "EXISTS") tokens.push({ t: "op", op: text, at });
      else tokens.push({ t: "tag", text, at });
    } else {
      throw new QuerySyntaxError(`invalid input ${JSON.stringify(c)} at offset ${at}`);
    }
  }
  return tokens;
}

const OPERANDS_OF: Record<QueryOp, ReadonlyArray<QueryOperand["kind"]>> = {
  "=": ["string", "number", "time", "date"],
  "<": ["number", "time", "date"],
  "<=": ["number", "time", "date"],
  ">": ["number", "time", "date"],
  ">=": ["number", "time", "date"],
  CONTAINS: ["string"],
  EXISTS: [],
};

function describe(token: Token | undefined): string {
  if (token === undefined) return "the end of the query";
  switch (token.t) {
    case "tag":
      return `tag ${token.text} at offset ${token.at}`;
    case "op":
      return `operator ${token.op} at offset ${token.at}`;
    case "and":
      return `AND at offset ${token.at}`;
    case "operand":
      return `${token.operand.kind} at offset ${token.at}`;
  }
}

/** A height condition's operand must be an integer that fits a block height. */
function checkHeight(condition: QueryCondition): void {
  const { operand } = condition;
  if (operand === undefined) return;
  if (operand.kind !== "number" || operand.text.includes(".")) {
    throw new QuerySyntaxError(`${condition.key} must be compared with an integer height`);
  }
  if (BigInt(operand.text) > MAX_HEIGHT) {
    throw new QuerySyntaxError(
      `${condition.key} ${operand.text} is beyond the largest height (${MAX_HEIGHT})`,
    );
  }
}

/**
 * Parses a query into its conditions.
 *
 * @throws {QuerySyntaxError} naming what is wrong and where.
 */
export function parseQuery(query: string): QueryCondition[] {
  const tokens = tokenize(query);
  const conditions: QueryCondition[] = [];
  let i = 0;
  for (;;) {
    const key = tokens[i++];
    if (key?.t !== "tag") throw new QuerySyntaxError(`expected a tag, got ${describe(key)}`);
    const op = tokens[i++];
    if (op?.t !== "op")
      throw new QuerySyntaxError(`expected an operator after ${key.text}, got ${describe(op)}`);
    let condition: QueryCondition;
    if (op.op === "EXISTS") condition = { key: key.text, op: op.op };
    else {
      const operand = tokens[i++];
      const allowed = OPERANDS_OF[op.op];
      if (operand?.t !== "operand" || !allowed.includes(operand.operand.kind)) {
        throw new QuerySyntaxError(
          `expected a ${allowed.join(", ")} after ${op.op}, got ${describe(operand)}`,
        );
      }
      condition = { key: key.text, op: op.op, operand: operand.operand };
    }
    if (HEIGHT_KEYS.has(condition.key)) checkHeight(condition);
    conditions.push(condition);
    if (i >= tokens.length) return conditions;
    const and = tokens[i++];
    if (and?.t !== "and") throw new QuerySyntaxError(`expected AND, got ${describe(and)}`);
  }
}

/** Prints conditions as a query that {@link parseQuery} reads back to the same conditions. */
export function printQuery(conditions: readonly QueryCondition[]): string {
  return conditions
    .map(({ key, op, operand }) => {
      if (operand === undefined) return `${key} ${op}`;
      const text =
        operand.kind === "string"
          ? `'${operand.text}'`
          : operand.kind === "time"
            ? `TIME ${operand.text}`
            : operand.kind === "date"
              ? `DATE ${operand.text}`
              : operand.text;
      return `${key} ${op} ${text}`;
    })
    .join(" AND ");
}

/** An exact decimal: its integer part and its fraction digits (no trailing zeros). */
interface Decimal {
  readonly whole: bigint;
  readonly fraction: string;
}

function decimal(text: string): Decimal {
  const [whole, fraction = ""] = text.split(".") as [string, string?];
  return { whole: BigInt(whole), fraction: fraction.replace(/0+$/, "") };
}

function compareDecimal(a: Decimal, b: Decimal): number {
  if (a.whole !== b.whole) return a.whole < b.whole ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, "0");
  const fb = b.fraction.padEnd(width, "0");
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** The leading number of an attribute value (`100uusdc` is 100), or undefined. */
function leadingNumber(value: string): Decimal | undefined {
  const m = /^\d+(?:\.\d+)?/.exec(value);
  return m === null ? undefined : decimal(m[0]);
}

function ordered(op: QueryOp, sign: number): boolean {
  switch (op) {
    case "=":
      return sign === 0;
    case "<":
      return sign < 0;
    case "<=":
      return sign <= 0;
    case ">":
      return sign > 0;
    case ">=":
      return sign >= 0;
    default:
      return false;
  }
}

/** True when one attribute value satisfies a condition. */
export function valueMatches(condition: QueryCondition, value: string): boolean {
  const { op, operand } = condition;
  if (op === "EXISTS" || operand === undefined) return true;
  switch (operand.kind) {
    case "string":
      return op === "CONTAINS" ? value.includes(operand.text) : value === operand.text;
    case "number": {
      const actual = leadingNumber(value);
      return actual !== undefined && ordered(op, compareDecimal(actual, decimal(operand.text)));
    }
    case "time":
    case "date": {
      const actual = operand.kind === "time" ? timeNanos(value) : dateNanos(value);
      const wanted = (operand.kind === "time" ? timeNanos(operand.text) : dateNanos(operand.text)) as bigint;
      return actual !== undefined && ordered(op, actual === wanted ? 0 : actual < wanted ? -1 : 1);
    }
  }
}

/** Where a query's conditions look for values: an event map, a tx, a block. */
export interface QuerySubject {
  /** The values of a composite key `type.attribute` (or `tx.height`, `tm.event`, ...). */
  values(key: string): readonly string[];
  /** True when an event of exactly this type is present (a key naming a type matches ""). */
  hasType(key: string): boolean;
}

/** True when every condition is met by some value of its key. */
export function queryMatches(conditions: readonly QueryCondition[], subject: QuerySubject): boolean {
  return conditions.every((condition) => {
    const values = subject.values(condition.key);
    if (values.length === 0) return subject.hasType(condition.key) && valueMatches(condition, "");
    return values.some((value) => valueMatches(condition, value));
  });
}

/** A {@link QuerySubject} over flattened events (`{ "transfer.amount": ["5uusdc"], ... }`). */
export function flatEventSubject(events: Readonly<Record<string, readonly string[]>>): QuerySubject {
  return {
    values: (key) => events[key] ?? [],
    hasType: (key) =>
      Object.keys(events).some((k) => k.startsWith(`${key}.`) && !k.slice(key.length + 1).includes(".")),
  };
}
