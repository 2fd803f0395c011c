/**
 * The account routes' shared parameters, with the reference's rules and messages (comlink's
 * `CheckSubaccountSchema`, `CheckParentSubaccountSchema`, its `sanitizeArray` + `validateArray`
 * pair for list parameters), and the filters they drive.
 */
import { CHILD_SUBACCOUNT_STRIDE } from "@perpx/address";
import { isValidRouteText, type RouteParamKind } from "@perpx/core/indexer";
import type { Indexer } from "../indexer.js";
import type { RequestChecks } from "./validation.js";

/** The reference's message for a bad `subaccountNumber` (also the transfers-between numbers'). */
const SUBACCOUNT_MESSAGE = "subaccountNumber must be a non-negative integer less than 128001";
const PARENT_MESSAGE = "parentSubaccountNumber must be a non-negative integer less than 128";
const ADDRESS_MESSAGE = "address must be a valid dydx address";

/**
 * A required path-or-query parameter of one of the route table's kinds, by the table's rule
 * (`@perpx/core/indexer`, the rule the client builds its text by), with the reference's message.
 */
function kindParam(
  checks: RequestChecks,
  name: string,
  kind: RouteParamKind,
  msg: string,
): string | undefined {
  return checks.oneOf(name, (text) => isValidRouteText({ kind }, text), msg, "both");
}

/** A subaccount number parameter `name` (path or query), 0 to 128,000, with the reference's message. */
export function subaccountNumberParam(checks: RequestChecks, name: string): number {
  return Number(kindParam(checks, name, "subaccountNumber", SUBACCOUNT_MESSAGE) ?? 0);
}

/** `address` and `subaccountNumber` (path or query). */
export function subaccountParams(checks: RequestChecks): { address: string; n: number } {
  const address = kindParam(checks, "address", "address", ADDRESS_MESSAGE) ?? "";
  return { address, n: subaccountNumberParam(checks, "subaccountNumber") };
}

/** `address` and `parentSubaccountNumber` (path or query). */
export function parentParams(checks: RequestChecks): { address: string; n: number } {
  const address = kindParam(checks, "address", "address", ADDRESS_MESSAGE) ?? "";
  const n = Number(
    kindParam(checks, "parentSubaccountNumber", "parentSubaccountNumber", PARENT_MESSAGE) ?? 0,
  );
  return { address, n };
}

/**
 * A list parameter as the reference reads it: one value is upper-cased and split at commas (no
 * trimming), repeated values are upper-cased each (not split); every item must be in `allowed`,
 * else one entry `msg` whose value is the list it became.
 */
export function arrayParam(
  checks: RequestChecks,
  name: string,
  allowed: readonly string[],
  msg: string,
): string[] | undefined {
  const raw = checks.rawAll(name);
  if (raw.length === 0) return undefined;
  const values =
    raw.length === 1 ? (raw[0] as string).toUpperCase().split(",") : raw.map((v) => v.toUpperCase());
  if (!values.every((v) => allowed.includes(v))) {
    checks.fail(name, msg, values, "query");
    return undefined;
  }
  return values;
}

/** The subaccount numbers of `address` under parent `parent` the indexer knows. */
export function childrenOf(indexer: Indexer, address: string, parent: number): number[] {
  return indexer.accounts.numbersOf(address).filter((n) => n % CHILD_SUBACCOUNT_STRIDE === parent);
}

/** An inclusive upper bound on (height, time), each optional. */
export function createdFilter(before: { height?: bigint; time?: Date }) {
  return (height: bigint, time: Date) =>
    (before.height === undefined || height <= before.height) &&
    (before.time === undefined || time.getTime() <= before.time.getTime());
}

/** `createdOnOrAfterHeight` and `createdOnOrAfter` (height 0 counts as absent, as in the reference). */
export function createdOnOrAfter(checks: RequestChecks): { height?: bigint; time?: Date } {
  const height = checks.optionalInt(
    "createdOnOrAfterHeight",
    "createdOnOrAfterHeight must be a non-negative integer",
    -1,
  );
  const time = checks.optionalIso("createdOnOrAfter");
  return {
    ...(height === undefined || height === 0 ? {} : { height: BigInt(height) }),
    ...(time === undefined ? {} : { time }),
  };
}

/** An inclusive lower bound on (height, time), each optional. */
export function afterFilter(after: { height?: bigint; time?: Date }) {
  return (height: bigint, time: Date) =>
    (after.height === undefined || height >= after.height) &&
    (after.time === undefined || time.getTime() >= after.time.getTime());
}
