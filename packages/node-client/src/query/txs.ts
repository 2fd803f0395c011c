import { InvalidArgumentError } from "@perpx/errors";
import { cosmosTx } from "@perpx/proto";
import { fromHexString, toHexString } from "../bytes.js";
import type { NodeConnection } from "../connection.js";
import { sameTx } from "../errors/query.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { withDeadline } from "../transport/call.js";
import { type CometTx, cometCall } from "../transport/rpc-json.js";
import { decodeTxRaw } from "./tx-raw.js";
import { pickQueryTransport, type QueryOptions, rpcQueryError, rpcRead, unaryQuery } from "./unary.js";

/**
 * An ABCI event with plain string attributes.
 * @example
 * ```ts
 * const events: TxEvent[] = (await getBlockResults(client, {})).flatMap((r) => r.events);
 * ```
 */
export interface TxEvent {
  /** The event type, e.g. `transfer`. */
  type: string;
  attributes: { key: string; value: string }[];
}

/**
 * A transaction once it is in a block.
 * @example
 * ```ts
 * const sent = await client.bankSend({ signer: wallet, from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] });
 * const { code, height }: TxInfo = (await getTx(client, { hash: sent.hash }))!;
 * [code, height === sent.height]; // [0, true]
 * ```
 */
export interface TxInfo {
  /** Uppercase hex hash. */
  hash: string;
  /** The block height. */
  height: bigint;
  /** The position in the block, when the transport reports it (RPC). */
  index: number | undefined;
  /** 0 on success. */
  code: number;
  /** The error's codespace; `""` on success. */
  codespace: string;
  /** The log (the error text on failure). */
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: TxEvent[];
  /** The decoded transaction, when the node returned it. */
  tx: cosmosTx.Tx | undefined;
}

const eventsOf = (
  events: readonly { type: string; attributes: readonly TxEvent["attributes"][number][] }[],
) =>
  events.map(
    (e): TxEvent => ({ type: e.type, attributes: e.attributes.map(({ key, value }) => ({ key, value })) }),
  );

function fromComet(tx: CometTx): TxInfo {
  return {
    hash: toHexString(tx.hash).toUpperCase(),
    height: BigInt(tx.height),
    index: tx.index,
    code: tx.result.code,
    codespace: tx.result.codespace ?? "",
    log: tx.result.log ?? "",
    gasWanted: tx.result.gasWanted,
    gasUsed: tx.result.gasUsed,
    events: eventsOf(tx.result.events),
    tx: decodeTxRaw(tx.tx),
  };
}

function fromTxResponse(
  response: NonNullable<cosmosTx.GetTxResponse["txResponse"]>,
  tx: cosmosTx.Tx | undefined,
): TxInfo {
  return {
    hash: response.txhash.toUpperCase(),
    height: response.height,
    index: undefined,
    code: response.code,
    codespace: response.codespace,
    log: response.rawLog,
    gasWanted: response.gasWanted,
    gasUsed: response.gasUsed,
    events: eventsOf(response.events),
    tx,
  };
}

/**
 * Parameters of {@link getTx}.
 * @example
 * ```ts
 * const params: GetTxParams = { hash: "A".repeat(64), transport: "rpc" };
 * ```
 */
export interface GetTxParams extends QueryOptions {
  /** The tx hash, hex (either case, with or without `0x`). */
  hash: string;
}

function hashBytes(hash: string): Uint8Array {
  const bytes = fromHexString(hash);
  if (bytes?.length !== 32)
    throw new InvalidArgumentError("hash", `expected 64 hex digits, got ${JSON.stringify(hash)}`);
  return bytes;
}

/**
 * A committed transaction by hash.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetTxParams`, with the call options.
 * @returns it, or `undefined` when the node has not indexed it (not in a block yet, or never).
 * @throws {QueryError} when the node answers with another transaction (another hash): never taken
 *   for this one.
 * @example
 * ```ts
 * const sent = await client.bankSend({ signer: wallet, from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] });
 * const tx = await getTx(client, { hash: sent.hash });
 * tx?.code; // 0
 * ```
 */
export async function getTx(client: NodeConnection, params: GetTxParams): Promise<TxInfo | undefined> {
  checkParams(params, "getTx");
  const bytes = hashBytes(params.hash);
  const hash = toHexString(bytes).toUpperCase();
  const transport = pickQueryTransport(client, params.transport);
  if (transport === "grpc") {
    const method = cosmosTx.Service.method.getTx;
    const response = await unaryQuery(client, { ...params, method, request: { hash } }).catch((error) => {
      if (isQueryError(error) && error.notFound) return undefined;
      throw error;
    });
    const found = response?.txResponse && fromTxResponse(response.txResponse, response.tx);
    return found && sameTx(found, hash, "/cosmos.tx.v1beta1.Service/GetTx", "grpc");
  }
  return withDeadline({ ...params, operation: "tx", defaultTimeoutMs: client.timeoutMs }, async (signal) => {
    try {
      const answer = await cometCall(client.rpc!, signal, (comet) => comet.tx({ hash: bytes, prove: false }));
      return sameTx(fromComet(answer), hash, "tx", "rpc");
    } catch (error) {
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (/not found/i.test(message)) return undefined;
      throw rpcQueryError("tx", error);
    }
  });
}

/**
 * Parameters of {@link searchTxs}.
 * @example
 * ```ts
 * await searchTxs(client, { query: `message.sender='${wallet.address}'`, page: 2, perPage: 50, orderBy: "desc" });
 * ```
 */
export interface SearchTxsParams extends QueryOptions {
  /** A CometBFT query, e.g. `message.sender='perpx1...'` or `tx.height=5`. */
  query: string;
  /** 1-based page; default 1. */
  page?: number;
  /** Results per page (at most 100 on CometBFT); default 30. */
  perPage?: number;
  /** Order by height; default "asc". */
  orderBy?: "asc" | "desc";
}

/**
 * Searches committed transactions by event query.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `SearchTxsParams`, with the call options.
 * @returns one page of matches and the total count.
 * @example
 * ```ts
 * const { txs, totalCount } = await searchTxs(client, { query: `message.sender='${wallet.address}'`, orderBy: "desc" });
 * ```
 */
export async function searchTxs(
  client: NodeConnection,
  params: SearchTxsParams,
): Promise<{ txs: TxInfo[]; totalCount: number }> {
  checkParams(params, "searchTxs");
  const page = params.page ?? 1;
  const perPage = params.perPage ?? 30;
  const order = params.orderBy ?? "asc";
  const transport = pickQueryTransport(client, params.transport);
  if (transport === "grpc") {
    const response = await unaryQuery(client, {
      ...params,
      method: cosmosTx.Service.method.getTxsEvent,
      request: {
        query: params.query,
        page: BigInt(page),
        limit: BigInt(perPage),
        orderBy: order === "desc" ? cosmosTx.OrderBy.DESC : cosmosTx.OrderBy.ASC,
      },
    });
    return {
      txs: response.txResponses.map((r, i) => fromTxResponse(r, response.txs[i])),
      totalCount: Number(response.total),
    };
  }
  const search = { query: params.query, page, per_page: perPage, order_by: order, prove: false } as const;
  return rpcRead(
    client,
    "tx_search",
    async (comet) => {
      const response = await comet.txSearch(search);
      return { txs: response.txs.map(fromComet), totalCount: response.totalCount };
    },
    params,
  );
}
