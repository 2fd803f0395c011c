/** Every chain `Query` service, derived from its `@perpx/proto` descriptor (no per-method wrapper). */
import type {
  DescMessage,
  DescMethodUnary,
  DescService,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";
import type { NodeConnection } from "../connection.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * A typed client of one `Query` service: each unary method takes the request and the call options.
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * const bank: QueryClient<typeof cosmosBank.Query> = createQueryClient(client, cosmosBank.Query);
 * ```
 */
export type QueryClient<S extends DescService> = {
  [K in keyof S["method"]]: S["method"][K] extends DescMethodUnary<infer I, infer O>
    ? (request?: MessageInitShape<I>, options?: QueryOptions) => Promise<MessageShape<O>>
    : never;
};

/**
 * A typed client of one `Query` service of `@perpx/proto`: every unary method runs {@link unaryQuery}.
 * @param client - the node client (from `createNodeClient`).
 * @param service - the service's descriptor, e.g. `cosmosBank.Query`.
 * @returns the service's methods, e.g. `bank.supplyOf({ denom }, { height })`.
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * (await createQueryClient(client, cosmosBank.Query).supplyOf({ denom: "uusdc" })).amount?.denom; // "uusdc"
 * ```
 */
export function createQueryClient<S extends DescService>(client: NodeConnection, service: S): QueryClient<S> {
  const methods: Record<
    string,
    (request?: MessageInitShape<DescMessage>, options?: QueryOptions) => Promise<unknown>
  > = {};
  for (const method of service.methods) {
    if (method.methodKind !== "unary") continue;
    const unary = method as DescMethodUnary;
    methods[method.localName] = (request = {}, options = {}) =>
      unaryQuery(client, { ...options, method: unary, request });
  }
  return methods as QueryClient<S>;
}
