import type { NodeConnection } from "../connection.js";
import {
  type InitiateWithdrawalParams,
  initiateWithdrawalMsg,
  type RegisterAffiliateParams,
  registerAffiliateMsg,
  type UpdateLeverageParams,
  updateLeverageMsg,
} from "../messages/account.js";
import {
  type AddAuthenticatorParams,
  addAuthenticatorMsg,
  type RemoveAuthenticatorParams,
  removeAuthenticatorMsg,
} from "../messages/accountplus.js";
import {
  type BatchCancelParams,
  batchCancelMsg,
  type CancelOrderParams,
  cancelOrderMsg,
  placeOrderMsg,
} from "../messages/clob.js";
import { type BankMultiSendParams, bankMultiSendMsg } from "../messages/multiSend.js";
import type { PlaceOrderParams } from "../messages/orderTypes.js";
import {
  type BankSendParams,
  bankSendMsg,
  type DepositToSubaccountParams,
  depositToSubaccountMsg,
  type IbcTransferParams,
  ibcTransferMsg,
  type TransferParams,
  transferMsg,
  type WithdrawFromSubaccountParams,
  type WrapRedeemParams,
  type WrapWithdrawParams,
  withdrawFromSubaccountMsg,
  wrapRedeemMsg,
  wrapWithdrawMsg,
} from "../messages/transfers.js";
import type { TxSigner } from "../wallet/signer.js";
import { checkActionParams } from "./actionKeys.js";
import { type SendTxParams, type SendTxResult, sendTx } from "./send.js";

/**
 * How a one-message action is sent: the signer, plus any option of {@link sendTx} under `tx`.
 *
 * @example
 * ```ts
 * const to = LocalWallet.generate().address;
 * const amount = [{ denom: "uusdc", amount: 1_000_000n }];
 * // Return once CheckTx accepted it, and pay the fee in aperpx.
 * const sent = await bankSend(client, { signer: wallet, from: wallet.address, to, amount, tx: { broadcastMode: "sync", feeDenom: "aperpx" } });
 * [sent.mode, sent.fee.amount[0]?.denom]; // ["sync", "aperpx"]
 * ```
 */
export interface ActionOptions {
  /** The key that signs. */
  signer: TxSigner;
  /**
   * Send options (broadcast mode, gas, fee denom, nonce mode, trading-key account and authenticators...).
   * @default {}
   */
  tx?: Omit<SendTxParams, "signer" | "messages">;
}

function send(
  client: NodeConnection,
  options: ActionOptions,
  message: Parameters<typeof sendTx>[1]["messages"][number],
) {
  return sendTx(client, { ...(options.tx ?? {}), signer: options.signer, messages: [message] });
}

/**
 * Places an order (short-term, long-term or conditional) in its own transaction.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`PlaceOrderParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const { height } = await client.getLatestBlock();
 * const sent = await placeOrder(client, {
 *   signer: wallet, subaccount, clientId: 101, side: "BUY",
 *   market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock: Number(height) + 10,
 * });
 * [sent.shortTerm, sent.orderId?.clientId]; // [true, 101]
 * ```
 */
export async function placeOrder(
  client: NodeConnection,
  params: PlaceOrderParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "placeOrder");
  return send(client, params, placeOrderMsg(params));
}

/**
 * Cancels an order.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`CancelOrderParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const order = { signer: wallet, subaccount, clientId: 102, market: btc, kind: "long-term", goodTilBlockTime } as const;
 * await placeOrder(client, { ...order, side: "BUY", size: "0.001", price: "30000" });
 * (await cancelOrder(client, order)).tx?.code; // 0
 * ```
 */
export async function cancelOrder(
  client: NodeConnection,
  params: CancelOrderParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "cancelOrder");
  return send(client, params, cancelOrderMsg(params));
}

/**
 * Cancels up to 100 short-term orders at once.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`BatchCancelParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * for (const clientId of [103, 104]) {
 *   await placeOrder(client, { signer: wallet, subaccount, clientId, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * }
 * const cancelled = await batchCancel(client, { signer: wallet, subaccount, cancels: [{ market: btc, clientIds: [103, 104] }], goodTilBlock });
 * cancelled.shortTerm; // true
 * ```
 */
export async function batchCancel(
  client: NodeConnection,
  params: BatchCancelParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "batchCancel");
  return send(client, params, batchCancelMsg(params));
}

/**
 * Deposits bank USDC into a subaccount.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`DepositToSubaccountParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * await depositToSubaccount(client, { signer: wallet, sender: wallet.address, recipient: { owner: wallet.address, number: 0 }, quantums: 10_000_000n });
 * ```
 */
export async function depositToSubaccount(
  client: NodeConnection,
  params: DepositToSubaccountParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "depositToSubaccount");
  return send(client, params, depositToSubaccountMsg(params));
}

/**
 * Withdraws USDC from a subaccount to a bank account.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`WithdrawFromSubaccountParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * await withdrawFromSubaccount(client, { signer: wallet, sender: { owner: wallet.address, number: 0 }, recipient: wallet.address, quantums: 1_000_000n });
 * ```
 */
export async function withdrawFromSubaccount(
  client: NodeConnection,
  params: WithdrawFromSubaccountParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "withdrawFromSubaccount");
  return send(client, params, withdrawFromSubaccountMsg(params));
}

/**
 * Transfers USDC between subaccounts.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`TransferParams`) and how to send it (`ActionOptions`: the
 *   `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const moved = await transfer(client, { signer: wallet, sender: subaccount, recipient: { owner: wallet.address, number: 1 }, quantums: 1_000_000n });
 * moved.tx?.code; // 0
 * ```
 */
export async function transfer(
  client: NodeConnection,
  params: TransferParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "transfer");
  return send(client, params, transferMsg(params));
}

/**
 * Pays several accounts from one in a single bank `MsgMultiSend`.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`BankMultiSendParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const [b, c] = [LocalWallet.generate().address, LocalWallet.generate().address];
 * await bankMultiSend(client, { signer: wallet, from: wallet.address, outputs: [{ to: b, amount: [{ denom: "uusdc", amount: 1_000n }] }, { to: c, amount: [{ denom: "uusdc", amount: 2_000n }] }] });
 * ```
 */
export async function bankMultiSend(
  client: NodeConnection,
  params: BankMultiSendParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "bankMultiSend");
  return send(client, params, bankMultiSendMsg(params));
}

/**
 * Sends bank coins.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`BankSendParams`) and how to send it (`ActionOptions`: the
 *   `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const to = LocalWallet.generate().address;
 * await bankSend(client, { signer: wallet, from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1_000_000n }] });
 * (await client.getBalance({ address: to, denom: "uusdc" })).amount; // 1000000n
 * ```
 */
export async function bankSend(
  client: NodeConnection,
  params: BankSendParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "bankSend");
  return send(client, params, bankSendMsg(params));
}

/**
 * Adds an authenticator to the signer's account.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`AddAuthenticatorParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const key = LocalWallet.generate();
 * const added = await addAuthenticator(client, { signer: wallet, sender: wallet.address, authenticator: tradingKeyAuthenticator(key.publicKey) });
 * added.tx?.code; // 0
 * ```
 */
export async function addAuthenticator(
  client: NodeConnection,
  params: AddAuthenticatorParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "addAuthenticator");
  return send(client, params, addAuthenticatorMsg(params));
}

/**
 * Removes an authenticator from the signer's account.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`RemoveAuthenticatorParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const { authenticatorId } = await client.registerTradingKey({ owner: wallet, publicKey: LocalWallet.generate().publicKey });
 * const removed = await removeAuthenticator(client, { signer: wallet, sender: wallet.address, id: authenticatorId });
 * removed.tx?.code; // 0
 * ```
 */
export async function removeAuthenticator(
  client: NodeConnection,
  params: RemoveAuthenticatorParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "removeAuthenticator");
  return send(client, params, removeAuthenticatorMsg(params));
}

/**
 * Burns the local denom and sends the voucher back over IBC (wrap `MsgWithdraw`).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`WrapWithdrawParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const voucherDenom = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
 * // Where that voucher backs uusdc, this burns 1 USDC and sends the voucher back over IBC. A fresh
 * // devnet holds no backing, so the chain refuses it.
 * await wrapWithdraw(client, { signer: wallet, sender: wallet.address, amount: 1_000_000n, receiver: "noble1...", timeoutSeconds: 600, voucherDenom }); // throws BroadcastTxError
 * ```
 */
export async function wrapWithdraw(
  client: NodeConnection,
  params: WrapWithdrawParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "wrapWithdraw");
  return send(client, params, wrapWithdrawMsg(params));
}

/**
 * Burns the local denom and receives the voucher on this chain (wrap `MsgRedeem`).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`WrapRedeemParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const voucherDenom = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
 * // Where that voucher backs uusdc, this burns 1 USDC and hands the voucher over here. A fresh devnet
 * // holds no backing, so the chain refuses it.
 * await wrapRedeem(client, { signer: wallet, sender: wallet.address, amount: 1_000_000n, voucherDenom }); // throws BroadcastTxError
 * ```
 */
export async function wrapRedeem(
  client: NodeConnection,
  params: WrapRedeemParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "wrapRedeem");
  return send(client, params, wrapRedeemMsg(params));
}

/**
 * Sends an ICS-20 transfer.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`IbcTransferParams`) and how to send it (`ActionOptions`:
 *   the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * await ibcTransfer(client, { signer: wallet, sender: wallet.address, receiver: "noble1...", sourceChannel: "channel-0",
 *   token: { denom: "uusdc", amount: 1n }, timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n });
 * ```
 */
export async function ibcTransfer(
  client: NodeConnection,
  params: IbcTransferParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "ibcTransfer");
  return send(client, params, ibcTransferMsg(params));
}

/**
 * Sets a subaccount's leverage (initial margin fraction) on one or more markets; fee-free like orders.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`UpdateLeverageParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * await updateLeverage(client, { signer: wallet, subaccount: { owner: wallet.address, number: 0 }, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] });
 * ```
 */
export async function updateLeverage(
  client: NodeConnection,
  params: UpdateLeverageParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "updateLeverage");
  return send(client, params, updateLeverageMsg(params));
}

/**
 * Records who referred the signer (the referee), once.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`RegisterAffiliateParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const affiliate = LocalWallet.fromMnemonic(process.env.PERPX_MNEMONIC_0 ?? "").address;
 * await registerAffiliate(client, { signer: wallet, referee: wallet.address, affiliate });
 * (await affiliateQueries.getReferredBy(client, { address: wallet.address })) === affiliate; // true
 * ```
 */
export async function registerAffiliate(
  client: NodeConnection,
  params: RegisterAffiliateParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "registerAffiliate");
  return send(client, params, registerAffiliateMsg(params));
}

/**
 * Withdraws through the bridge to an address on an EVM chain (queued for the bridge's signers).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the message's fields (`InitiateWithdrawalParams`) and how to send it
 *   (`ActionOptions`: the `signer`; `tx`: broadcast mode, gas, fee).
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee and sequence; rejects with `BroadcastTxError` (or a subclass) when the chain
 *   refuses it, and with a typed `PerpxError` naming the field, before signing, for bad input.
 * @example
 * ```ts
 * const recipient = "0x8ba1f109551bD432803012645Ac136ddd64DBA72"; // on Sepolia
 * const withdrawn = await initiateWithdrawal(client, {
 *   signer: wallet, sender: wallet.address, recipient, denom: "uusdc", amount: 5_000_000n, ethChainId: 11155111n,
 * });
 * withdrawn.tx?.code; // 0
 * ```
 */
export async function initiateWithdrawal(
  client: NodeConnection,
  params: InitiateWithdrawalParams & ActionOptions,
): Promise<SendTxResult> {
  checkActionParams(params, "initiateWithdrawal");
  return send(client, params, initiateWithdrawalMsg(params));
}
