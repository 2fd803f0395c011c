/**
 * The query services the application answers itself (not a module's state): the tx service
 * (Simulate, GetTx, GetTxsEvent), CometBFT service (node info, blocks, validators, syncing) and
 * the node service (config, status).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  cosmosAbci,
  cosmosEd25519,
  cosmosNode,
  cosmosTendermint,
  cosmosTx,
  tendermintP2p,
} from "@perpx/proto";
import type { IndexedTx } from "../contract.js";
import { fromHex, toHex } from "../lib/codec.js";
import { decCoinToString } from "../lib/coins.js";
import { abciError, sdkErrors } from "../lib/errors.js";
import { QuerySyntaxError } from "../lib/event-query.js";
import { paginate } from "../lib/pagination.js";
import { invalidArgument, notFound, packAny, queryHandler, type Router } from "./module.js";
import {
  blockResponse,
  protoEvents,
  type ServiceHost,
  timestamp,
  txOf,
  txResponse,
  valconsAddress,
} from "./service-views.js";

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
