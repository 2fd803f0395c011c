import { fromBinary } from "@bufbuild/protobuf";
import { AbortedError, InvalidArgumentError } from "@perpx/errors";
import { type clob, cosmosTendermint, cosmosTx } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { proposedOperationsIn, sameOrderId } from "../messages/proposedOperations.js";
import { checkParams, uint64 } from "../messages/validate.js";
import { getLatestBlock } from "../query/chain.js";
import { pickQueryTransport, rpcQueryError, unaryQuery } from "../query/unary.js";
import { type CallOptions, checkTimeout, sleep, withDeadline } from "../transport/call.js";
import { cometCall } from "../transport/rpc-json.js";

/**
 * One fill of a watched short-term order, as a block's proposed operations settled it.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * // One match of a watched order, as `watchShortTermOrder` reports it.
 * const fill: ShortTermOrderFill = { height: 120n, quantums: 1_000_000n, role: "maker", counterparty: create(clob.OrderIdSchema, { clientId: 9 }) };
 * ```
 */
export interface ShortTermOrderFill {
  /** The block whose proposed-operations tx settled the fill. */
  height: bigint;
  /** Base quantums filled. */
  quantums: bigint;
  /** Whether the order took liquidity (`taker`) or rested and was hit (`maker`). */
  role: "taker" | "maker";
  /** The order on the other side. */
  counterparty: clob.OrderId;
}

/**
 * What became of a short-term order, learnt from the node's blocks alone.
 *
 * @example
 * ```ts
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 5;
 * const sent = await client.placeOrder({
 *   signer: wallet, subaccount, clientId: 114, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock,
 * });
 * const { totalFilled, fills }: ShortTermOrderOutcome = await watchShortTermOrder(client, { orderId: sent.orderId!, goodTilBlock });
 * [totalFilled, fills]; // [0n, []]: nobody sold at 30000 before it expired
 * ```
 */
export interface ShortTermOrderOutcome {
  /** The order watched. */
  orderId: clob.OrderId;
  /** Its fills, in block order. */
  fills: ShortTermOrderFill[];
  /** The sum of the fills' quantums. */
  totalFilled: bigint;
  /**
   * The last block looked at: the order's good-til-block (after it the order cannot fill), or an
   * earlier one when `quantums` were filled before.
   */
  lastHeight: bigint;
  /**
   * The block proposer's removal of the order, when a block's proposed operations removed it
   * (post-only would cross, reduce-only, undercollateralized, self trade, ...): the watch ends there.
   */
  removal?: { height: bigint; reason: clob.OrderRemoval_RemovalReason };
}

/**
 * Parameters of {@link watchShortTermOrder}.
 *
 * @example
 * ```ts
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 5;
 * const sent = await client.placeOrder({
 *   signer: wallet, subaccount, clientId: 115, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock,
 * });
 * const params: WatchShortTermOrderParams = { orderId: sent.orderId!, goodTilBlock, fromHeight: sent.latestHeight! + 1n, pollIntervalMs: 50 };
 * (await watchShortTermOrder(client, params)).totalFilled; // 0n
 * ```
 */
export interface WatchShortTermOrderParams extends CallOptions {
  /** The order (`SendTxResult.orderId` of its placement). */
  orderId: clob.OrderId;
  /** Its good-til-block: the last block that can carry its fills. */
  goodTilBlock: number | bigint;
  /**
   * The first block to look at.
   * @default the block after the latest one when the watch starts
   */
  fromHeight?: bigint;
  /**
   * The order's size: the watch ends as soon as that much is filled.
   * @default undefined (watch until the good-til-block)
   */
  quantums?: bigint;
  /**
   * How often to look for new blocks.
   * @default the client's pollIntervalMs (500)
   */
  pollIntervalMs?: number;
}

/**
 * The proposed operations of a block: the `MsgProposedOperations` of its first tx (every block of
 * the chain starts with one), or undefined when the block has none.
 *
 * @param txBytes - the bytes of a block's first transaction.
 * @returns the decoded matches and removals of the block, or `undefined` when that transaction is
 *   not a `MsgProposedOperations`.
 * @example
 * ```ts
 * proposedOperations(Uint8Array.of(1, 2, 3)); // undefined: not a block's first transaction
 * ```
 */
export function proposedOperations(txBytes: Uint8Array): clob.MsgProposedOperations | undefined {
  try {
    const raw = fromBinary(cosmosTx.TxRawSchema, txBytes);
    return proposedOperationsIn(fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes).messages);
  } catch {
    return undefined;
  }
}

/**
 * The fills of `orderId` in one block's proposed operations.
 *
 * @param operations - one block's proposed operations.
 * @param orderId - the order whose fills to find.
 * @param height - the block's height, carried into each fill.
 * @returns each fill of the order in that block: its size in base quantums, its role (maker or
 *   taker) and the counterparty order; empty when none.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const orderId = create(clob.OrderIdSchema, { subaccountId: subaccount, clientId: 7 });
 * fillsOf(create(clob.MsgProposedOperationsSchema), orderId, 12n); // []: a block without matches
 * ```
 */
export function fillsOf(
  operations: clob.MsgProposedOperations,
  orderId: clob.OrderId,
  height: bigint,
): ShortTermOrderFill[] {
  const out: ShortTermOrderFill[] = [];
  for (const { operation } of operations.operationsQueue) {
    if (operation.case !== "match" || operation.value.match.case !== "matchOrders") continue;
    const match = operation.value.match.value;
    const taker = match.takerOrderId;
    for (const fill of match.fills) {
      if (sameOrderId(taker, orderId) && fill.makerOrderId) {
        out.push({ height, quantums: fill.fillAmount, role: "taker", counterparty: fill.makerOrderId });
      } else if (sameOrderId(fill.makerOrderId, orderId) && taker) {
        out.push({ height, quantums: fill.fillAmount, role: "maker", counterparty: taker });
      }
    }
  }
  return out;
}

/**
 * The removal of an order among a block's proposed operations, if any.
 *
 * @param operations - one block's proposed operations.
 * @param orderId - the order to look for.
 * @returns the removal and its reason, or `undefined` when the block does not remove the order.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 * const orderId = create(clob.OrderIdSchema, { clientId: 9, orderFlags: 64 });
 * const removal = create(clob.OrderRemovalSchema, { orderId, removalReason: clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER });
 * const operations = create(clob.MsgProposedOperationsSchema, {
 *   operationsQueue: [{ operation: { case: "orderRemoval", value: removal } }],
 * });
 * removalOf(operations, orderId)?.removalReason === clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER; // true
 * ```
 */
export function removalOf(
  operations: clob.MsgProposedOperations,
  orderId: clob.OrderId,
): clob.OrderRemoval | undefined {
  for (const { operation } of operations.operationsQueue) {
    if (operation.case === "orderRemoval" && sameOrderId(operation.value.orderId, orderId))
      return operation.value;
  }
  return undefined;
}

async function blockTxs(client: NodeConnection, height: bigint, options: CallOptions): Promise<Uint8Array[]> {
  const transport = client.rpc ? "rpc" : pickQueryTransport(client);
  if (transport === "rpc") {
    return withDeadline(
      { ...options, operation: "block", defaultTimeoutMs: client.timeoutMs },
      async (signal) => {
        try {
          const response = await cometCall(client.rpc!, signal, (comet) => comet.block(Number(height)));
          return [...response.block.txs];
        } catch (error) {
          if (signal.aborted) throw error;
          throw rpcQueryError("block", error);
        }
      },
    );
  }
  const response = await unaryQuery(client, {
    ...options,
    transport,
    method: cosmosTendermint.Service.method.getBlockByHeight,
    request: { height },
  });
  return response.sdkBlock?.data?.txs ?? response.block?.data?.txs ?? [];
}

/**
 * Follows a short-term order from the node alone (chain-protocol 1.11): its CheckTx answer was
 * final, and its fills land in the proposed-operations tx that heads each later block. Reads each
 * new block's operations for the order's fills (as taker or maker) until its good-til-block has
 * passed, `quantums` are filled, or the block proposer removed it (`removal`). Any order id
 * works: a stateful order's fills and removals land in the same operations.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `WatchShortTermOrderParams`: each field is documented there.
 * @returns resolves with the order's outcome (its fills, or its removal or expiry) once known.
 * @throws {AbortedError} when `signal` aborts; the query errors of the transport.
 *
 * @example
 * ```ts
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 5;
 * const sent = await client.placeOrder({
 *   signer: wallet, subaccount, clientId: 116, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock,
 * });
 * // Follows the blocks until the order is filled or expired.
 * const outcome = await watchShortTermOrder(client, { orderId: sent.orderId!, goodTilBlock, fromHeight: sent.latestHeight! + 1n });
 * outcome.lastHeight >= BigInt(goodTilBlock); // true
 * ```
 */
export async function watchShortTermOrder(
  client: NodeConnection,
  params: WatchShortTermOrderParams,
): Promise<ShortTermOrderOutcome> {
  checkParams(params, "watchShortTermOrder");
  if (typeof params.orderId !== "object" || params.orderId === null || !params.orderId.subaccountId) {
    throw new InvalidArgumentError("orderId", "must be the order id of a placement (with its subaccount)");
  }
  const last = uint64(params.goodTilBlock, "goodTilBlock");
  const from = params.fromHeight === undefined ? undefined : uint64(params.fromHeight, "fromHeight");
  const pollMs = checkTimeout(params.pollIntervalMs ?? client.txDefaults.pollIntervalMs, "pollIntervalMs");
  const call: CallOptions = {
    ...(params.timeoutMs === undefined ? {} : { timeoutMs: params.timeoutMs }),
    ...(params.signal ? { signal: params.signal } : {}),
  };
  let next = from ?? (await getLatestBlock(client, call)).height + 1n;
  const fills: ShortTermOrderFill[] = [];
  let totalFilled = 0n;
  const outcome = (lastHeight: bigint, removal?: clob.OrderRemoval): ShortTermOrderOutcome => ({
    orderId: params.orderId,
    fills,
    totalFilled,
    lastHeight,
    ...(removal ? { removal: { height: lastHeight, reason: removal.removalReason } } : {}),
  });
  while (next <= last) {
    const latest = (await getLatestBlock(client, call)).height;
    for (; next <= latest && next <= last; next++) {
      const txs = await blockTxs(client, next, call);
      const operations = txs[0] === undefined ? undefined : proposedOperations(txs[0]);
      if (operations === undefined) continue;
      for (const fill of fillsOf(operations, params.orderId, next)) {
        fills.push(fill);
        totalFilled += fill.quantums;
      }
      if (params.quantums !== undefined && totalFilled >= params.quantums) return outcome(next);
      const removal = removalOf(operations, params.orderId);
      if (removal) return outcome(next, removal);
    }
    if (next > last) break;
    try {
      await sleep(pollMs, params.signal);
    } catch (reason) {
      throw new AbortedError(`watching short-term order ${params.orderId.clientId}`, reason);
    }
  }
  return outcome(last);
}
