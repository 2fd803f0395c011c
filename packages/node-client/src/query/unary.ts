import {
  create,
  type DescMessage,
  type DescMethodUnary,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import type { NodeConnection } from "../connection.js";
import { failedBeforeConnecting, QueryError, TransportError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { type CallOptions, withDeadline } from "../transport/call.js";
import {
  answeredByServer,
  answeredWithStatus,
  GRPC_STATUS,
  grpcStatusOf,
  wasRefusedStream,
} from "../transport/grpc.js";
import { missingTransportError } from "../transport/missing.js";
import { type CometRpc, cometCall, JsonRpcError, rawRpc } from "../transport/rpc-json.js";

/**
 * Options of a query.
 * @example
 * ```ts
 * await getBalances(client, { address: wallet.address, transport: "rpc", timeoutMs: 2_000 });
 * ```
 */
export interface QueryOptions extends CallOptions {
  /** Which transport carries the query; default "grpc" when configured, else "rpc" (`abci_query`). */
  transport?: "grpc" | "rpc";
  /** Query the state at this height (one the node still holds); default the latest. */
  height?: bigint;
}

/**
 * The header Cosmos nodes read (and answer) the query height in.
 * @example
 * ```ts
 * HEIGHT_HEADER; // "x-cosmos-block-height"
 * ```
 */
export const HEIGHT_HEADER = "x-cosmos-block-height";

/**
 * The `abci_query` path of a gRPC method: `/<service full name>/<method>`.
 * @param method - a unary method of a generated `Query` service descriptor.
 * @returns the path, such as `/cosmos.bank.v1beta1.Query/Balance`.
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * queryPath(cosmosBank.Query.method.allBalances); // "/cosmos.bank.v1beta1.Query/AllBalances"
 * ```
 */
export function queryPath(method: DescMethodUnary): string {
  return `/${method.parent.typeName}/${method.name}`;
}

/** The SDK code of a gRPC status, as the SDK maps query errors (chain-protocol 5.6). */
const SDK_CODE_OF_GRPC: Readonly<Record<number, number>> = {
  [GRPC_STATUS.notFound]: 22,
  [GRPC_STATUS.invalidArgument]: 18,
  [GRPC_STATUS.failedPrecondition]: 18,
  [GRPC_STATUS.unauthenticated]: 4,
};

/**
 * Picks the transport a query goes over: the requested one, else gRPC, else RPC.
 * @throws {MissingEndpointError} when the client has neither (or not the requested one).
 */
export function pickQueryTransport(client: NodeConnection, wanted?: "grpc" | "rpc"): "grpc" | "rpc" {
  const choice = wanted ?? (client.grpc ? "grpc" : client.rpc ? "rpc" : undefined);
  if (choice === "grpc" && client.grpc) return "grpc";
  if (choice === "rpc" && client.rpc) return "rpc";
  throw missingTransportError(client, choice ? [choice] : ["grpc", "rpc"]);
}

/**
 * What {@link unaryQuery} runs: a method of `@perpx/proto`, its request, and the query options.
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * const params: UnaryQueryParams<typeof cosmosBank.QueryBalanceRequestSchema, typeof cosmosBank.QueryBalanceResponseSchema> =
 *   { method: cosmosBank.Query.method.balance, request: { address: wallet.address, denom: "uusdc" } };
 * ```
 */
export interface UnaryQueryParams<I extends DescMessage, O extends DescMessage> extends QueryOptions {
  /** The method's descriptor, e.g. `cosmosBank.Query.method.allBalances`. */
  method: DescMethodUnary<I, O>;
  request: MessageInitShape<I>;
}

/**
 * Runs one unary query typed by its `@perpx/proto` method: over gRPC, else RPC `abci_query`.
 * @param client - the node client.
 * @param params - the method, its request, and the call options.
 * @returns the decoded response.
 * @throws {QueryError} when the node answers with an error; {@link TransportError} when unreachable.
 * @throws `TimeoutError` past `timeoutMs`, `AbortedError` when `signal` aborts, `MissingEndpointError` without a transport.
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * const { balances } = await unaryQuery(client, { method: cosmosBank.Query.method.allBalances, request: { address: wallet.address } });
 * balances.some((coin) => coin.denom === "uusdc"); // true
 * ```
 */
export async function unaryQuery<I extends DescMessage, O extends DescMessage>(
  client: NodeConnection,
  params: UnaryQueryParams<I, O>,
): Promise<MessageShape<O>> {
  checkParams(params, "unaryQuery");
  const { method, request, ...options } = params;
  const transport = pickQueryTransport(client, options.transport);
  const path = queryPath(method as DescMethodUnary);
  return withDeadline({ ...options, operation: path, defaultTimeoutMs: client.timeoutMs }, async (signal) => {
    if (transport === "grpc") {
      try {
        const response = await client.grpc!.transport.unary(
          method,
          signal,
          undefined,
          options.height === undefined ? undefined : { [HEIGHT_HEADER]: options.height.toString() },
          request,
        );
        return response.message;
      } catch (error) {
        if (signal.aborted) throw error;
        throw grpcQueryError(path, error);
      }
    }
    const data = toBinary(method.input, create(method.input, request));
    let response: Awaited<ReturnType<CometRpc["abciQuery"]>>;
    try {
      response = await cometCall(client.rpc!, signal, (comet) =>
        comet.abciQuery({
          path,
          data,
          prove: false,
          ...(options.height === undefined ? {} : { height: Number(options.height) }),
        }),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      throw rpcQueryError(path, error);
    }
    const { code: abciCode, codespace } = response;
    if (abciCode)
      throw new QueryError({ path, transport: "rpc", abciCode, codespace, log: response.log ?? "" });
    try {
      return fromBinary(method.output, response.value);
    } catch (error) {
      throw new QueryError({ path, transport: "rpc", log: "the answer does not decode" }, { cause: error });
    }
  });
}

/**
 * Converts a connect error of a gRPC query into a perpx error: a status the node answered is a
 * `QueryError` (`Unavailable` a `TransportError`); a reset, a dropped connection, a TLS failure or
 * an answer that is not gRPC (a proxy's HTML page) is a `TransportError`, whose `nothingSent` is
 * true only when the client's own errors say the request never left.
 * @example
 * ```ts
 * import { Code, ConnectError } from "@connectrpc/connect";
 *
 * const answered = new ConnectError("no such account", Code.NotFound, { "grpc-status": "5" });
 * const error = grpcQueryError("/cosmos.bank.v1beta1.Query/Balance", answered);
 * isQueryError(error) && error.notFound; // true
 * const reset = new ConnectError("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled);
 * isTransportError(grpcQueryError("/cosmos.tx.v1beta1.Service/BroadcastTx", reset)); // true
 * ```
 */
export function grpcQueryError(path: string, error: unknown): Error {
  if (error instanceof TransportError || error instanceof QueryError) return error;
  const connectError = grpcStatusOf(error);
  const fromNode = answeredWithStatus(error);
  if (!fromNode || connectError.code === GRPC_STATUS.unavailable) {
    // A reset, a dropped connection, a TLS failure or an answer that is not gRPC: a transport
    // failure. Whether anything was sent is read from the client's own errors (the cause chain,
    // the HTTP/2 reset), never from a message the server wrote.
    const nothingSent =
      !answeredByServer(error) && (failedBeforeConnecting(error) || wasRefusedStream(error));
    return new TransportError(
      { transport: "grpc", problem: connectError.rawMessage, nothingSent },
      { cause: error },
    );
  }
  const { code, rawMessage: log } = connectError;
  const info = { path, transport: "grpc", grpcCode: code, abciCode: SDK_CODE_OF_GRPC[code], log } as const;
  return new QueryError(info, { cause: error });
}

/**
 * Converts a failure of an RPC call into a perpx error.
 * @example
 * ```ts
 * rpcQueryError("/cosmos.bank.v1beta1.Query/Balance", new Error("socket hang up")).name; // "TransportError"
 * ```
 */
export function rpcQueryError(path: string, error: unknown): Error {
  if (error instanceof TransportError || error instanceof QueryError) return error;
  if (error instanceof JsonRpcError)
    return new QueryError({ path, transport: "rpc", log: error.message }, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  if (/^\{.*"code"/.test(message)) {
    // cosmjs's WebSocket client throws JSON.stringify(response.error).
    return new QueryError({ path, transport: "rpc", log: message }, { cause: error });
  }
  return new TransportError({ transport: "rpc", problem: message }, { cause: error });
}

/**
 * One CometBFT RPC method (raw params, or a call of the decoding client) within the call's
 * deadline, its failure as {@link rpcQueryError}.
 * @throws {MissingEndpointError} when the client has no RPC endpoint.
 */
export function rpcRead<T = unknown>(
  client: NodeConnection,
  method: string,
  params: Record<string, unknown> | ((comet: CometRpc) => Promise<T>),
  options: CallOptions,
): Promise<T> {
  const rpc = client.rpc;
  if (!rpc) throw missingTransportError(client, ["rpc"]);
  return withDeadline(
    { ...options, operation: method, defaultTimeoutMs: client.timeoutMs },
    async (signal) => {
      try {
        if (typeof params === "function") return await cometCall(rpc, signal, params);
        return (await rawRpc(rpc, method, params, signal)) as T;
      } catch (error) {
        if (signal.aborted) throw error;
        throw rpcQueryError(method, error);
      }
    },
  );
}
