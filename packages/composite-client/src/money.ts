import { isValidAddress } from "@perpx/address";
import { assertKnownKeys, optionKeys } from "@perpx/core";
import { InvalidArgumentError, showValue } from "@perpx/errors";
import type { SendTxResult } from "@perpx/node-client";
import type { ClientContext } from "./client.js";
import { walletOf } from "./trader.js";
import { usdcAmount } from "./transfers.js";

type DepositParams = Parameters<typeof depositUsdc>[1];
type WithdrawParams = Parameters<typeof withdrawUsdc>[1];
const DEPOSIT_KEYS = optionKeys<DepositParams>({ amount: true });
const WITHDRAW_KEYS = optionKeys<WithdrawParams>({ amount: true, recipient: true });

/**
 * Moves USDC from the wallet's bank balance into its subaccount.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the amount in human USDC (`"100"`).
 * @returns resolves when the node accepted the deposit.
 * @throws {InvalidAmountError} (`kind: "amount"`) for an amount that is not a canonical decimal
 *   above zero with at most 6 decimals, or is above the chain's uint64 of quote quantums.
 * @throws {InvalidArgumentError} for a read-only client or a trading key.
 *
 * @example
 * ```ts
 * await depositUsdc(context, { amount: "100" });
 * ```
 */
export async function depositUsdc(context: ClientContext, params: { amount: string }): Promise<SendTxResult> {
  assertKnownKeys(params, DEPOSIT_KEYS, "deposit");
  const signer = walletOf(context, "deposit");
  const quantums = usdcAmount(params.amount);
  return context.node.depositToSubaccount({
    signer,
    sender: signer.address,
    recipient: { owner: signer.address, number: context.subaccountNumber },
    quantums,
  });
}

/**
 * Moves USDC from the subaccount to a bank account (the wallet's own by default).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the amount in human USDC and the bank account to credit (the wallet's own by
 *   default).
 * @returns resolves when the node accepted the withdrawal; rejects with `BroadcastTxError` when the
 *   subaccount's free collateral cannot cover it.
 * @throws {InvalidAmountError} (`kind: "amount"`) as {@link depositUsdc}, and
 *   {@link InvalidArgumentError} (`recipient`) for a recipient that is not an account address.
 * @example
 * ```ts
 * await withdrawUsdc(context, { amount: "50" });
 * ```
 */
export async function withdrawUsdc(
  context: ClientContext,
  params: { amount: string; recipient?: string },
): Promise<SendTxResult> {
  assertKnownKeys(params, WITHDRAW_KEYS, "withdraw");
  const signer = walletOf(context, "withdraw");
  const quantums = usdcAmount(params.amount);
  const recipient = params.recipient ?? signer.address;
  if (typeof recipient !== "string" || !isValidAddress(recipient)) {
    throw new InvalidArgumentError(
      "recipient",
      `must be an account address (bech32 with the network's prefix, or 0x hex), got ${showValue(recipient, 60)}`,
    );
  }
  return context.node.withdrawFromSubaccount({
    signer,
    sender: { owner: signer.address, number: context.subaccountNumber },
    recipient,
    quantums,
  });
}
