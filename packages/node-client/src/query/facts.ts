import type {
  DescMessage,
  DescMethodUnary,
  JsonValue,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";
import { fromCosmosJson } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import { withDeadline } from "../transport/call.js";
import { missingTransportError } from "../transport/missing.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Options of a node-fact query, which the REST server also answers.
 * @example
 * ```ts
 * const options: FactOptions = { transport: "rest", timeoutMs: 2_000 };
 * ```
 */
export interface FactOptions extends Omit<QueryOptions, "transport"> {
  /** Which transport carries the query; default "grpc" when configured, else "rest", else "rpc". */
  transport?: "grpc" | "rest" | "rpc";
}

/**
 * Picks the transport of a node-fact query: the requested one, else gRPC, else REST, else RPC.
 * @throws {MissingEndpointError} when none (or not the requested one) is configured.
 */
export function pickFactTransport(
  client: NodeConnection,
  wanted?: "grpc" | "rest" | "rpc",
): "grpc" | "rest" | "rpc" {
  const choice = wanted ?? (client.grpc ? "grpc" : client.rest ? "rest" : client.rpc ? "rpc" : undefined);
  if (choice !== undefined && client[choice] !== undefined) return choice;
  throw missingTransportError(client, choice ? [choice] : ["grpc", "rest", "rpc"]);
}

/**
 * Parameters of {@link restQuery}: the REST path, the message its JSON decodes into, and how to ask.
 * @example
 * ```ts
 * import { cosmosNode } from "@perpx/proto";
 *
 * const params: RestQueryParams<typeof cosmosNode.ConfigResponseSchema> =
 *   { path: "/cosmos/base/node/v1beta1/config", schema: cosmosNode.ConfigResponseSchema };
 * ```
 */
export interface RestQueryParams<Desc extends DescMessage> extends FactOptions {
  /** The path under the REST base URL, e.g. `/cosmos/base/node/v1beta1/config`. */
  path: string;
  /** The message the answer decodes into. */
  schema: Desc;
}

/**
 * GETs a REST path and decodes its Cosmos JSON into a message (`fromCosmosJson`, unknown fields ignored).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the path and schema (`RestQueryParams<Desc>`), with `signal` and `timeoutMs`.
 * @returns the decoded message.
 * @example
 * ```ts
 * import { cosmosNode } from "@perpx/proto";
 *
 * const config = await restQuery(client, { path: "/cosmos/base/node/v1beta1/config", schema: cosmosNode.ConfigResponseSchema });
 * config.minimumGasPrice.length > 0; // true
 * ```
 */
export async function restQuery<Desc extends DescMessage>(
  client: NodeConnection,
  params: RestQueryParams<Desc>,
): Promise<MessageShape<Desc>> {
  const { path, schema, ...options } = params;
  const rest = client.rest;
  if (!rest) throw missingTransportError(client, ["rest"]);
  return withDeadline({ ...options, operation: path, defaultTimeoutMs: client.timeoutMs }, async (signal) => {
    const body = await rest.get(path, signal);
    try {
      // Lenient on purpose: nodes of newer SDK versions add fields.
      return fromCosmosJson(schema, body as JsonValue, { ignoreUnknownFields: true });
    } catch (error) {
      throw new QueryError({ path, transport: "rest", log: "the answer does not decode" }, { cause: error });
    }
  });
}

/** A fact a node serves on every transport: REST at `path`, else the method over gRPC or RPC. */
export function factQuery<I extends DescMessage, O extends DescMessage>(
  client: NodeConnection,
  options: FactOptions,
  route: { path: string; method: DescMethodUnary<I, O>; request: MessageInitShape<I> },
): Promise<MessageShape<O>> {
  const transport = pickFactTransport(client, options.transport);
  return transport === "rest"
    ? restQuery(client, { ...options, path: route.path, schema: route.method.output })
    : unaryQuery(client, { ...options, transport, method: route.method, request: route.request });
}
