/**
 * CometBFT 0.38 JSON shapes of the chain application's records (`chain-protocol.md` 5.5): int64 as
 * decimal strings, int32 as numbers, `HexBytes` as uppercase hex, other bytes as base64, times as
 * RFC 3339 with nanoseconds.
 */
import { createHash } from "node:crypto";
import type { AbciEvent, BlockRecord, ChainApp, ChainInfo, IndexedTx, TxResult } from "../app/contract.js";
import { nanosOf, rfc3339Nanos, toBase64, toHexLower, toHexUpper } from "./encoding.js";

/** The CometBFT block protocol version of 0.38. */
export const BLOCK_PROTOCOL = "11";
/** The p2p protocol version of 0.38. */
export const P2P_PROTOCOL = "8";
/** The ABCI application protocol version the devnet reports. */
export const APP_PROTOCOL = "0";

function sha256(...parts: Array<Uint8Array | string>): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

/** SHA-256 of nothing: the evidence hash of a block without evidence. */
export const EMPTY_SHA256: Uint8Array = sha256();
const EMPTY_HASH = toHexUpper(EMPTY_SHA256);

/** The hash of a block's single part: the devnet uses the block hash (as its gRPC services do). */
export function partsHashOf(blockHash: Uint8Array): Uint8Array {
  return blockHash;
}

/** The `last_commit_hash` of a block; empty at the first height. */
export function lastCommitHashOf(block: BlockRecord): Uint8Array {
  return block.lastBlockHash.length === 0 ? new Uint8Array() : sha256("commit", block.lastBlockHash);
}

/** The `consensus_hash` of every header of the chain. */
export function consensusHashOf(info: ChainInfo): Uint8Array {
  return sha256("consensus-params", info.chainId);
}

/** The validator's commit signature of a block: a deterministic 64-byte stand-in (no consensus runs). */
export function commitSignatureOf(block: BlockRecord): Uint8Array {
  const signature = new Uint8Array(64);
  signature.set(sha256("sig-r", block.hash), 0);
  signature.set(sha256("sig-s", block.hash), 32);
  return signature;
}

/** A JSON object as the servers build them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An ABCI event with attributes as plain strings (CometBFT >= 0.35). */
export function eventJson(event: AbciEvent): Json {
  return {
    type: event.type,
    attributes: event.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
  };
}

/** `ExecTxResult` / `ResponseCheckTx` JSON. */
export function txResultJson(result: TxResult): Json {
  return {
    code: result.code,
    data: result.data.length > 0 ? toBase64(result.data) : null,
    log: result.log,
    info: result.info,
    gas_wanted: result.gasWanted.toString(),
    gas_used: result.gasUsed.toString(),
    events: result.events.map(eventJson),
    codespace: result.codespace,
  };
}

/** The part-set header of a block: one part whose hash is derived from the block hash. */
function partsJson(hash: Uint8Array): Json {
  if (hash.length === 0) return { total: 0, hash: "" };
  return { total: 1, hash: toHexUpper(partsHashOf(hash)) };
}

/** `BlockID` JSON; empty (`hash: ""`, `parts.total: 0`) when `hash` is empty. */
export function blockIdJson(hash: Uint8Array): Json {
  return { hash: toHexUpper(hash), parts: partsJson(hash) };
}

function timeOf(block: BlockRecord): string {
  return rfc3339Nanos(block.time, nanosOf(block.time, block.timeNanos));
}

/** Block header JSON. */
export function headerJson(block: BlockRecord, info: ChainInfo): Json {
  return {
    version: { block: BLOCK_PROTOCOL, app: APP_PROTOCOL },
    chain_id: info.chainId,
    height: block.height.toString(),
    time: timeOf(block),
    last_block_id: blockIdJson(block.lastBlockHash),
    last_commit_hash: toHexUpper(lastCommitHashOf(block)),
    data_hash: toHexUpper(block.dataHash),
    validators_hash: toHexUpper(block.validatorsHash),
    next_validators_hash: toHexUpper(block.validatorsHash),
    consensus_hash: toHexUpper(consensusHashOf(info)),
    app_hash: toHexUpper(block.appHash),
    last_results_hash: toHexUpper(block.lastResultsHash),
    evidence_hash: EMPTY_HASH,
    proposer_address: toHexUpper(block.proposerAddress),
  };
}

/**
 * The commit for `block` (what the next block carries as `last_commit`): one signature of the single
 * validator. The signature is a deterministic stand-in; the devnet has no consensus to verify.
 */
export function commitJson(block: BlockRecord, info: ChainInfo): Json {
  return {
    height: block.height.toString(),
    round: 0,
    block_id: blockIdJson(block.hash),
    signatures: [
      {
        block_id_flag: 2,
        validator_address: toHexUpper(info.validator.address),
        timestamp: timeOf(block),
        signature: toBase64(commitSignatureOf(block)),
      },
    ],
  };
}

/** `result` of `block` and the `block` part of `NewBlock` events. */
export function blockJson(app: ChainApp, block: BlockRecord): Json {
  const previous = block.lastBlockHash.length === 0 ? undefined : app.block(block.height - 1n);
  const lastCommit: Json =
    previous === undefined
      ? {
          height: block.lastBlockHash.length === 0 ? "0" : (block.height - 1n).toString(),
          round: 0,
          block_id: blockIdJson(block.lastBlockHash),
          signatures: [],
        }
      : commitJson(previous, app.info);
  return {
    header: headerJson(block, app.info),
    data: { txs: block.txs.map(toBase64) },
    evidence: { evidence: [] },
    last_commit: lastCommit,
  };
}

/** `result` of `block`. */
export function blockResponseJson(app: ChainApp, block: BlockRecord): Json {
  return { block_id: blockIdJson(block.hash), block: blockJson(app, block) };
}

/** The app hash after `block` was executed (`resultAppHash`; else the next block's header app hash). */
export function appHashAfter(app: ChainApp, block: BlockRecord): Uint8Array {
  return block.resultAppHash ?? app.block(block.height + 1n)?.appHash ?? app.latestBlock().appHash;
}

/** Consensus parameters as CometBFT prints them (genesis and block results). */
export function consensusParamsJson(): Json {
  return {
    block: { max_bytes: "22020096", max_gas: "-1" },
    evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
    validator: { pub_key_types: ["ed25519"] },
    version: { app: "0" },
    abci: { vote_extensions_enable_height: "0" },
  };
}

/** `result` of `block_results`. */
export function blockResultsJson(app: ChainApp, block: BlockRecord): Json {
  return {
    height: block.height.toString(),
    txs_results: block.txResults.length > 0 ? block.txResults.map(txResultJson) : null,
    finalize_block_events: block.finalizeBlockEvents.map(eventJson),
    validator_updates: [],
    consensus_param_updates: null,
    app_hash: toBase64(appHashAfter(app, block)),
  };
}

/** `ResponseFinalizeBlock` as carried by `NewBlock` events. */
export function finalizeBlockJson(app: ChainApp, block: BlockRecord): Json {
  return {
    events: block.finalizeBlockEvents.map(eventJson),
    tx_results: block.txResults.map(txResultJson),
    validator_updates: [],
    consensus_param_updates: null,
    app_hash: toBase64(appHashAfter(app, block)),
  };
}

/** An entry of `tx_search` and the `result` of `tx`. */
export function indexedTxJson(tx: IndexedTx): Json {
  return {
    hash: toHexUpper(tx.hash),
    height: tx.height.toString(),
    index: tx.index,
    tx_result: txResultJson(tx.result),
    tx: toBase64(tx.tx),
  };
}

/** A block meta of `blockchain`. */
export function blockMetaJson(app: ChainApp, block: BlockRecord): Json {
  const size = block.txs.reduce((sum, tx) => sum + tx.length, 0) + 512;
  return {
    block_id: blockIdJson(block.hash),
    block_size: size.toString(),
    header: headerJson(block, app.info),
    num_txs: block.txs.length.toString(),
  };
}

/** `{type: "tendermint/PubKeyEd25519", value}` of the validator. */
export function validatorPubKeyJson(info: ChainInfo): Json {
  return { type: "tendermint/PubKeyEd25519", value: toBase64(info.validator.pubKey) };
}

/** Options of {@link nodeInfoJson}. */
export interface NodeInfoOptions {
  /** Where the RPC server listens, as `tcp://host:port`. */
  rpcAddress: string;
}

/** `node_info` of `status` (and of `net_info` peers). */
export function nodeInfoJson(
  info: ChainInfo,
  options: { id: string; moniker: string; listenAddr: string; rpcAddress: string },
): Json {
  return {
    protocol_version: { p2p: P2P_PROTOCOL, block: BLOCK_PROTOCOL, app: APP_PROTOCOL },
    id: options.id,
    listen_addr: options.listenAddr,
    network: info.chainId,
    version: info.cometVersion,
    channels: "40202122233038606100",
    moniker: options.moniker,
    other: { tx_index: "on", rpc_address: options.rpcAddress },
  };
}

/** `result` of `status`. */
export function statusJson(app: ChainApp, options: NodeInfoOptions): Json {
  const info = app.info;
  const latest = app.latestBlock();
  const earliest = app.block(app.baseHeight()) ?? latest;
  return {
    node_info: nodeInfoJson(info, {
      id: toHexLower(info.nodeId),
      moniker: info.moniker,
      listenAddr: "tcp://0.0.0.0:26656",
      rpcAddress: options.rpcAddress,
    }),
    sync_info: {
      latest_block_hash: toHexUpper(latest.hash),
      latest_app_hash: toHexUpper(appHashAfter(app, latest)),
      latest_block_height: latest.height.toString(),
      latest_block_time: timeOf(latest),
      earliest_block_hash: toHexUpper(earliest.hash),
      earliest_app_hash: toHexUpper(earliest.appHash),
      earliest_block_height: earliest.height.toString(),
      earliest_block_time: timeOf(earliest),
      catching_up: false,
    },
    validator_info: {
      address: toHexUpper(info.validator.address),
      pub_key: validatorPubKeyJson(info),
      voting_power: info.validator.votingPower.toString(),
    },
  };
}

/** A synthetic peer of `net_info`: one node listening on the standard p2p port. */
export function peerJson(info: ChainInfo): Json {
  const id = toHexLower(sha256("peer", info.nodeId).subarray(0, 20));
  return {
    node_info: nodeInfoJson(info, {
      id,
      moniker: "perpx-devnet-peer",
      listenAddr: "tcp://0.0.0.0:26656",
      rpcAddress: "tcp://0.0.0.0:26657",
    }),
    is_outbound: true,
    connection_status: {
      Duration: "0",
      SendMonitor: { Active: true, Start: "0001-01-01T00:00:00Z", Bytes: "0", Samples: "0" },
      RecvMonitor: { Active: true, Start: "0001-01-01T00:00:00Z", Bytes: "0", Samples: "0" },
      Channels: [],
    },
    remote_ip: "127.0.0.1",
  };
}

/** The flattened event map of a subscription message (`events` of a CometBFT 0.38 event). */
export function flattenEvents(
  events: readonly AbciEvent[],
  extra: Record<string, string[]>,
): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const event of events) {
    for (const attribute of event.attributes) {
      const key = `${event.type}.${attribute.key}`;
      const list = map[key];
      if (list === undefined) map[key] = [attribute.value];
      else list.push(attribute.value);
    }
  }
  for (const [key, values] of Object.entries(extra)) {
    const list = map[key];
    if (list === undefined) map[key] = [...values];
    else list.push(...values);
  }
  return map;
}
