/** Blocks by height over CometBFT RPC: `block`, `block_results` and the headers of a range (`blockchain`). */

import { InvalidArgumentError } from "@perpx/errors";
import type { cosmosTx } from "@perpx/proto";
import { sha256HexUpper } from "#crypto-platform";
import { fromBase64 } from "../bytes.js";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import type { CallOptions } from "../transport/call.js";
import { cometBigInteger, cometInteger } from "../transport/comet-json.js";
import { decodeTxRaw } from "./tx-raw.js";
import type { TxEvent } from "./txs.js";
import { rpcRead } from "./unary.js";

/**
 * A block header, as the explorer and indexers read it.
 * @example
 * ```ts
 * const header: BlockHeader = (await getBlock(client, {})).header; // header.hash.length: 64
 * ```
 */
export interface BlockHeader {
  height: bigint;
  time: Date;
  chainId: string;
  /** The block hash, upper-case hex. */
  hash: string;
  /** The previous block's hash, upper-case hex (`""` at the first block). */
  lastBlockHash: string;
  /** The app hash the header carries, upper-case hex. */
  appHash: string;
  /** The proposer's consensus address, upper-case hex. */
  proposerAddress: string;
  /** How many transactions the block holds. */
  txCount: number;
}

/**
 * One transaction of a block: its hash and its decoded body.
 * @example
 * ```ts
 * const txs: BlockTx[] = (await getBlock(client, {})).txs;
 * ```
 */
export interface BlockTx {
  /** SHA-256 of the raw bytes, upper-case hex: the hash `getTx` takes. */
  hash: string;
  /** The decoded transaction; `undefined` when the bytes are not a `TxRaw`. */
  tx: cosmosTx.Tx | undefined;
}

/**
 * A block: header and transactions.
 * @example
 * ```ts
 * const block: Block = await getBlock(client, {});
 * block.txs.length === block.header.txCount; // true
 * ```
 */
export interface Block {
  header: BlockHeader;
  /** The transactions, in block order. */
  txs: BlockTx[];
}

/**
 * The result of one transaction of a block (`block_results`).
 * @example
 * ```ts
 * const results: BlockTxResult[] = await getBlockResults(client, {});
 * ```
 */
export interface BlockTxResult {
  /** 0 on success. */
  code: number;
  /** The error's codespace; `""` on success. */
  codespace: string;
  /** The log (the error text on failure). */
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: TxEvent[];
}

/**
 * Parameters of {@link getBlock} and {@link getBlockResults}.
 * @example
 * ```ts
 * const params: GetBlockParams = { height: 10n };
 * ```
 */
export interface GetBlockParams extends CallOptions {
  /** The height; default the latest block. */
  height?: bigint | number;
}

/**
 * Parameters of {@link getBlockHeaders}.
 * @example
 * ```ts
 * const params: GetBlockHeadersParams = { maxHeight: 100n, count: 10 };
 * ```
 */
export interface GetBlockHeadersParams extends CallOptions {
  /** The highest height; default the latest block. */
  maxHeight?: bigint | number;
  /** How many headers, at most 20 (CometBFT's page); default 20. */
  count?: number;
}

type Json = Record<string, unknown>;

function heightParam(name: string, value: bigint | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const height = typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof height !== "bigint" || height < 1n)
    throw new InvalidArgumentError(name, `must be a positive integer height, got ${String(value)}`);
  return height.toString();
}

function object(value: unknown, what: string, method: string): Json {
  if (typeof value !== "object" || value === null)
    throw new QueryError({ path: method, transport: "rpc", log: `the answer has no ${what}` });
  return value as Json;
}

const listOf = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function headerOf(meta: Json, method: string, txCount: number): BlockHeader {
  const header = object(meta.header, "header", method);
  const blockId = object(meta.block_id, "block_id", method);
  const lastId = (header.last_block_id ?? {}) as Json;
  const time = Date.parse(text(header.time));
  if (!/^\d+$/.test(text(header.height)) || Number.isNaN(time))
    throw new QueryError({ path: method, transport: "rpc", log: "a header without height or time" });
  return {
    height: BigInt(text(header.height)),
    time: new Date(time),
    chainId: text(header.chain_id),
    hash: text(blockId.hash).toUpperCase(),
    lastBlockHash: text(lastId.hash).toUpperCase(),
    appHash: text(header.app_hash).toUpperCase(),
    proposerAddress: text(header.proposer_address).toUpperCase(),
    txCount,
  };
}

async function rpcCall(
  client: NodeConnection,
  method: string,
  params: Record<string, unknown>,
  options: CallOptions,
): Promise<Json> {
  return object(await rpcRead(client, method, params, options), "result", method);
}

/**
 * A block by height over RPC (`block`): its header and its transactions, hashed and decoded.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBlockParams`, with the call options.
 * @returns the block.
 * @throws {QueryError} when the node has no block at that height (pruned, or not yet produced).
 * @example
 * ```ts
 * const latest = await getBlock(client, {});
 * const block = await getBlock(client, { height: latest.header.height });
 * block.header.hash === latest.header.hash; // true
 * ```
 */
export async function getBlock(client: NodeConnection, params: GetBlockParams = {}): Promise<Block> {
  checkParams(params, "getBlock", true);
  const height = heightParam("height", params.height);
  const result = await rpcCall(client, "block", height === undefined ? {} : { height }, params);
  const block = object(result.block, "block", "block");
  const data = (block.data ?? {}) as Json;
  const raws = listOf(data.txs).map((tx) => fromBase64(text(tx)));
  return {
    header: headerOf({ header: block.header, block_id: result.block_id }, "block", raws.length),
    txs: raws.map((bytes) => ({ hash: sha256HexUpper(bytes), tx: decodeTxRaw(bytes) })),
  };
}

/**
 * The results of a block's transactions over RPC (`block_results`), in block order.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBlockParams`, with the call options.
 * @returns the results of a block's transactions over RPC (`block_results`), in block order.
 * @throws {QueryError} when the node has no block at that height.
 * @example
 * ```ts
 * const { header } = await getBlock(client, {});
 * const results = await getBlockResults(client, { height: header.height });
 * results.length === header.txCount; // true
 * ```
 */
export async function getBlockResults(
  client: NodeConnection,
  params: GetBlockParams = {},
): Promise<BlockTxResult[]> {
  checkParams(params, "getBlockResults", true);
  const height = heightParam("height", params.height);
  const result = await rpcCall(client, "block_results", height === undefined ? {} : { height }, params);
  return listOf(result.txs_results).map((r) => ({
    code: cometInteger(r.code ?? 0, "block_results code"),
    codespace: text(r.codespace),
    log: text(r.log),
    gasWanted: cometBigInteger(r.gas_wanted ?? "0", "block_results gas_wanted"),
    gasUsed: cometBigInteger(r.gas_used ?? "0", "block_results gas_used"),
    events: listOf(r.events).map((e) => ({
      type: text(e.type),
      attributes: listOf(e.attributes).map((a) => ({ key: text(a.key), value: text(a.value) })),
    })),
  }));
}

/**
 * The headers of up to 20 blocks ending at `maxHeight` over RPC (`blockchain`), newest first.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBlockHeadersParams`, with the call options.
 * @returns the headers of up to 20 blocks ending at `maxHeight` over RPC (`blockchain`), newest first.
 * @example
 * ```ts
 * const headers = await getBlockHeaders(client, { count: 5 });
 * headers.every((h, i) => i === 0 || h.height === headers[i - 1]!.height - 1n); // true
 * ```
 */
export async function getBlockHeaders(
  client: NodeConnection,
  params: GetBlockHeadersParams = {},
): Promise<BlockHeader[]> {
  checkParams(params, "getBlockHeaders", true);
  const count = params.count ?? 20;
  if (!Number.isInteger(count) || count < 1 || count > 20)
    throw new InvalidArgumentError("count", `must be an integer from 1 to 20, got ${String(count)}`);
  const maxText = heightParam("maxHeight", params.maxHeight);
  const max = maxText === undefined ? (await getBlock(client, params)).header.height : BigInt(maxText);
  const min = max - BigInt(count) + 1n > 0n ? max - BigInt(count) + 1n : 1n;
  const range = { minHeight: min.toString(), maxHeight: max.toString() };
  const result = await rpcCall(client, "blockchain", range, params);
  return listOf(result.block_metas).map((meta) =>
    headerOf(meta, "blockchain", cometInteger(meta.num_txs ?? "0", "blockchain num_txs")),
  );
}
