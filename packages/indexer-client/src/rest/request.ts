/**
 * One call of any row of the route table: check every parameter by its kind (an
 * `InvalidArgumentError` naming it, before anything is sent), fill the path, send the rest as the
 * query, and check the answer's shape.
 */
import {
  INDEXER_ROUTES,
  type IndexerRoute,
  type IndexerRouteName,
  type RouteParam,
  routePath,
  routePathParams,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import { IndexerDecodeError } from "../errors.js";
import { shown } from "../ws/shape.js";
import { checkAnswer } from "./answers.js";
import type { IndexerConnection } from "./connection.js";
import type { CallOptions } from "./deadline.js";
import type { QueryValue } from "./query.js";
import type { RouteCallParams } from "./route-types.js";
import {
  checkAddress,
  checkAllOf,
  checkBoolean,
  checkHeight,
  checkLimit,
  checkOffset,
  checkOneOf,
  checkParentSubaccountNumber,
  checkPositive,
  checkSubaccountNumber,
  checkTicker,
  checkTime,
  checkUuid,
  type HeightInput,
  type TimeInput,
} from "./validate.js";

type Check = (field: string, value: never, param: RouteParam, prefix: string) => QueryValue;

function pattern(test: RegExp, problem: string): Check {
  return (field, value: unknown) => {
    if (typeof value !== "string" || !test.test(value)) throw new InvalidArgumentError(field, problem);
    return value;
  };
}

const CHECKS: Readonly<Record<RouteParam["kind"], Check>> = {
  address: (field, value: string, _, prefix) => checkAddress(field, value, prefix),
  addresses: (field, value: readonly string[], _, prefix) => value.map((a) => checkAddress(field, a, prefix)),
  subaccountNumber: (field, value: number) => checkSubaccountNumber(field, value),
  parentSubaccountNumber: (field, value: number) => checkParentSubaccountNumber(field, value),
  limit: (_, value: number) => checkLimit(value),
  page: (field, value: number) => checkPositive(field, value),
  positive: (field, value: number) => checkPositive(field, value),
  offset: (field, value: number) => checkOffset(field, value),
  height: (field, value: HeightInput) => checkHeight(field, value),
  time: (field, value: TimeInput) => checkTime(field, value),
  ticker: (field, value: string) => checkTicker(field, value),
  uuid: (field, value: string) => checkUuid(field, value),
  referralCode: pattern(/^[A-Za-z0-9]{3,32}$/, "must be 3 to 32 letters and digits"),
  text: pattern(/./, "must be a non-empty string"),
  boolean: (field, value: boolean) => checkBoolean(field, value),
  // Sent only as `true`: the indexer acts on the parameter's presence, whatever its value.
  flag: (field, value: boolean) => (checkBoolean(field, value) === true ? true : undefined),
  enum: (field, value: string, param) => checkOneOf(field, value, param.values ?? []),
  enums: (field, value: readonly string[], param) => checkAllOf(field, value, param.values ?? []),
};

const OLD_NAMES = ["address", "subaccountNumber", "parentSubaccountNumber"] as const;

/** Where each wire parameter's value is in the params, and the name errors give it. */
function sourcesOf(
  route: IndexerRoute,
  params: Readonly<Record<string, unknown>>,
): Map<string, { value: unknown; field: string }> {
  const sources = new Map<string, { value: unknown; field: string }>();
  for (const [group, [addressWire, numberWire]] of Object.entries(route.subaccounts)) {
    const at = group === "" ? "" : `${group}.`;
    const ref = group === "" ? params : params[group];
    if (typeof ref !== "object" || ref === null) {
      throw new InvalidArgumentError(group, "must be a subaccount { owner, number }");
    }
    const { owner, number } = ref as Record<string, unknown>;
    const old = OLD_NAMES.find((name) => name in ref);
    if (old !== undefined && (owner === undefined || number === undefined)) {
      const use = old === "address" ? "owner" : "number";
      throw new InvalidArgumentError(
        `${at}${old}`,
        `is not a parameter: a subaccount is { owner, number }, use ${use}`,
      );
    }
    sources.set(addressWire, { value: owner, field: `${at}owner` });
    sources.set(numberWire, { value: number, field: `${at}number` });
  }
  return sources;
}

/**
 * Calls the row `name` of the route table with checked params.
 *
 * @param client - the indexer client.
 * @param name - the row's name (the call's).
 * @param params - the call's params.
 * @returns the answer, its shape checked (`object` or `array`, as the row says).
 * @throws InvalidArgumentError naming the first bad parameter, before anything is sent.
 * @throws IndexerDecodeError naming the first bad field of an answer carrying positions (a size
 *   against its side, a negative asset size).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/height": { height: "7", time: "2026-01-01T00:00:00.000Z" } }) });
 * ((await requestRoute(client, "getHeight", {})) as { height: string }).height; // "7"
 * ```
 */
export async function requestRoute<N extends IndexerRouteName>(
  client: IndexerConnection,
  name: N,
  params: RouteCallParams<N>,
): Promise<unknown> {
  const route: IndexerRoute = INDEXER_ROUTES[name];
  const given = (params ?? {}) as Readonly<Record<string, unknown>>;
  const sources = sourcesOf(route, given);
  const values: Record<string, QueryValue> = {};
  for (const [wire, param] of Object.entries(route.params)) {
    const { value, field } = sources.get(wire) ?? { value: given[wire], field: wire };
    if (value === undefined) {
      if (param.required === true) throw new InvalidArgumentError(field, "is required");
      if (param.fallback !== undefined && given[param.needs ?? ""] !== undefined)
        values[wire] = param.fallback;
      continue;
    }
    if (param.needs !== undefined && given[param.needs] === undefined) {
      throw new InvalidArgumentError(field, `needs ${param.needs} as well`);
    }
    values[wire] = CHECKS[param.kind](field, value as never, param, client.addressPrefix);
  }
  const inPath = routePathParams(route);
  const path = routePath(route, Object.fromEntries(inPath.map((key) => [key, String(values[key])])));
  for (const key of inPath) delete values[key];
  const body = await client.get(path, values, callOf(given), route.answer);
  const bad = checkAnswer(name, body);
  if (bad) {
    const where = bad.path === "" ? "" : `${bad.path} `;
    throw new IndexerDecodeError(
      `${client.baseUrl}${path}`,
      `not the promised answer: ${where}must be ${bad.expected}, got ${shown(bad.found)}`,
    );
  }
  return body;
}

/**
 * The call options of a params object (its `timeoutMs` and `signal`), without the query fields.
 *
 * @param params - any call's params.
 * @returns `{ timeoutMs?, signal? }`: `{ owner, number, limit: 3, timeoutMs: 500 }` gives `{ timeoutMs: 500 }`.
 */
function callOf(params: CallOptions | undefined): CallOptions {
  return {
    ...(params?.timeoutMs === undefined ? {} : { timeoutMs: params.timeoutMs }),
    ...(params?.signal === undefined ? {} : { signal: params.signal }),
  };
}
