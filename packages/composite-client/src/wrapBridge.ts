import {
  AbortedError,
  assertKnownKeys,
  InvalidArgumentError,
  optionKeys,
  usdcToQuoteQuantums,
} from "@perpx/core";
import type { SendTxResult } from "@perpx/node-client";
import { coinAmount, getBacking, getBridgeEvents, queryPath } from "@perpx/node-client/queries";
import { bridge, wrap } from "@perpx/proto";
import type { ClientContext } from "./client.js";
import { walletOf } from "./trader.js";

async function voucherOf(context: ClientContext, amount: bigint, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const backings = await getBacking(context.node);
  // read strictly, as the bank queries read a coin amount: a node's "0x10" is refused, not 16
  const path = queryPath(wrap.Query.method.backing);
  const remaining = backings.map((b, i) =>
    coinAmount(b.remainingBalance, path, `backings[${i}].remainingBalance`),
  );
  const enough = backings.find((_, i) => (remaining[i] as bigint) >= amount);
  if (!enough) {
    throw new InvalidArgumentError(
      "voucherDenom",
      `no voucher backs ${amount} uusdc (${backings.length} backing(s) on chain); give voucherDenom`,
    );
  }
  return enough.voucherDenom;
}

const REDEEM_KEYS = optionKeys<Parameters<typeof wrapRedeemUsdc>[1]>({ amount: true, voucherDenom: true });
const WRAP_WITHDRAW_KEYS = optionKeys<Parameters<typeof wrapWithdrawUsdc>[1]>({
  amount: true,
  receiver: true,
  voucherDenom: true,
  timeoutSeconds: true,
});
const TRACK_KEYS = optionKeys<Parameters<typeof trackBridgeDeposit>[1]>({
  address: true,
  ethTxHash: true,
  id: true,
  onStatus: true,
  signal: true,
});

/**
 * Redeems wrapped USDC for its IBC voucher on this chain (wrap `MsgRedeem`), in human USDC. The
 * voucher is the one whose backing covers the amount unless `voucherDenom` names it.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the amount in human USDC and, optionally, the voucher to receive.
 * @returns resolves when the node accepted the `MsgRedeem`.
 * @throws {InvalidAmountError} for an amount with more than 6 decimals.
 * @throws {InvalidArgumentError} when no voucher backs the amount, on a read-only client or a trading key.
 * @throws {QueryError} when the node names a remaining balance that is not a base-10 integer ("0x10").
 *
 * @example
 * ```ts
 * // Nothing backs a voucher on a fresh devnet (no USDC came in over IBC): refused before signing.
 * await wrapRedeemUsdc(context, { amount: "1.5" }); // throws InvalidArgumentError
 * ```
 */
export async function wrapRedeemUsdc(
  context: ClientContext,
  params: { amount: string; voucherDenom?: string },
): Promise<SendTxResult> {
  assertKnownKeys(params, REDEEM_KEYS, "wrapRedeem");
  const signer = walletOf(context, "wrapRedeem");
  const amount = usdcToQuoteQuantums(params.amount);
  const voucherDenom = await voucherOf(context, amount, params.voucherDenom);
  return context.node.wrapRedeem({ signer, sender: signer.address, amount, voucherDenom });
}

/**
 * Withdraws wrapped USDC over IBC to `receiver` on the voucher's home chain (wrap `MsgWithdraw`),
 * in human USDC.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the amount in human USDC, the `receiver` on the home chain, and optionally the
 *   voucher and IBC timeout in seconds.
 * @returns resolves when the node accepted the `MsgWithdraw`.
 * @throws {InvalidAmountError | InvalidArgumentError} as {@link wrapRedeemUsdc}.
 *
 * @example
 * ```ts
 * // As wrapRedeemUsdc: refused before signing where nothing backs a voucher.
 * await wrapWithdrawUsdc(context, { amount: "2", receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy" }); // throws InvalidArgumentError
 * ```
 */
export async function wrapWithdrawUsdc(
  context: ClientContext,
  params: { amount: string; receiver: string; voucherDenom?: string; timeoutSeconds?: number },
): Promise<SendTxResult> {
  assertKnownKeys(params, WRAP_WITHDRAW_KEYS, "wrapWithdraw");
  const signer = walletOf(context, "wrapWithdraw");
  const amount = usdcToQuoteQuantums(params.amount);
  const voucherDenom = await voucherOf(context, amount, params.voucherDenom);
  return context.node.wrapWithdraw({
    signer,
    sender: signer.address,
    amount,
    receiver: params.receiver,
    timeoutSeconds: params.timeoutSeconds ?? 600,
    voucherDenom,
  });
}

/**
 * A bridge deposit's progress on this chain.
 *
 * @example
 * ```ts
 * const step: BridgeDepositStatus = { id: 3, status: "ACKNOWLEDGED", coin: { denom: "aperpx", amount: "5000" }, completeAtBlock: 120n };
 * ```
 */
export interface BridgeDepositStatus {
  /** The bridge event id. */
  id: number;
  /** OBSERVED, FINALIZED, ACKNOWLEDGED or COMPLETED (credited). */
  status: "OBSERVED" | "FINALIZED" | "ACKNOWLEDGED" | "COMPLETED";
  /** The coin credited, in base units of its denom. */
  coin: { denom: string; amount: string };
  /** The block that credits it, once acknowledged. */
  completeAtBlock: bigint | undefined;
}

const STATUS: Record<number, BridgeDepositStatus["status"] | undefined> = {
  [bridge.BridgeEventStatus.OBSERVED]: "OBSERVED",
  [bridge.BridgeEventStatus.FINALIZED]: "FINALIZED",
  [bridge.BridgeEventStatus.ACKNOWLEDGED]: "ACKNOWLEDGED",
  [bridge.BridgeEventStatus.COMPLETED]: "COMPLETED",
};

/**
 * Follows a bridge deposit from the source chain (by its transaction hash on that chain, or its
 * bridge event id) at each new block until the chain credited it, calling `onStatus` with each
 * step; resolves with the COMPLETED step.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the recipient `address`, the deposit's source-chain tx hash or event id, an
 *   `onStatus` callback and a `signal`.
 * @returns resolves with the final status once the chain credited the deposit.
 * @throws {AbortedError} when `signal` aborts first.
 *
 * @example
 * ```ts
 * const ethTxHash = `0x${"ef".repeat(32)}`;
 * await fetch(`${context.config.endpoints.devnetControl}/devnet/bridge/deposit`, {
 *   method: "POST",
 *   body: JSON.stringify({ sender: `0x${"12".repeat(20)}`, address: subaccount.owner, amount: "1000000", txHash: ethTxHash }),
 * });
 * const done = await trackBridgeDeposit(context, { ethTxHash, address: subaccount.owner });
 * done.status; // "COMPLETED"
 * ```
 */
export async function trackBridgeDeposit(
  context: ClientContext,
  params: {
    address: string;
    ethTxHash?: string;
    id?: number;
    onStatus?: (status: BridgeDepositStatus) => void;
    signal?: AbortSignal;
  },
): Promise<BridgeDepositStatus> {
  assertKnownKeys(params, TRACK_KEYS, "trackBridgeDeposit");
  if (params.ethTxHash === undefined && params.id === undefined) {
    throw new InvalidArgumentError(
      "ethTxHash",
      "give the deposit's source-chain transaction hash or its bridge event id",
    );
  }
  let seen: string | undefined;
  let height = context.height.current();
  for (;;) {
    if (params.signal?.aborted) throw new AbortedError("tracking a bridge deposit", params.signal.reason);
    const events = await getBridgeEvents(context.node, { address: params.address });
    const record = events.find((r) =>
      params.ethTxHash !== undefined
        ? r.event?.ethTxHash.toLowerCase() === params.ethTxHash.toLowerCase()
        : r.event?.id === params.id,
    );
    const status = record ? STATUS[record.status] : undefined;
    if (record?.event && status) {
      const step: BridgeDepositStatus = {
        id: record.event.id,
        status,
        coin: { denom: record.event.coin?.denom ?? "", amount: record.event.coin?.amount ?? "0" },
        completeAtBlock: record.completeAtBlock > 0n ? record.completeAtBlock : undefined,
      };
      if (status !== seen) params.onStatus?.(step);
      seen = status;
      if (status === "COMPLETED") return step;
    }
    height = await context.height.waitAbove(height);
  }
}
