import { errorGuard, isPerpxError, PerpxError } from "@perpx/errors";
import type { BroadcastProgress } from "@perpx/node-client/tx";
import type { clob } from "@perpx/proto";
import type { OrderHandle } from "./handle.js";

/**
 * A place (or cancel) whose signed transaction may have reached the chain when the call failed:
 * the request went out and no answer came (a reset, a timeout, the node gone), or the node took it
 * and the wait for its block broke off. Its outcome is `UNKNOWN` until looked up: `handle.result()`
 * asks the chain and the indexer. Retrying with the same client id is safe (the chain holds at
 * most one order per id); a new client id may place the order twice. Nothing was resubmitted.
 *
 * @example
 * ```ts
 * const order = { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 3 } } as const;
 * const handle = await client.placeOrder(order).catch((error: unknown) => {
 *   if (!isOrderOutcomeUnknownError(error)) throw error; // not on the chain
 *   return error.handle; // in flight: its handle finds out what became of it
 * });
 * (await handle.result({ timeoutMs: 10_000 })).status; // "EXPIRED"
 * ```
 */
export class OrderOutcomeUnknownError extends PerpxError {
  override name = "OrderOutcomeUnknownError";
  /** Always `UNKNOWN`: whether the chain applied it is not known. */
  readonly status = "UNKNOWN" as const;
  /** What was in flight. */
  readonly operation: "place" | "cancel";
  /** The order's id on the chain: subaccount, client id, clob pair and order flags. */
  readonly orderId: clob.OrderId;
  /** Its client id (as in `orderId`). */
  readonly clientId: number;
  /** The hash of the transaction in flight (uppercase hex): look it up with `getTx`. */
  readonly txHash: string;
  /** The order, to find out what became of it: `handle.result({ timeoutMs })`. */
  readonly handle: OrderHandle;

  /**
   * @param params - what was in flight, the order's handle, the tx hash and the failure.
   */
  constructor(params: {
    operation: "place" | "cancel";
    handle: OrderHandle;
    txHash: string;
    cause: unknown;
  }) {
    const { operation, handle, txHash } = params;
    const id = handle.orderId;
    super(
      "OUTCOME_UNKNOWN",
      `The ${operation} of order ${handle.clientId} on ${handle.market} was sent but not answered: its outcome is unknown`,
      {
        cause: params.cause,
        metaMessages: [
          `order: client id ${id.clientId}, clob pair ${id.clobPairId}, flags ${id.orderFlags}, subaccount ${id.subaccountId?.owner}/${id.subaccountId?.number ?? 0}`,
          `tx hash: ${txHash}`,
          `Look the order up (error.handle.result()) before retrying. Retrying with the same client id (${handle.clientId}) is safe; a new client id may place it twice.`,
        ],
      },
    );
    this.operation = operation;
    this.orderId = id;
    this.clientId = handle.clientId;
    this.txHash = txHash;
    this.handle = handle;
  }
}

/**
 * True for an {@link OrderOutcomeUnknownError}: the order may or may not be on the chain.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const order = { market: "BTC-USD", side: "SELL", size: "0.001", price: "90000", reduceOnly: true } as const;
 * const refused = await client.placeOrder(order).catch((e: unknown) => e);
 * isOrderOutcomeUnknownError(refused); // false: refused before signing, so surely not on the chain
 * ```
 */
export const isOrderOutcomeUnknownError = errorGuard<OrderOutcomeUnknownError>("OrderOutcomeUnknownError");

/** The codes of the errors that say whether their request was sent (`nothingSent`). */
const GAVE_UP_CODES = new Set(["TRANSPORT", "TIMEOUT", "ABORTED"]);

/**
 * Whether a send that failed after `step` may still have put its transaction on the chain. A
 * CheckTx or block refusal is an answer (not applied); a connection that never opened, or a
 * deadline or abort that fired before the bytes went out (`nothingSent`), sent nothing; anything
 * else after the bytes went out (a reset, a timeout, an abort, a connection lost while waiting for
 * the block) leaves it unknown.
 */
function mayHaveLanded(error: unknown, step: BroadcastProgress): boolean {
  if (isPerpxError(error) && error.code === "BROADCAST_TX") {
    // The same bytes already wait in the mempool: they reached the node.
    return (error as { reason?: unknown }).reason === "tx-in-mempool";
  }
  if (step.stage === "sending" && isPerpxError(error) && GAVE_UP_CODES.has(error.code)) {
    return !(error as { nothingSent?: unknown }).nothingSent;
  }
  return true;
}

/**
 * What was in flight when a send broke off: the signed transaction's hash and sequence.
 *
 * @example
 * ```ts
 * const lost: LostTx = { txHash: "AB12", sequence: 7n, cause: new Error("socket hang up") };
 * ```
 */
export interface LostTx {
  /** The hash of the transaction that may have landed. */
  txHash: string;
  /** The sequence (or timestamp nonce) it was signed with. */
  sequence: bigint;
  /** The failure. */
  cause: unknown;
}

/**
 * Runs a send (given the broadcast's progress callback) and, when it fails after the signed bytes
 * may have reached the node, throws what `unknown` makes of it (the outcome-unknown error) instead
 * of the transport's error. Failures before anything was sent, and the chain's refusals, are
 * rethrown as they are. Never resends.
 *
 * @param send - the send, given the callback that hears each step of its broadcast.
 * @param unknown - builds the error to throw when the outcome is unknown, from the lost
 *   transaction.
 * @returns what `send` resolves with; rejects with what `unknown` builds (such as
 *   `OrderOutcomeUnknownError`) when the signed bytes may have reached the node, else with the
 *   send's own error.
 * @example
 * ```ts
 * import { type BroadcastProgress, placeOrderMsg } from "@perpx/node-client/tx";
 *
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 4_000_000_012, subaccount };
 * const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000", goodTil: { blocks: 3 } }, plan);
 * const send = (onBroadcast: (step: BroadcastProgress) => void) =>
 *   sendClob(context, [placeOrderMsg(wire)], undefined, onBroadcast);
 * const sent = await watchSend(send, (lost) => new Error(`in flight: ${lost.txHash}`));
 * sent.hash.length; // 64
 * ```
 */
export async function watchSend<T>(
  send: (onBroadcast: (step: BroadcastProgress) => void) => Promise<T>,
  unknown: (lost: LostTx) => Error,
): Promise<T> {
  let step: BroadcastProgress | undefined;
  try {
    return await send((progress) => {
      step = progress;
    });
  } catch (error) {
    if (step && mayHaveLanded(error, step)) {
      throw unknown({ txHash: step.hash, sequence: step.sequence, cause: error });
    }
    throw error;
  }
}
