/**
 * One place that answers a unary gRPC method with a protobuf request, shared by the gRPC and REST
 * servers. Every method goes to the chain application as an ABCI query (`app.query("/pkg.Service/
 * Method", bytes)`), except the two that are transport operations on a real node too:
 * `cosmos.tx.v1beta1.Service/BroadcastTx` (CheckTx, in the node's line: `check-line.ts`) and
 * `cosmos.base.tendermint.v1beta1.Service/ABCIQuery` (a raw query by path). No chain logic here.
 */
import { createHash } from "node:crypto";
import {
  create,
  type DescMethod,
  type DescService,
  fromBinary,
  type Message,
  type Registry,
  toBinary,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { cosmosAbci, cosmosTendermint, cosmosTx, tendermintAbci, typeRegistry } from "@perpx/proto";
import type { AbciEvent, ChainApp, TxResult } from "../app/contract.js";
import { type CheckLine, createCheckLine } from "./check-line.js";
import { toHexUpper } from "./encoding.js";

/** The first segments of an ABCI query path the SDK's `Service/ABCIQuery` forwards (baseapp's own). */
const ABCI_QUERY_ROOTS = new Set(["app", "store", "p2p", "custom"]);

/** Context of one call: the height asked for (`x-cosmos-block-height`), if any. */
export interface CallContext {
  height?: bigint;
}

/** The outcome of one call: the response and the height it is for. */
export interface CallResult {
  response: Message;
  height: bigint;
}

/** Answers unary methods of every service the devnet exposes over gRPC and REST. */
export interface Dispatcher {
  /** Every service answered (Query services of Cosmos and perpx, and the node-level services). */
  readonly services: readonly DescService[];
  /** The registry used for `Any` in JSON. */
  readonly registry: Registry;
  /** Looks a method up by its gRPC path, `/pkg.Service/Method` (or `pkg.Service/Method`). */
  method(path: string): DescMethod | undefined;
  /**
   * Calls `method` with `request`: the result at once, or its promise for a `BroadcastTx` whose
   * CheckTx waits its turn in the node's line (see {@link CheckLine}).
   * @throws {ConnectError} with a gRPC code mapped from the application's error.
   */
  call(method: DescMethod, request: Message, context?: CallContext): CallResult | Promise<CallResult>;
  /**
   * Answers `method` as the ABCI query it is, at once: any served method but the two transport
   * operations (`BroadcastTx`, `Service/ABCIQuery`), which only {@link call} takes.
   * @throws {ConnectError} with a gRPC code mapped from the application's error.
   */
  query(method: DescMethod, request: Message, context?: CallContext): CallResult;
}

/**
 * The gRPC code of a Cosmos SDK error code (codespace `sdk`), as the SDK's query router reports it.
 * Module codes and unknown codes map to `Unknown`.
 */
export function grpcCodeOf(sdkCode: number, codespace: string): Code {
  if (codespace !== "" && codespace !== "sdk") return Code.Unknown;
  switch (sdkCode) {
    case 22:
      return Code.NotFound;
    case 2:
    case 7:
    case 8:
    case 10:
    case 18:
    case 26:
      return Code.InvalidArgument;
    case 6:
    case 37:
      return Code.Unimplemented;
    case 4:
      return Code.Unauthenticated;
    case 19:
      return Code.AlreadyExists;
    case 5:
    case 13:
    case 32:
      return Code.FailedPrecondition;
    default:
      return Code.Unknown;
  }
}

/**
 * The gRPC error a node's gRPC server answers for a failed query. The application's ABCI answer
 * is what baseapp makes of the handler's gRPC status: `rpc error: code = <Name> desc = <text>:
 * <root description>` (sdk 22, 18 or 6). A gRPC server calls the handler directly, so it answers
 * that status itself, named code and bare text. Errors without the wrapper map by their SDK code.
 */
export function grpcErrorOf(result: { code: number; codespace: string; log: string }): ConnectError {
  const m = /^rpc error: code = (\w+) desc = ([\s\S]*)$/.exec(result.log);
  const named = m === null ? undefined : Code[m[1] as keyof typeof Code];
  if (m === null || named === undefined) {
    return new ConnectError(result.log, grpcCodeOf(result.code, result.codespace));
  }
  const text = m[2] ?? "";
  const root = result.codespace === "sdk" ? BRIDGE_ROOTS[result.code] : undefined;
  const suffix = root === undefined ? "" : `: ${root}`;
  return new ConnectError(
    suffix !== "" && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text,
    named,
  );
}

/** The SDK root errors baseapp wraps a handler's gRPC status in (`gRPCErrorToSDKError`), by code. */
const BRIDGE_ROOTS: Readonly<Record<number, string>> = {
  4: "unauthorized",
  6: "unknown request",
  18: "invalid request",
  22: "key not found",
};

/** Services whose methods are Msg handlers are not answered (as on a real node). */
function isServed(service: DescService): boolean {
  return service.name !== "Msg" && service.methods.every((m) => m.methodKind === "unary");
}

/** The served services, sorted by name, and their methods by gRPC path. */
interface ServedMethods {
  readonly services: readonly DescService[];
  readonly methods: ReadonlyMap<string, DescMethod>;
}

function servedMethods(): ServedMethods {
  const services: DescService[] = [];
  for (const type of typeRegistry) {
    if (type.kind === "service" && isServed(type)) services.push(type);
  }
  services.sort((a, b) => (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
  const methods = new Map<string, DescMethod>();
  for (const service of services) {
    for (const method of service.methods) methods.set(`/${service.typeName}/${method.name}`, method);
  }
  return { services, methods };
}

/** Converts an ABCI event of the application into the protobuf `tendermint.abci.Event`. */
export function eventProto(event: AbciEvent): tendermintAbci.Event {
  return create(tendermintAbci.EventSchema, {
    type: event.type,
    attributes: event.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
  });
}

/** `TxResponse` of a CheckTx outcome (BroadcastTx SYNC). */
function checkTxResponseOf(hash: Uint8Array, result: TxResult): cosmosAbci.TxResponse {
  return create(cosmosAbci.TxResponseSchema, {
    height: 0n,
    txhash: toHexUpper(hash),
    codespace: result.codespace,
    code: result.code,
    data: toHexUpper(result.data),
    rawLog: result.log,
    info: result.info,
    gasWanted: result.gasWanted,
    gasUsed: result.gasUsed,
    events: result.events.map(eventProto),
  });
}

/** What CheckTx threw, as the `Internal` error a node's gRPC answers a broadcast with. */
function internalError(error: unknown): ConnectError {
  return new ConnectError(error instanceof Error ? error.message : String(error), Code.Internal);
}

type LocalHandler = (request: Message, context: CallContext) => Message | Promise<Message>;

/**
 * Builds the dispatcher over `app`.
 *
 * @param app - the chain application.
 * @param line - the node's line of CheckTx, which `BroadcastTx` joins (its owner closes it); by
 *   default a line of the dispatcher's own without a signature worker (nothing to close).
 * @returns the dispatcher; `call` throws `ConnectError`s.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const dispatcher = createDispatcher(app);
 * const method = dispatcher.method("/cosmos.bank.v1beta1.Query/AllBalances")!;
 * const { response } = await dispatcher.call(method, create(method.input, { address: devnet.accounts[0]!.address }));
 * response.$typeName; // "cosmos.bank.v1beta1.QueryAllBalancesResponse"
 * await devnet.stop();
 * ```
 */
export function createDispatcher(
  app: ChainApp,
  line: CheckLine = createCheckLine(app, { signatureWorker: false }),
): Dispatcher {
  let served: ServedMethods | undefined;
  // on first use: listing the services builds every descriptor of @perpx/proto
  const table = (): ServedMethods => {
    served ??= servedMethods();
    return served;
  };

  const latest = () => app.latestBlock().height;

  const abciQuery = (path: string, data: Uint8Array, height: bigint | undefined) => {
    try {
      return height === undefined || height === 0n ? app.query(path, data) : app.query(path, data, height);
    } catch (error) {
      throw new ConnectError(error instanceof Error ? error.message : String(error), Code.Internal);
    }
  };

  const local = new Map<string, LocalHandler>();
  const def = <I extends Message, O extends Message>(
    path: string,
    handler: (request: I, context: CallContext) => O | Promise<O>,
  ): void => {
    local.set(path, handler as unknown as LocalHandler);
  };

  // ---- cosmos.tx.v1beta1.Service -----------------------------------------------------------------

  def<cosmosTx.BroadcastTxRequest, cosmosTx.BroadcastTxResponse>(
    "/cosmos.tx.v1beta1.Service/BroadcastTx",
    (req) => {
      if (req.txBytes.length === 0) throw new ConnectError("invalid empty tx", Code.InvalidArgument);
      const hash = new Uint8Array(createHash("sha256").update(req.txBytes).digest());
      switch (req.mode) {
        case cosmosTx.BroadcastMode.SYNC: {
          const answer = (result: TxResult) =>
            create(cosmosTx.BroadcastTxResponseSchema, { txResponse: checkTxResponseOf(hash, result) });
          let checked: TxResult | Promise<TxResult>;
          try {
            checked = line.check(req.txBytes);
          } catch (error) {
            throw internalError(error);
          }
          return checked instanceof Promise
            ? checked.then(answer, (error: unknown) => {
                throw internalError(error);
              })
            : answer(checked);
        }
        case cosmosTx.BroadcastMode.ASYNC: {
          // Checked in its turn; ASYNC reports nothing about CheckTx, only the mempool's refusal on
          // arrival of a tx in its cache, which the SDK's CheckCometError turns into code 19.
          if (app.inTxCache?.(hash) === true) {
            return create(cosmosTx.BroadcastTxResponseSchema, {
              txResponse: create(cosmosAbci.TxResponseSchema, {
                txhash: toHexUpper(hash),
                code: 19, // the SDK's ErrTxInMempoolCache
                codespace: "sdk",
              }),
            });
          }
          line.enqueue(req.txBytes);
          return create(cosmosTx.BroadcastTxResponseSchema, {
            txResponse: create(cosmosAbci.TxResponseSchema, { txhash: toHexUpper(hash) }),
          });
        }
        case cosmosTx.BroadcastMode.BLOCK:
          throw new ConnectError(
            "BROADCAST_MODE_BLOCK is not supported (removed in SDK 0.50); use SYNC",
            Code.InvalidArgument,
          );
        default:
          throw new ConnectError(
            `invalid broadcast mode ${req.mode}: use SYNC or ASYNC`,
            Code.InvalidArgument,
          );
      }
    },
  );

  def<cosmosTendermint.ABCIQueryRequest, cosmosTendermint.ABCIQueryResponse>(
    "/cosmos.base.tendermint.v1beta1.Service/ABCIQuery",
    (req) => {
      if (req.path === "") throw new ConnectError("empty query path", Code.InvalidArgument);
      // The SDK's service takes only baseapp's own query paths; a gRPC method path is refused.
      const first = (req.path.startsWith("/") ? req.path.slice(1) : req.path).split("/")[0] as string;
      if (!ABCI_QUERY_ROOTS.has(first)) {
        throw new ConnectError(`unsupported ABCI query path: ${req.path}`, Code.InvalidArgument);
      }
      const result = abciQuery(req.path, req.data, req.height);
      return create(cosmosTendermint.ABCIQueryResponseSchema, {
        code: result.code,
        log: result.log,
        value: result.value,
        height: result.height,
        codespace: result.codespace,
      });
    },
  );

  const query: Dispatcher["query"] = (method, request, context = {}) => {
    const path = `/${method.parent.typeName}/${method.name}`;
    const result = abciQuery(path, toBinary(method.input, request), context.height);
    if (result.code !== 0) {
      throw grpcErrorOf(result);
    }
    let response: Message;
    try {
      response = fromBinary(method.output, result.value);
    } catch (cause) {
      throw new ConnectError(
        `the application answered ${path} with bytes that are not a ${method.output.typeName}`,
        Code.Internal,
        undefined,
        undefined,
        cause,
      );
    }
    return { response, height: result.height > 0n ? result.height : latest() };
  };

  return {
    get services() {
      return table().services;
    },
    registry: typeRegistry,
    method: (path) => table().methods.get(path.startsWith("/") ? path : `/${path}`),
    call: (method, request, context = {}) => {
      const handler = local.get(`/${method.parent.typeName}/${method.name}`);
      if (handler === undefined) return query(method, request, context);
      const response = handler(request, context);
      return response instanceof Promise
        ? response.then((answered) => ({ response: answered, height: latest() }))
        : { response, height: latest() };
    },
    query,
  };
}
