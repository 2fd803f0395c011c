/**
 * The protobuf views of the application's blocks and txs that its own query services answer with
 * (`TxResponse`, `Tx`, CometBFT blocks and block ids, ABCI events), and what the services read
 * from the application.
 */
import { create, fromBinary } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { addressBytesToBech32 } from "@perpx/address";
import {
  cosmosAbci,
  cosmosTendermint,
  cosmosTx,
  tendermintAbci,
  tendermintTypes,
  tendermintVersion,
} from "@perpx/proto";
import type { BlockRecord, ChainInfo, IndexedTx, SimulateResult, TxResult } from "../contract.js";
import type { ChainConfig } from "../genesis/genesis.js";
import { concatBytes, toHex } from "../lib/codec.js";
import { signEd25519 } from "../lib/crypto.js";
import { packAny } from "./module.js";

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

/** A block time (milliseconds and the nanoseconds within the second) as a `Timestamp`. */
export function timestamp(time: Date, nanos: number): Timestamp {
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
export function txOf(bytes: Uint8Array): cosmosTx.Tx {
  const raw = fromBinary(cosmosTx.TxRawSchema, bytes);
  return create(cosmosTx.TxSchema, {
    body: fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes),
    authInfo: fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes),
    signatures: raw.signatures,
  });
}

/** The `TxResponse` of an indexed tx (GetTx, GetTxsEvent). */
export function txResponse(host: ServiceHost, indexed: IndexedTx, tx: cosmosTx.Tx): cosmosAbci.TxResponse {
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

/** A block as `GetLatestBlock` and `GetBlockByHeight` answer it: its id, the CometBFT block and the SDK's. */
export function blockResponse(
  host: ServiceHost,
  block: BlockRecord,
): { blockId: tendermintTypes.BlockID; block: tendermintTypes.Block; sdkBlock: cosmosTendermint.Block } {
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
