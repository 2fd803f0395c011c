import { InvalidOrderError, STATEFUL_ORDER_TIME_WINDOW_SECONDS } from "@perpx/core";
import type { clob } from "@perpx/proto";
import { isShortTermClobMessage } from "../messages/clob.js";
import type { LatestBlock } from "../query/chain.js";
import type { TxMessage } from "./encode.js";

/**
 * What order validation needs to know about the chain and the transaction.
 *
 * @example
 * ```ts
 * const latest = await client.getLatestBlock();
 * const context: OrderWindowContext = { latest, shortBlockWindow: 40, timeoutHeight: 0n };
 * ```
 */
export interface OrderWindowContext {
  /** The latest committed block (its height and time). */
  latest: Pick<LatestBlock, "height" | "time">;
  /** The short-term window, in blocks. */
  shortBlockWindow: number;
  /** The stateful window, in seconds. @default 95 days */
  statefulWindowSeconds?: number;
  /** The transaction's timeout height (0 for none). */
  timeoutHeight: bigint;
}

function goodTilOf(message: TxMessage): { block?: number; time?: number } | undefined {
  switch (message.typeUrl) {
    case "/perpx.clob.v1.MsgPlaceOrder": {
      const g = (message.value as clob.MsgPlaceOrder).order?.goodTilOneof;
      return g?.case === "goodTilBlock"
        ? { block: g.value }
        : g?.case === "goodTilBlockTime"
          ? { time: g.value }
          : undefined;
    }
    case "/perpx.clob.v1.MsgCancelOrder": {
      const g = (message.value as clob.MsgCancelOrder).goodTilOneof;
      return g.case === "goodTilBlock"
        ? { block: g.value }
        : g.case === "goodTilBlockTime"
          ? { time: g.value }
          : undefined;
    }
    case "/perpx.clob.v1.MsgBatchCancel":
      return { block: (message.value as clob.MsgBatchCancel).goodTilBlock };
    default:
      return undefined;
  }
}

/**
 * True when a transaction's messages include a clob order message whose expiry depends on the chain
 * (so {@link validateOrderWindows} needs the latest block).
 *
 * @param messages - the transaction's messages.
 * @returns `true` when the latest block height or time must be read before signing.
 * @example
 * ```ts
 * const order = placeOrderMsg({ subaccount, clientId: 1, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock: 1_000 });
 * needsOrderWindow([order]); // true
 * needsOrderWindow([bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })]); // false
 * ```
 */
export function needsOrderWindow(messages: readonly TxMessage[]): boolean {
  return messages.some((m) => goodTilOf(m) !== undefined);
}

/**
 * Checks the structure and expiry windows of the clob messages of a transaction, before signing:
 * a short-term clob message must be alone; `next ≤ goodTilBlock ≤ next + window` with
 * next = latest height + 1; `latest time < goodTilBlockTime ≤ latest time + 95 days`; a non-zero
 * timeout height must be at least every goodTilBlock.
 *
 * @param messages - the transaction's messages.
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @throws {InvalidOrderError} naming the field.
 *
 * @example
 * ```ts
 * const latest = await client.getLatestBlock();
 * // A short-term order may live at most 40 blocks past the latest one.
 * const tooLate = placeOrderMsg({
 *   subaccount, clientId: 1, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock: Number(latest.height) + 100,
 * });
 * validateOrderWindows([tooLate], { latest, shortBlockWindow: 40, timeoutHeight: 0n }); // throws InvalidOrderError
 * ```
 */
export function validateOrderWindows(messages: readonly TxMessage[], context: OrderWindowContext): void {
  if (messages.length > 1 && messages.some(isShortTermClobMessage)) {
    throw new InvalidOrderError(
      "messages",
      "a transaction holding a short-term place, cancel or batch cancel must hold exactly one message",
    );
  }
  const next = context.latest.height + 1n;
  const latestSeconds = Math.floor(context.latest.time.getTime() / 1000);
  const window = context.statefulWindowSeconds ?? STATEFUL_ORDER_TIME_WINDOW_SECONDS;
  for (const message of messages) {
    const goodTil = goodTilOf(message);
    if (goodTil?.block !== undefined) {
      const gtb = BigInt(goodTil.block);
      const max = next + BigInt(context.shortBlockWindow);
      if (gtb < next) {
        throw new InvalidOrderError("goodTilBlock", `${gtb} is below the next block height ${next}`);
      }
      if (gtb > max) {
        throw new InvalidOrderError(
          "goodTilBlock",
          `${gtb} is beyond the window: at most ${max} (next height ${next} + ${context.shortBlockWindow})`,
        );
      }
      if (context.timeoutHeight !== 0n && context.timeoutHeight < gtb) {
        throw new InvalidOrderError(
          "timeoutHeight",
          `${context.timeoutHeight} must be at least goodTilBlock ${gtb}`,
        );
      }
    }
    if (goodTil?.time !== undefined) {
      if (goodTil.time <= latestSeconds) {
        throw new InvalidOrderError(
          "goodTilBlockTime",
          `${goodTil.time} is not after the latest block time ${latestSeconds}`,
        );
      }
      if (goodTil.time > latestSeconds + window) {
        throw new InvalidOrderError(
          "goodTilBlockTime",
          `${goodTil.time} is more than 95 days after the latest block time ${latestSeconds}`,
        );
      }
    }
  }
}
