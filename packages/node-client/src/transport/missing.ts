import { ENDPOINT_ENV_VARS, MissingEndpointError } from "@perpx/core";
import type { NodeConnection } from "../connection.js";

/**
 * A node transport, by the name queries and broadcasts give it (`transport: "rpc"`).
 *
 * @example
 * ```ts
 * const transport: NodeTransportName = "grpc";
 * ```
 */
export type NodeTransportName = "grpc" | "rpc" | "rest";

/**
 * The `createNodeClient` option of each transport, which is also the name of the endpoint of core's
 * table it takes (`getEndpoint(config, name)`).
 */
const CLIENT_OPTION = { grpc: "grpc", rpc: "nodeRpc", rest: "nodeRest" } as const;

/**
 * The error for a call that needs a transport the client was built without. Its hint names the
 * real `createNodeClient` options and the variables core's endpoint table reads them from
 * (`PERPX_GRPC_URL`, `PERPX_NODE_RPC_URL`, `PERPX_NODE_REST_URL`).
 *
 * @param client - the client that lacks it.
 * @param transports - the transports that would do, preferred first.
 *
 * @example
 * ```ts
 * const restOnly = createNodeClient({ nodeRest: "http://127.0.0.1:1317" });
 * missingTransportError(restOnly, ["grpc", "rpc"]).shortMessage;
 * // "No grpc or nodeRpc endpoint is configured for this client"
 * restOnly.close();
 * ```
 */
export function missingTransportError(
  client: NodeConnection,
  transports: readonly NodeTransportName[],
): MissingEndpointError {
  const endpoints = transports.map((t) => CLIENT_OPTION[t]);
  const reads = endpoints.map((e) => `getEndpoint(config, "${e}") reads ${ENDPOINT_ENV_VARS[e]}`);
  return new MissingEndpointError(
    endpoints.join(" or "),
    ENDPOINT_ENV_VARS[endpoints[0]!],
    client.network?.name ?? "this client",
    {
      metaMessages: [
        `Pass the ${endpoints.join(" or ")} option of createNodeClient (from the environment: ${reads.join(", ")}).`,
      ],
    },
  );
}
