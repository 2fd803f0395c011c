/**
 * The one shape of a chain query, written once: each query action is a row over {@link defineQuery}
 * or {@link definePagedQuery} (its name, method, checked request and the part of the answer it returns).
 */
import type { DescMessage, DescMethodUnary, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, queryPath, unaryQuery } from "./unary.js";

/** An action's params after the client: optional when every field is (call options only). */
type ParamsOf<P> = object extends P ? [params?: P] : [params: P];

/** How one query action is made from its method. */
interface QuerySpec<I extends DescMessage, O extends DescMessage, P, R> {
  /** The request, from the params: each field checked (a typed error names it) and renamed. */
  request?: (params: P) => MessageInitShape<I>;
  /** What the action returns from the answer (with the method's path, for errors, and the params). */
  pick: (response: MessageShape<O>, path: string, params: P) => R;
  /** Answer `undefined` when the node says the entry does not exist (a NotFound `QueryError`). */
  orUndefined?: boolean;
  /** The params may be left out although the request has fields (each of them optional). */
  optional?: boolean;
}

/**
 * Makes a query action `(client, params) => answer` from a unary method over {@link unaryQuery}.
 * @param name - the action's public name (typed errors name it).
 * @param method - the method's descriptor, read at the first call (importing a row loads none).
 * @param spec - the request builder, the pick and whether NotFound answers `undefined`.
 * @returns the action.
 */
export function defineQuery<I extends DescMessage, O extends DescMessage, P extends QueryOptions, R>(
  name: string,
  method: () => DescMethodUnary<I, O>,
  spec: QuerySpec<I, O, P, R> & { orUndefined: true },
): (client: NodeConnection, ...params: ParamsOf<P>) => Promise<R | undefined>;
export function defineQuery<I extends DescMessage, O extends DescMessage, P extends QueryOptions, R>(
  name: string,
  method: () => DescMethodUnary<I, O>,
  spec: QuerySpec<I, O, P, R>,
): (client: NodeConnection, ...params: ParamsOf<P>) => Promise<R>;
export function defineQuery<I extends DescMessage, O extends DescMessage, P extends QueryOptions, R>(
  name: string,
  method: () => DescMethodUnary<I, O>,
  spec: QuerySpec<I, O, P, R>,
): (client: NodeConnection, ...params: ParamsOf<P>) => Promise<R | undefined> {
  return async (client, ...[params]) => {
    checkParams(params, name, spec.optional ?? spec.request === undefined);
    const options = (params ?? {}) as P;
    const request = spec.request ? spec.request(options) : ({} as MessageInitShape<I>);
    try {
      const desc = method();
      return spec.pick(
        await unaryQuery(client, { ...options, method: desc, request }),
        queryPath(desc),
        options,
      );
    } catch (error) {
      if (spec.orUndefined && isQueryError(error) && error.notFound) return undefined;
      throw error;
    }
  };
}

/**
 * Makes a query action that returns the items of every page of a paginated method ({@link allPages}).
 * @param name - the action's public name (typed errors name it).
 * @param method - the paginated method's descriptor, read at the first call.
 * @param spec - the request builder (without `pagination`), the items of one answer, `optional`.
 * @returns the action.
 */
export function definePagedQuery<I extends DescMessage, O extends DescMessage, P extends QueryOptions, T>(
  name: string,
  method: () => DescMethodUnary<I, O>,
  spec: Pick<QuerySpec<I, O, P, readonly T[]>, "request" | "optional"> & {
    pick: (response: MessageShape<O>) => readonly T[];
  },
): (client: NodeConnection, ...params: ParamsOf<P>) => Promise<T[]> {
  return async (client, ...[params]) => {
    checkParams(params, name, spec.optional ?? spec.request === undefined);
    const options = (params ?? {}) as P;
    const request = spec.request ? spec.request(options) : ({} as MessageInitShape<I>);
    return allPages(client, { ...options, method: method(), request, pick: spec.pick });
  };
}
