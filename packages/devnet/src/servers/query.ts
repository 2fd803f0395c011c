/**
 * CometBFT's event query language as its pub/sub uses it for `subscribe`: conditions
 * `key op value` joined by `AND`, where `op` is `=`, `<`, `<=`, `>`, `>=`, `CONTAINS` or `EXISTS`
 * and values are 'quoted strings', numbers, or `TIME`/`DATE` literals. An event map matches when every
 * condition is met by at least one value of its key.
 */

/** One condition of a query. */
export interface Condition {
  key: string;
  op: "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";
  /** The operand: a string, or a number when written unquoted. */
  value: string | number | undefined;
}

/** A query that could not be parsed. */
export class QuerySyntaxError extends Error {
  override readonly name = "QuerySyntaxError";
}

const CONDITION =
  /^\s*([A-Za-z_][\w.\-/]*)\s*(?:(EXISTS)|(<=|>=|=|<|>|CONTAINS)\s*(?:'((?:[^']|\\')*)'|(-?\d+(?:\.\d+)?)|(?:TIME|DATE)\s+(\S+)))\s*$/;

/** Splits `query` on `AND` outside quotes. */
function splitAnd(query: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === "'") quoted = !quoted;
    if (quoted || !/\s/.test(c ?? "")) continue;
    const m = /^\s+AND\s+/.exec(query.slice(i));
    if (m !== null) {
      parts.push(query.slice(start, i));
      i += m[0].length - 1;
      start = i + 1;
    }
  }
  if (quoted) throw new QuerySyntaxError(`unterminated string in query: ${query}`);
  parts.push(query.slice(start));
  return parts;
}

/** Parses a query such as `tm.event='Tx' AND tx.height>5`. */
export function parseQuery(query: string): Condition[] {
  if (query.trim() === "") throw new QuerySyntaxError("empty query");
  return splitAnd(query).map((part) => {
    const m = CONDITION.exec(part);
    if (m === null) throw new QuerySyntaxError(`cannot parse condition "${part.trim()}"`);
    const key = m[1]!;
    if (m[2] !== undefined) return { key, op: "EXISTS", value: undefined };
    const op = m[3] as Condition["op"];
    const value = m[4] !== undefined ? m[4] : m[5] !== undefined ? Number(m[5]) : m[6]!;
    return { key, op, value };
  });
}

function compare(actual: string, op: Condition["op"], expected: string | number | undefined): boolean {
  switch (op) {
    case "EXISTS":
      return true;
    case "CONTAINS":
      return actual.includes(String(expected));
    case "=":
      if (typeof expected === "number") return Number(actual) === expected;
      return actual === expected;
    default: {
      const a = Number(actual);
      const b = Number(expected);
      if (Number.isNaN(a) || Number.isNaN(b)) {
        const e = String(expected);
        if (op === "<") return actual < e;
        if (op === "<=") return actual <= e;
        if (op === ">") return actual > e;
        return actual >= e;
      }
      if (op === "<") return a < b;
      if (op === "<=") return a <= b;
      if (op === ">") return a > b;
      return a >= b;
    }
  }
}

/** True when every condition is met by some value of its key in `events`. */
export function matches(conditions: readonly Condition[], events: Record<string, string[]>): boolean {
  return conditions.every((c) => {
    const values = events[c.key];
    if (values === undefined) return false;
    return values.some((v) => compare(v, c.op, c.value));
  });
}
