/**
 * The query services the application answers itself (not a module's state): the tx service
 * (Simulate, GetTx, GetTxsEvent), CometBFT service (node info, blocks, validators, syncing) and
 * the node service (config, status).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { addressBytesToBech32 } from "@perpx/address";
import {
  cosmosAbci,
  cosmosEd25519,
  cosmosNode,
  cosmosTendermint,
  cosmosTx,
  tendermintAbci,
  tendermintP2p,
  tendermintTypes,
  tendermintVersion,
} from "@perpx/proto";
import type { BlockRecord, ChainInfo, IndexedTx, SimulateResult, TxResult } from "../contract.js";
import type { ChainConfig } from "../genesis/genesis.js";
import { concatBytes, fromHex, toHex } from "../lib/codec.js";
import { decCoinToString } from "../lib/coins.js";
import { signEd25519 } from "../lib/crypto.js";
import { abciError, sdkErrors } from "../lib/errors.js";
import { QuerySyntaxError } from "../lib/event-query.js";
import { paginate } from "../lib/pagination.js";
import { invalidArgument, notFound, packAny, queryHandler, type Router } from "./module.js";

/** What the services read from the application. */
export interface ServiceHost {
  readonly info: ChainInfo;
  readonly config: ChainConfig;
  latestBlock(): BlockRecord;
  block(height: bigint): BlockRecord | undefined;
  baseHeight(): bigint;
  tx(hash: Uint8Array): IndexedTx | undefined;
  searchTxs(query: string, order: "asc" | "desc"): IndexedTx[];
  simulate(tx: Uint8Array): SimulateResult;
  appHash(): Uint8Array;
}

/** `perpxvalcons1...` of a consensus address. */
export function valconsAddress(address: Uint8Array): string {
  return addressBytesToBech32(address, "perpxvalcons");
}

function timestamp(time: Date, nanos: number): Timestamp {
  return create(TimestampSchema, { seconds: BigInt(Math.floor(time.getTime() / 1000)), nanos });
}

/** The Go `time.RFC3339` text of a block time (what `TxResponse.timestamp` carries). */
function rfc3339(time: Date): string {
  return `${time.toISOString().slice(0, 19)}Z`;
}

/** Proto events of ABCI events. */
export function protoEvents(events: TxResult["events"]): tendermintAbci.Event[] {
  return events.map((e) =>
    create(tendermintAbci.EventSchema, {
      type: e.type,
      attributes: e.attributes.map((a) =>
        create(tendermintAbci.EventAttributeSchema, { key: a.key, value: a.value, index: a.index }),
      ),
    }),
  );
}

/** The `Tx` of TxRaw bytes (decodes; the tx was accepted, so it decodes). */
function txOf(bytes: Uint8Array): cosmosTx.Tx {
  const raw = fromBinary(cosmosTx.TxRawSchema, bytes);
  return create(cosmosTx.TxSchema, {
    body: fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes),
    authInfo: fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes),
    signatures: raw.signatures,
  });
}

function txResponse(host: ServiceHost, indexed: IndexedTx, tx: cosmosTx.Tx): cosmosAbci.TxResponse {
  const block = host.block(indexed.height);
  const r = indexed.result;
  return create(cosmosAbci.TxResponseSchema, {
    height: indexed.height,
    txhash: toHex(indexed.hash).toUpperCase(),
    codespace: r.codespace,
    code: r.code,
    data: toHex(r.data).toUpperCase(),
    rawLog: r.log,
    logs: [],
    info: r.info,
    gasWanted: r.gasWanted,
    gasUsed: r.gasUsed,
    tx: packAny(cosmosTx.TxSchema, tx),
    timestamp: block === undefined ? "" : rfc3339(block.time),
    events: protoEvents(r.events),
  });
}

function blockId(block: BlockRecord | undefined): tendermintTypes.BlockID {
  if (block === undefined) {
    return create(tendermintTypes.BlockIDSchema, {
      partSetHeader: create(tendermintTypes.PartSetHeaderSchema, {}),
    });
  }
  return create(tendermintTypes.BlockIDSchema, {
    hash: block.hash,
    partSetHeader: create(tendermintTypes.PartSetHeaderSchema, { total: 1, hash: block.hash }),
  });
}

function blockResponse(host: ServiceHost, block: BlockRecord) {
  const previous = host.block(block.height - 1n);
  const validator = host.config.validator;
  const version = create(tendermintVersion.ConsensusSchema, { block: 11n, app: 0n });
  const fields = {
    version,
    chainId: host.info.chainId,
    height: block.height,
    time: timestamp(block.time, block.timeNanos),
    lastBlockId: blockId(previous),
    dataHash: block.dataHash,
    validatorsHash: block.validatorsHash,
    nextValidatorsHash: block.validatorsHash,
    appHash: block.appHash,
    lastResultsHash: block.lastResultsHash,
  };
  const lastCommit = create(tendermintTypes.CommitSchema, {
    height: previous?.height ?? 0n,
    round: 0,
    blockId: blockId(previous),
    signatures:
      previous === undefined
        ? []
        : [
            create(tendermintTypes.CommitSigSchema, {
              blockIdFlag: tendermintTypes.BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
              validatorAddress: validator.address,
              timestamp: timestamp(block.time, block.timeNanos),
              signature: signEd25519(validator, concatBytes(previous.hash)),
            }),
          ],
  });
  const data = create(tendermintTypes.DataSchema, { txs: block.txs });
  const evidence = create(tendermintTypes.EvidenceListSchema, {});
  return {
    blockId: blockId(block),
    block: create(tendermintTypes.BlockSchema, {
      header: create(tendermintTypes.HeaderSchema, { ...fields, proposerAddress: block.proposerAddress }),
      data,
      evidence,
      lastCommit,
    }),
    sdkBlock: create(cosmosTendermint.BlockSchema, {
      header: create(cosmosTendermint.HeaderSchema, {
        ...fields,
        proposerAddress: valconsAddress(block.proposerAddress),
      }),
      data,
      evidence,
      lastCommit,
    }),
  };
}

/** Adds the tx, CometBFT and node services to the router. */
export function registerServices(router: Router, host: ServiceHost): void {
  router.addQuery(
    "/cosmos.tx.v1beta1.Service/Simulate",
    queryHandler(
      () => cosmosTx.SimulateRequestSchema,
      () => cosmosTx.SimulateResponseSchema,
      (_ctx, req) => {
        let bytes = req.txBytes;
        if (bytes.length === 0 && req.tx !== undefined) {
          bytes = toBinary(
            cosmosTx.TxRawSchema,
            create(cosmosTx.TxRawSchema, {
              bodyBytes:
                req.tx.body === undefined ? new Uint8Array(0) : toBinary(cosmosTx.TxBodySchema, req.tx.body),
              authInfoBytes:
                req.tx.authInfo === undefined
                  ? new Uint8Array(0)
                  : toBinary(cosmosTx.AuthInfoSchema, req.tx.authInfo),
              signatures: req.tx.signatures,
            }),
          );
        }
        if (bytes.length === 0) throw invalidArgument("empty txBytes is not allowed");
        const sim = host.simulate(bytes);
        if (!sim.ok) {
          const r = sim.result;
          throw abciError(
            sdkErrors.unknownRequest,
            `rpc error: code = Unknown desc = ${r.log} With gas wanted: '${r.gasWanted}' and gas used: '${r.gasUsed}' `,
          );
        }
        const r = sim.result;
        const txMsgData = fromBinary(cosmosAbci.TxMsgDataSchema, r.data);
        return create(cosmosTx.SimulateResponseSchema, {
          gasInfo: create(cosmosAbci.GasInfoSchema, { gasWanted: sim.gasWanted, gasUsed: sim.gasUsed }),
          result: create(cosmosAbci.ResultSchema, {
            data: r.data,
            log: r.log,
            events: protoEvents(r.events),
            msgResponses: txMsgData.msgResponses,
          }),
        });
      },
    ),
  );
  router.addQuery(
    "/cosmos.tx.v1beta1.Service/GetTx",
    queryHandler(
      () => cosmosTx.GetTxRequestSchema,
      () => cosmosTx.GetTxResponseSchema,
      (_ctx, req) => {
        if (req.hash === "") throw invalidArgument("tx hash cannot be empty");
        let hash: Uint8Array;
        try {
          hash = fromHex(req.hash);
        } catch {
          throw invalidArgument(`invalid tx hash: ${req.hash}`);
        }
        const indexed = host.tx(hash);
        if (indexed === undefined) throw notFound(`tx not found: ${req.hash}`);
        const tx = txOf(indexed.tx);
        return create(cosmosTx.GetTxResponseSchema, { tx, txResponse: txResponse(host, indexed, tx) });
      },
    ),
  );
  router.addQuery(
    "/cosmos.tx.v1beta1.Service/GetTxsEvent",
    queryHandler(
      () => cosmosTx.GetTxsEventRequestSchema,
      () => cosmosTx.GetTxsEventResponseSchema,
      (_ctx, req) => {
        const query = req.query !== "" ? req.query : req.events.join(" AND ");
        if (query === "") throw invalidArgument("query cannot be empty");
        let found: IndexedTx[];
        try {
          found = host.searchTxs(query, req.orderBy === cosmosTx.OrderBy.DESC ? "desc" : "asc");
        } catch (error) {
          if (error instanceof QuerySyntaxError) throw invalidArgument(error.message);
          throw error;
        }
        const limit =
          req.limit > 0n
            ? req.limit
            : req.pagination?.limit !== undefined && req.pagination.limit > 0n
              ? req.pagination.limit
              : 100n;
        const page = req.page > 0n ? req.page : 1n;
        const start = Number((page - 1n) * limit);
        const selected = found.slice(start, start + Number(limit));
        const txs = selected.map((i) => txOf(i.tx));
        return create(cosmosTx.GetTxsEventResponseSchema, {
          txs,
          txResponses: selected.map((indexed, i) => txResponse(host, indexed, txs[i] as cosmosTx.Tx)),
          total: BigInt(found.length),
        });
      },
    ),
  );

  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo",
    queryHandler(
      () => cosmosTendermint.GetNodeInfoRequestSchema,
      () => cosmosTendermint.GetNodeInfoResponseSchema,
      () =>
        create(cosmosTendermint.GetNodeInfoResponseSchema, {
          defaultNodeInfo: create(tendermintP2p.DefaultNodeInfoSchema, {
            protocolVersion: create(tendermintP2p.ProtocolVersionSchema, { p2p: 8n, block: 11n, app: 0n }),
            defaultNodeId: toHex(host.info.nodeId),
            listenAddr: "tcp://0.0.0.0:26656",
            network: host.info.chainId,
            version: host.info.cometVersion,
            channels: new Uint8Array([0x40, 0x20, 0x21, 0x22, 0x23, 0x30, 0x38, 0x60, 0x61, 0x00]),
            moniker: host.info.moniker,
            other: create(tendermintP2p.DefaultNodeInfoOtherSchema, {
              txIndex: "on",
              rpcAddress: "tcp://0.0.0.0:26657",
            }),
          }),
          applicationVersion: create(cosmosTendermint.VersionInfoSchema, {
            name: "perpx",
            appName: "perpxd",
            version: host.info.appVersion,
            gitCommit: "",
            buildTags: "devnet",
            goVersion: "",
            cosmosSdkVersion: "v0.50.14",
          }),
        }),
    ),
  );
  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetSyncing",
    queryHandler(
      () => cosmosTendermint.GetSyncingRequestSchema,
      () => cosmosTendermint.GetSyncingResponseSchema,
      () => create(cosmosTendermint.GetSyncingResponseSchema, { syncing: false }),
    ),
  );
  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock",
    queryHandler(
      () => cosmosTendermint.GetLatestBlockRequestSchema,
      () => cosmosTendermint.GetLatestBlockResponseSchema,
      () => create(cosmosTendermint.GetLatestBlockResponseSchema, blockResponse(host, host.latestBlock())),
    ),
  );
  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
    queryHandler(
      () => cosmosTendermint.GetBlockByHeightRequestSchema,
      () => cosmosTendermint.GetBlockByHeightResponseSchema,
      (_ctx, req) => {
        const latest = host.latestBlock().height;
        if (req.height > latest) {
          throw invalidArgument("requested block height is bigger then the chain length");
        }
        const block = host.block(req.height);
        if (block === undefined)
          throw invalidArgument(
            `height ${req.height} is not available, lowest height is ${host.baseHeight()}`,
          );
        return create(cosmosTendermint.GetBlockByHeightResponseSchema, blockResponse(host, block));
      },
    ),
  );
  const validatorSet = (height: bigint, pagination: Parameters<typeof paginate>[1]) => {
    const v = host.config.validator;
    const { page, pagination: pageResponse } = paginate(
      [
        {
          key: v.address,
          value: create(cosmosTendermint.ValidatorSchema, {
            address: valconsAddress(v.address),
            pubKey: packAny(
              cosmosEd25519.PubKeySchema,
              create(cosmosEd25519.PubKeySchema, { key: v.publicKey }),
            ),
            votingPower: host.config.validatorPower,
            proposerPriority: 0n,
          }),
        },
      ],
      pagination,
    );
    return { blockHeight: height, validators: page, pagination: pageResponse };
  };
  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet",
    queryHandler(
      () => cosmosTendermint.GetLatestValidatorSetRequestSchema,
      () => cosmosTendermint.GetLatestValidatorSetResponseSchema,
      (_ctx, req) =>
        create(
          cosmosTendermint.GetLatestValidatorSetResponseSchema,
          validatorSet(host.latestBlock().height, req.pagination),
        ),
    ),
  );
  router.addQuery(
    "/cosmos.base.tendermint.v1beta1.Service/GetValidatorSetByHeight",
    queryHandler(
      () => cosmosTendermint.GetValidatorSetByHeightRequestSchema,
      () => cosmosTendermint.GetValidatorSetByHeightResponseSchema,
      (_ctx, req) => {
        if (req.height > host.latestBlock().height) {
          throw invalidArgument("requested block height is bigger then the chain length");
        }
        return create(
          cosmosTendermint.GetValidatorSetByHeightResponseSchema,
          validatorSet(req.height, req.pagination),
        );
      },
    ),
  );

  router.addQuery(
    "/cosmos.base.node.v1beta1.Service/Config",
    queryHandler(
      () => cosmosNode.ConfigRequestSchema,
      () => cosmosNode.ConfigResponseSchema,
      () =>
        create(cosmosNode.ConfigResponseSchema, {
          minimumGasPrice: [...host.config.minGasPrices]
            .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0))
            .map(decCoinToString)
            .join(","),
          pruningKeepRecent: "0",
          pruningInterval: "0",
          haltHeight: 0n,
        }),
    ),
  );
  router.addQuery(
    "/cosmos.base.node.v1beta1.Service/Status",
    queryHandler(
      () => cosmosNode.StatusRequestSchema,
      () => cosmosNode.StatusResponseSchema,
      () => {
        const latest = host.latestBlock();
        return create(cosmosNode.StatusResponseSchema, {
          earliestStoreHeight: host.info.initialHeight,
          height: latest.height,
          timestamp: timestamp(latest.time, latest.timeNanos),
          appHash: host.appHash(),
          validatorHash: latest.validatorsHash,
        });
      },
    ),
  );
}
