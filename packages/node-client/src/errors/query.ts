/** A node answering a query with an error. */
import { errorGuard, PerpxError, type PerpxErrorOptions } from "@perpx/errors";

/**
 * What a node said about a failed query.
 *
 * @example
 * ```ts
 * const parameters: QueryErrorParameters = { path: "/cosmos.bank.v1beta1.Query/Balance", transport: "grpc", grpcCode: 5, log: "not found" };
 * new QueryError(parameters).notFound; // true
 * ```
 */
export interface QueryErrorParameters {
  /** The method or path queried, e.g. `/cosmos.auth.v1beta1.Query/Account`. */
  path: string;
  /** Which transport carried it. */
  transport: "grpc" | "rpc" | "rest";
  /** The ABCI code, when known (`abci_query`); gRPC status codes are mapped as the SDK maps them. */
  abciCode?: number | undefined;
  /** The codespace, when known. */
  codespace?: string | undefined;
  /** The node's message. */
  log: string;
  /** HTTP status, for REST. */
  httpStatus?: number | undefined;
  /** gRPC status code (connect `Code`), for gRPC. */
  grpcCode?: number | undefined;
}

/**
 * A node answered a query with an error. `notFound` is true for "key not found" answers, told by
 * their codes only (sdk 22, gRPC NotFound, HTTP 404), never by the log's wording.
 *
 * @example
 * ```ts
 * const path = "/cosmos.auth.v1beta1.Query/Account";
 * new QueryError({ path, transport: "rpc", abciCode: 22, log: "account not found" }).notFound; // true
 * new QueryError({ path, transport: "grpc", grpcCode: 12, log: "method not found" }).notFound; // false: by code only
 * ```
 */
export class QueryError extends PerpxError {
  override name = "QueryError";
  /** The method or path queried. */
  readonly path: string;
  /** Which transport carried it. */
  readonly transport: "grpc" | "rpc" | "rest";
  /** The ABCI code, when known. */
  readonly abciCode: number | undefined;
  /** The codespace, when known. */
  readonly codespace: string | undefined;
  /** The node's message. */
  readonly log: string;
  /** HTTP status, for REST. */
  readonly httpStatus: number | undefined;
  /** gRPC status code, for gRPC. */
  readonly grpcCode: number | undefined;
  /** True when the node said the thing does not exist. */
  readonly notFound: boolean;

  /**
   * @param parameters - what the node said.
   * @param options - the `cause` and the extra `details` and `metaMessages` of the error.
   */
  constructor(parameters: QueryErrorParameters, options: PerpxErrorOptions = {}) {
    super("QUERY", `Query ${parameters.path} failed over ${parameters.transport}`, {
      metaMessages: [
        ...(parameters.abciCode === undefined
          ? []
          : [`code: ${parameters.codespace ?? "sdk"} ${parameters.abciCode}`]),
        ...(parameters.httpStatus === undefined ? [] : [`HTTP status: ${parameters.httpStatus}`]),
        `log: ${parameters.log}`,
      ],
      ...options,
    });
    this.path = parameters.path;
    this.transport = parameters.transport;
    this.abciCode = parameters.abciCode;
    this.codespace = parameters.codespace;
    this.log = parameters.log;
    this.httpStatus = parameters.httpStatus;
    this.grpcCode = parameters.grpcCode;
    this.notFound =
      ((parameters.codespace ?? "sdk") === "sdk" && parameters.abciCode === 22) ||
      parameters.grpcCode === 5 ||
      parameters.httpStatus === 404;
  }
}

/**
 * True for a {@link QueryError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isQueryError(new QueryError({ path: "/cosmos.auth.v1beta1.Query/Account", transport: "rpc", log: "" })); // true
 * ```
 */
export const isQueryError = errorGuard<QueryError>("QueryError");

// The checks of an answer's fields, each failing with a QueryError that names the field.

/**
 * The field an answer must carry; a `QueryError` naming it when the node left it out.
 * @param value - the answer's field.
 * @param path - the method's path (`/<service>/<Method>`).
 * @param field - the field's proto name.
 * @returns the value.
 */
export function present<T>(value: T | undefined, path: string, field: string): T {
  if (value === undefined)
    throw new QueryError({ path, transport: "grpc", log: `the answer has no ${field}` });
  return value;
}

/**
 * An answer's coin amount (a `math.Int` that is never negative: a balance, an escrow) as a bigint:
 * decimal digits only, `""` being zero as the chain reads an unset amount. Hex (`"0x10"`, which
 * `BigInt` reads as 16), binary, spaces, a sign, a fraction or an exponent are a `QueryError`
 * naming the field, never another number.
 * @param value - the answer's field.
 * @param path - the method's path (`/<service>/<Method>`).
 * @param field - the field's proto name.
 * @returns the amount in base units.
 * @throws {QueryError} naming `field` when `value` is not decimal digits.
 * @example
 * ```ts
 * coinAmount("1500000", "/perpx.wrap.v1.Query/Backing", "backings[0].remainingBalance"); // 1500000n
 * coinAmount("", "/perpx.wrap.v1.Query/Backing", "backings[0].remainingBalance"); // 0n
 * ```
 */
export function coinAmount(value: string, path: string, field: string): bigint {
  if (/^[0-9]*$/.test(value)) return BigInt(value || "0");
  const log = `the answer's ${field} is not a coin amount: ${JSON.stringify(String(value).slice(0, 80))}`;
  throw new QueryError({ path, transport: "grpc", log });
}

/**
 * The transaction a node answered a look-up of `hash` with, when it is that one: an answer carrying
 * another transaction's hash (a confused node or proxy) is a `QueryError`, never taken for this one.
 * @param found - the answered transaction (its `hash` uppercase hex).
 * @param hash - the hash looked up (uppercase hex).
 * @param path - the method's path (`tx` over RPC).
 * @param transport - the transport that carried the answer.
 * @returns `found`.
 * @throws {QueryError} when `found` is another transaction.
 * @example
 * ```ts
 * sameTx({ hash: "AB" }, "AB", "tx", "rpc").hash; // "AB"
 * sameTx({ hash: "CD" }, "AB", "tx", "rpc"); // throws QueryError
 * ```
 */
export function sameTx<T extends { hash: string }>(
  found: T,
  hash: string,
  path: string,
  transport: "rpc" | "grpc",
): T {
  if (found.hash === hash) return found;
  const log = `the node answered the look-up of ${hash} with another transaction's, ${found.hash.slice(0, 80)}`;
  throw new QueryError({ path, transport, log });
}
