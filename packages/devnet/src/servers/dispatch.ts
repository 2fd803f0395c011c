/**
 * One place that answers a unary gRPC method with a protobuf request, shared by the gRPC and REST
 * servers. Query services go to the chain application as ABCI queries (`app.query("/pkg.Service/
 * Method", bytes)`); the node-level services a real node answers outside the state machine
 * (`cosmos.tx.v1beta1.Service`, `cosmos.base.tendermint.v1beta1.Service`,
 * `cosmos.base.node.v1beta1.Service`) are translated here from the application's blocks, txs and
 * CheckTx/simulation. No chain logic lives here.
 */
import { createHash } from "node:crypto";
import {
  create,
  type DescMethod,
  type DescService,
  fromBinary,
  type Message,
  type MessageInitShape,
  type Registry,
  toBinary,
} from "@bufbuild/protobuf";
import { type Any, timestampFromDate, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { bech32FromBytes } from "@perpx/address";
import {
  cosmosAbci,
  cosmosEd25519,
  cosmosNode,
  cosmosTendermint,
  cosmosTx,
  packAny,
  tendermintAbci,
  tendermintP2p,
  tendermintTypes,
  typeRegistry,
} from "@perpx/proto";
import type { AbciEvent, BlockRecord, ChainApp, IndexedTx, TxResult } from "../app/contract.js";
import {
  APP_PROTOCOL,
  BLOCK_PROTOCOL,
  commitSignatureOf,
  consensusHashOf,
  EMPTY_SHA256,
  lastCommitHashOf,
  P2P_PROTOCOL,
  partsHashOf,
} from "./comet-json.js";
import { fromHex, nanosOf, rfc3339Nanos, toHexLower, toHexUpper } from "./encoding.js";

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
   * Calls `method` with `request`.
   * @throws {ConnectError} with a gRPC code mapped from the application's error.
   */
  call(method: DescMethod, request: Message, context?: CallContext): CallResult;
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

/** The log of an ABCI query error without the `rpc error: code = X desc = ` wrapper. */
function plainLog(log: string): string {
  const m = /^rpc error: code = \w+ desc = ([\s\S]*)$/.exec(log);
  return m?.[1] ?? log;
}

/** Services whose methods are Msg handlers are not answered (as on a real node). */
function isServed(service: DescService): boolean {
  return service.name !== "Msg" && service.methods.every((m) => m.methodKind === "unary");
}

/** Converts an ABCI event of the application into the protobuf `tendermint.abci.Event`. */
export function eventProto(event: AbciEvent): tendermintAbci.Event {
  return create(tendermintAbci.EventSchema, {
    type: event.type,
    attributes: event.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
  });
}

/** Decodes TxRaw bytes into a `cosmos.tx.v1beta1.Tx`; undefined when the bytes are not a tx. */
export function decodeTx(bytes: Uint8Array): cosmosTx.Tx | undefined {
  try {
    const raw = fromBinary(cosmosTx.TxRawSchema, bytes);
    return create(cosmosTx.TxSchema, {
      body: fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes),
      authInfo: fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes),
      signatures: raw.signatures,
    });
  } catch {
    return undefined;
  }
}

function blockTimestamp(block: BlockRecord) {
  const ts = timestampFromDate(block.time);
  ts.nanos = nanosOf(block.time, block.timeNanos);
  return ts;
}

/** `TxResponse` of a committed tx (GetTx, GetTxsEvent). */
export function txResponseOf(app: ChainApp, indexed: IndexedTx): cosmosAbci.TxResponse {
  const tx = decodeTx(indexed.tx);
  const block = app.block(indexed.height);
  const time = block === undefined ? "" : rfc3339Nanos(block.time, 0).replace(/\.0+Z$/, "Z");
  const init: MessageInitShape<typeof cosmosAbci.TxResponseSchema> = {
    height: indexed.height,
    txhash: toHexUpper(indexed.hash),
    codespace: indexed.result.codespace,
    code: indexed.result.code,
    data: toHexUpper(indexed.result.data),
    rawLog: indexed.result.log,
    logs: [],
    info: indexed.result.info,
    gasWanted: indexed.result.gasWanted,
    gasUsed: indexed.result.gasUsed,
    timestamp: time,
    events: indexed.result.events.map(eventProto),
  };
  if (tx !== undefined) init.tx = packAny(cosmosTx.TxSchema, tx);
  return create(cosmosAbci.TxResponseSchema, init);
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

function blockIdProto(hash: Uint8Array): tendermintTypes.BlockID {
  return create(tendermintTypes.BlockIDSchema, {
    hash,
    partSetHeader: { total: hash.length === 0 ? 0 : 1, hash: partsHashOf(hash) },
  });
}

function commitProto(app: ChainApp, block: BlockRecord | undefined): tendermintTypes.Commit {
  if (block === undefined)
    return create(tendermintTypes.CommitSchema, { blockId: blockIdProto(new Uint8Array()) });
  return create(tendermintTypes.CommitSchema, {
    height: block.height,
    round: 0,
    blockId: blockIdProto(block.hash),
    signatures: [
      {
        blockIdFlag: 2 as tendermintTypes.BlockIDFlag,
        validatorAddress: app.info.validator.address,
        timestamp: blockTimestamp(block),
        signature: commitSignatureOf(block),
      },
    ],
  });
}

function headerFields(app: ChainApp, block: BlockRecord) {
  return {
    version: { block: BigInt(BLOCK_PROTOCOL), app: BigInt(APP_PROTOCOL) },
    chainId: app.info.chainId,
    height: block.height,
    time: blockTimestamp(block),
    lastBlockId: blockIdProto(block.lastBlockHash),
    lastCommitHash: lastCommitHashOf(block),
    dataHash: block.dataHash,
    validatorsHash: block.validatorsHash,
    nextValidatorsHash: block.validatorsHash,
    consensusHash: consensusHashOf(app.info),
    appHash: block.appHash,
    lastResultsHash: block.lastResultsHash,
    evidenceHash: EMPTY_SHA256,
  };
}

/** The block in both forms the tendermint service returns (`block` and `sdk_block`). */
function blockProtos(app: ChainApp, block: BlockRecord) {
  const previous = block.lastBlockHash.length === 0 ? undefined : app.block(block.height - 1n);
  const lastCommit = commitProto(app, previous);
  const data = { txs: block.txs };
  const tmBlock = create(tendermintTypes.BlockSchema, {
    header: { ...headerFields(app, block), proposerAddress: block.proposerAddress },
    data,
    evidence: { evidence: [] },
    lastCommit,
  });
  const sdkBlock = create(cosmosTendermint.BlockSchema, {
    header: {
      ...headerFields(app, block),
      proposerAddress: bech32FromBytes(block.proposerAddress, "perpxvalcons"),
    },
    data,
    evidence: { evidence: [] },
    lastCommit,
  });
  return { blockId: blockIdProto(block.hash), block: tmBlock, sdkBlock };
}

function validatorsProto(app: ChainApp, height: bigint) {
  const v = app.info.validator;
  const pubKey: Any = packAny(
    cosmosEd25519.PubKeySchema,
    create(cosmosEd25519.PubKeySchema, { key: v.pubKey }),
  );
  return {
    blockHeight: height,
    validators: [
      {
        address: bech32FromBytes(v.address, "perpxvalcons"),
        pubKey,
        votingPower: v.votingPower,
        proposerPriority: 0n,
      },
    ],
    pagination: { nextKey: new Uint8Array(), total: 1n },
  };
}

type LocalHandler = (request: Message, context: CallContext) => Message;

/**
 * Builds the dispatcher over `app`.
 *
 * @param app - the chain application.
 * @returns the dispatcher; `call` throws `ConnectError`s.
 * @example
 * ```ts
 * const dispatcher = createDispatcher(app);
 * const method = dispatcher.method("/cosmos.bank.v1beta1.Query/AllBalances")!;
 * const { response } = dispatcher.call(method, create(method.input, { address }));
 * ```
 */
export function createDispatcher(app: ChainApp): Dispatcher {
  const services: DescService[] = [];
  for (const type of typeRegistry) {
    if (type.kind === "service" && isServed(type)) services.push(type);
  }
  services.sort((a, b) => (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
  const methods = new Map<string, DescMethod>();
  for (const service of services) {
    for (const method of service.methods) methods.set(`/${service.typeName}/${method.name}`, method);
  }

  const latest = () => app.latestBlock().height;

  const heightOf = (requested: bigint | undefined): bigint => {
    const top = latest();
    if (requested === undefined || requested === 0n) return top;
    if (requested > top || requested < app.info.initialHeight) {
      throw new ConnectError(
        `requested height ${requested} is out of range [${app.info.initialHeight}, ${top}]`,
        Code.InvalidArgument,
      );
    }
    return requested;
  };

  const blockAt = (height: bigint): BlockRecord => {
    const block = app.block(heightOf(height));
    if (block === undefined) throw new ConnectError(`block ${height} not found`, Code.NotFound);
    return block;
  };

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
    handler: (request: I, context: CallContext) => O,
  ): void => {
    local.set(path, handler as unknown as LocalHandler);
  };

  // ---- cosmos.tx.v1beta1.Service -----------------------------------------------------------------

  def<cosmosTx.SimulateRequest, cosmosTx.SimulateResponse>(
    "/cosmos.tx.v1beta1.Service/Simulate",
    (req, ctx) => {
      let txBytes = req.txBytes;
      if (txBytes.length === 0 && req.tx !== undefined) {
        txBytes = toBinary(
          cosmosTx.TxRawSchema,
          create(cosmosTx.TxRawSchema, {
            bodyBytes:
              req.tx.body === undefined ? new Uint8Array() : toBinary(cosmosTx.TxBodySchema, req.tx.body),
            authInfoBytes:
              req.tx.authInfo === undefined
                ? new Uint8Array()
                : toBinary(cosmosTx.AuthInfoSchema, req.tx.authInfo),
            signatures: req.tx.signatures,
          }),
        );
      }
      if (txBytes.length === 0) throw new ConnectError("empty txBytes is not allowed", Code.InvalidArgument);
      const request = create(cosmosTx.SimulateRequestSchema, { txBytes });
      const result = abciQuery(
        "/cosmos.tx.v1beta1.Service/Simulate",
        toBinary(cosmosTx.SimulateRequestSchema, request),
        ctx.height,
      );
      if (result.code !== 0) {
        throw new ConnectError(plainLog(result.log), grpcCodeOf(result.code, result.codespace));
      }
      return fromBinary(cosmosTx.SimulateResponseSchema, result.value);
    },
  );

  def<cosmosTx.GetTxRequest, cosmosTx.GetTxResponse>("/cosmos.tx.v1beta1.Service/GetTx", (req) => {
    if (req.hash === "") throw new ConnectError("request cannot be nil", Code.InvalidArgument);
    const hash = fromHex(req.hash);
    if (hash === undefined || hash.length !== 32) {
      throw new ConnectError(`invalid tx hash "${req.hash}": expected 64 hex digits`, Code.InvalidArgument);
    }
    const indexed = app.tx(hash);
    if (indexed === undefined) throw new ConnectError(`tx not found: ${toHexUpper(hash)}`, Code.NotFound);
    const init: MessageInitShape<typeof cosmosTx.GetTxResponseSchema> = {
      txResponse: txResponseOf(app, indexed),
    };
    const tx = decodeTx(indexed.tx);
    if (tx !== undefined) init.tx = tx;
    return create(cosmosTx.GetTxResponseSchema, init);
  });

  def<cosmosTx.BroadcastTxRequest, cosmosTx.BroadcastTxResponse>(
    "/cosmos.tx.v1beta1.Service/BroadcastTx",
    (req) => {
      if (req.txBytes.length === 0) throw new ConnectError("invalid empty tx", Code.InvalidArgument);
      const hash = new Uint8Array(createHash("sha256").update(req.txBytes).digest());
      switch (req.mode) {
        case cosmosTx.BroadcastMode.SYNC: {
          let result: TxResult;
          try {
            result = app.checkTx(req.txBytes);
          } catch (error) {
            throw new ConnectError(error instanceof Error ? error.message : String(error), Code.Internal);
          }
          return create(cosmosTx.BroadcastTxResponseSchema, { txResponse: checkTxResponseOf(hash, result) });
        }
        case cosmosTx.BroadcastMode.ASYNC: {
          const tx = req.txBytes;
          setImmediate(() => {
            try {
              app.checkTx(tx);
            } catch {
              // ASYNC reports nothing about CheckTx.
            }
          });
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

  def<cosmosTx.GetTxsEventRequest, cosmosTx.GetTxsEventResponse>(
    "/cosmos.tx.v1beta1.Service/GetTxsEvent",
    (req) => {
      const query = req.query !== "" ? req.query : req.events.join(" AND ");
      if (query === "") throw new ConnectError("query cannot be empty", Code.InvalidArgument);
      const limit = req.limit === 0n ? 100n : req.limit;
      const page = req.page === 0n ? 1n : req.page;
      let found: IndexedTx[];
      try {
        found = app.searchTxs(query, req.orderBy === cosmosTx.OrderBy.DESC ? "desc" : "asc");
      } catch (error) {
        throw new ConnectError(error instanceof Error ? error.message : String(error), Code.InvalidArgument);
      }
      const start = Number((page - 1n) * limit);
      const slice = found.slice(start, start + Number(limit));
      const txs: cosmosTx.Tx[] = [];
      for (const t of slice) txs.push(decodeTx(t.tx) ?? create(cosmosTx.TxSchema));
      return create(cosmosTx.GetTxsEventResponseSchema, {
        txs,
        txResponses: slice.map((t) => txResponseOf(app, t)),
        total: BigInt(found.length),
      });
    },
  );

  // ---- cosmos.base.tendermint.v1beta1.Service -----------------------------------------------------

  def("/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo", () =>
    create(cosmosTendermint.GetNodeInfoResponseSchema, {
      defaultNodeInfo: create(tendermintP2p.DefaultNodeInfoSchema, {
        protocolVersion: {
          p2p: BigInt(P2P_PROTOCOL),
          block: BigInt(BLOCK_PROTOCOL),
          app: BigInt(APP_PROTOCOL),
        },
        defaultNodeId: toHexLower(app.info.nodeId),
        listenAddr: "tcp://0.0.0.0:26656",
        network: app.info.chainId,
        version: app.info.cometVersion,
        channels: new Uint8Array(Buffer.from("40202122233038606100", "hex")),
        moniker: app.info.moniker,
        other: { txIndex: "on", rpcAddress: "tcp://0.0.0.0:26657" },
      }),
      applicationVersion: {
        name: "perpx",
        appName: "perpxd",
        version: app.info.appVersion,
        gitCommit: "",
        buildTags: "devnet",
        goVersion: `node ${process.version}`,
        buildDeps: [],
        cosmosSdkVersion: "v0.50",
      },
    }),
  );
  def("/cosmos.base.tendermint.v1beta1.Service/GetSyncing", () =>
    create(cosmosTendermint.GetSyncingResponseSchema, { syncing: false }),
  );
  def("/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock", () =>
    create(cosmosTendermint.GetLatestBlockResponseSchema, blockProtos(app, app.latestBlock())),
  );
  def<cosmosTendermint.GetBlockByHeightRequest, cosmosTendermint.GetBlockByHeightResponse>(
    "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
    (req) => {
      if (req.height <= 0n) throw new ConnectError("height must be greater than 0", Code.InvalidArgument);
      if (req.height > latest()) {
        throw new ConnectError(
          "requested block height is bigger then the chain length",
          Code.InvalidArgument,
        );
      }
      return create(cosmosTendermint.GetBlockByHeightResponseSchema, blockProtos(app, blockAt(req.height)));
    },
  );
  def("/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet", () =>
    create(cosmosTendermint.GetLatestValidatorSetResponseSchema, validatorsProto(app, latest())),
  );
  def<cosmosTendermint.GetValidatorSetByHeightRequest, cosmosTendermint.GetValidatorSetByHeightResponse>(
    "/cosmos.base.tendermint.v1beta1.Service/GetValidatorSetByHeight",
    (req) => {
      if (req.height > latest()) {
        throw new ConnectError(
          "requested block height is bigger then the chain length",
          Code.InvalidArgument,
        );
      }
      return create(
        cosmosTendermint.GetValidatorSetByHeightResponseSchema,
        validatorsProto(app, heightOf(req.height)),
      );
    },
  );
  def<cosmosTendermint.ABCIQueryRequest, cosmosTendermint.ABCIQueryResponse>(
    "/cosmos.base.tendermint.v1beta1.Service/ABCIQuery",
    (req) => {
      if (req.path === "") throw new ConnectError("path is required", Code.InvalidArgument);
      const result = abciQuery(req.path, req.data, req.height);
      return create(cosmosTendermint.ABCIQueryResponseSchema, {
        code: result.code,
        log: result.log,
        value: result.value,
        height: result.height > 0n ? result.height : latest(),
        codespace: result.codespace,
      });
    },
  );

  // ---- cosmos.base.node.v1beta1.Service ------------------------------------------------------------

  def("/cosmos.base.node.v1beta1.Service/Config", () =>
    create(cosmosNode.ConfigResponseSchema, {
      minimumGasPrice: app.info.minimumGasPrices,
      pruningKeepRecent: "0",
      pruningInterval: "0",
      haltHeight: 0n,
    }),
  );
  def("/cosmos.base.node.v1beta1.Service/Status", () => {
    const block = app.latestBlock();
    return create(cosmosNode.StatusResponseSchema, {
      earliestStoreHeight: app.info.initialHeight,
      height: block.height,
      timestamp: timestampFromMs(block.time.getTime()),
      appHash: block.appHash,
      validatorHash: block.validatorsHash,
    });
  });

  return {
    services,
    registry: typeRegistry,
    method: (path) => methods.get(path.startsWith("/") ? path : `/${path}`),
    call: (method, request, context = {}) => {
      const path = `/${method.parent.typeName}/${method.name}`;
      const handler = local.get(path);
      if (handler !== undefined) return { response: handler(request, context), height: latest() };
      const result = abciQuery(path, toBinary(method.input, request), context.height);
      if (result.code !== 0) {
        throw new ConnectError(plainLog(result.log), grpcCodeOf(result.code, result.codespace));
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
    },
  };
}
