/**
 * The parameter vocabulary of the indexer's REST routes: each kind with the rule its wire text
 * follows (what the indexer accepts), shared by the client, which builds that text, and the
 * devnet's indexer, which reads it.
 */
import { MAX_PARENT_SUBACCOUNT_NUMBER, MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
import { INDEXER_LIMIT_MAX } from "./limits.js";

/**
 * The kind of one route parameter.
 *
 * @example
 * ```ts
 * const kind: RouteParamKind = "subaccountNumber";
 * ```
 */
export type RouteParamKind =
  | "address"
  | "addresses"
  | "subaccountNumber"
  | "parentSubaccountNumber"
  | "limit"
  | "page"
  | "positive"
  | "offset"
  | "height"
  | "time"
  | "ticker"
  | "uuid"
  | "referralCode"
  | "text"
  | "boolean"
  | "flag"
  | "enum"
  | "enums";

/**
 * One route parameter: its kind, the values of an enumeration, and whether it is required;
 * `needs` names a parameter it cannot come without, `fallback` the value it takes when that one is set.
 *
 * @example
 * ```ts
 * const status: RouteParam = { kind: "enums", values: ["OPEN", "CLOSED"] };
 * ```
 */
export interface RouteParam {
  readonly kind: RouteParamKind;
  readonly values?: readonly string[];
  readonly required?: boolean;
  readonly needs?: string;
  readonly fallback?: string;
}

// validator.js's `isInt` as the indexer's express-validator runs it (leading zeros and a sign allowed).
const INT = /^[+-]?\d+$/;
const ISO_8601 =
  /^\d{4}-?\d\d-?\d\d(?:[T\s]\d\d(?::?\d\d(?::?\d\d(?:[.,]\d+)?)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?$/i;
const ADDRESS = /^[a-zA-Z0-9]{1,90}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function intIn(text: string, min: number, max: number): boolean {
  if (!INT.test(text)) return false;
  const n = Number(text);
  return n >= min && n <= max;
}

const RULES: Readonly<Record<RouteParamKind, (text: string, param: RouteParam) => boolean>> = {
  address: (t) => ADDRESS.test(t),
  addresses: (t) => t.split(",").every((a) => ADDRESS.test(a)),
  subaccountNumber: (t) => intIn(t, 0, MAX_SUBACCOUNT_NUMBER),
  parentSubaccountNumber: (t) => intIn(t, 0, MAX_PARENT_SUBACCOUNT_NUMBER),
  limit: (t) => intIn(t, 1, INDEXER_LIMIT_MAX),
  page: (t) => intIn(t, 1, Number.MAX_SAFE_INTEGER),
  positive: (t) => intIn(t, 1, Number.MAX_SAFE_INTEGER),
  offset: (t) => intIn(t, 0, Number.MAX_SAFE_INTEGER),
  height: (t) => intIn(t, 0, Number.MAX_SAFE_INTEGER),
  time: (t) => ISO_8601.test(t) && !Number.isNaN(new Date(t).getTime()),
  ticker: (t) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(t),
  uuid: (t) => UUID.test(t),
  referralCode: (t) => /^[A-Za-z0-9]{3,32}$/.test(t),
  text: (t) => t.length > 0,
  boolean: (t) => t === "true" || t === "false",
  flag: (t) => t === "true",
  enum: (t, p) => (p.values ?? []).includes(t),
  enums: (t, p) => t.split(",").every((v) => (p.values ?? []).includes(v.toUpperCase())),
};

/**
 * Whether a parameter's wire text follows its kind's rule (the text the client sends for a valid
 * value; the indexer refuses any other).
 *
 * @param param - the parameter.
 * @param text - its text in the path or the query.
 * @returns true when the indexer accepts it.
 * @example
 * ```ts
 * isValidRouteText({ kind: "subaccountNumber" }, "128000"); // true
 * isValidRouteText({ kind: "parentSubaccountNumber" }, "128"); // false
 * ```
 */
export function isValidRouteText(param: RouteParam, text: string): boolean {
  return RULES[param.kind](text, param);
}
