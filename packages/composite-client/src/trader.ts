import { AbortedError, InvalidArgumentError } from "@perpx/errors";
import type { TxSigner } from "@perpx/node-client";
import type { ClientContext, Trader } from "./client.js";

/**
 * The trader of a context, refusing when there is none (a read-only client).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param action - the action asking, named in the error.
 * @returns the trader.
 * @throws {InvalidArgumentError} on a read-only client.
 * @throws {AbortedError} (`nothingSent`, naming the action) once the client was closed.
 *
 * @example
 * ```ts
 * const trader = traderOf(context, "placeOrder");
 * ```
 */
export function traderOf(context: ClientContext, action: string): Trader {
  if (context.closed) {
    throw new AbortedError(action, new Error("the client is closed"), { nothingSent: true });
  }
  if (!context.trader) {
    throw new InvalidArgumentError(
      action,
      "this client is read-only: connect with a wallet, signer or credential",
    );
  }
  return context.trader;
}

/**
 * The subaccount traded.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @returns the subaccount's owner address and number.
 * @example
 * ```ts
 * subaccountOf(context); // { owner: wallet.address, number: 0 }
 * ```
 */
export function subaccountOf(context: ClientContext): { owner: string; number: number } {
  return { owner: traderOf(context, "subaccount").owner, number: context.subaccountNumber };
}

/**
 * The owner's wallet of a context, refusing a read-only client and a trading key (which only places
 * and cancels orders) before anything is signed.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param action - the action asking, named in the error.
 * @returns the owner's signer.
 * @throws {InvalidArgumentError} naming the action.
 *
 * @example
 * ```ts
 * const signer = walletOf(context, "withdraw");
 * ```
 */
export function walletOf(context: ClientContext, action: string): TxSigner {
  const trader = traderOf(context, action);
  if (trader.kind !== "wallet") {
    throw new InvalidArgumentError(
      action,
      "a trading key only places and cancels orders; moving USDC needs the owner's wallet",
    );
  }
  return trader.signer;
}
