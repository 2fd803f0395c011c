import { assertKnownKeys, optionKeys } from "@perpx/core";
import type {
  InitiateWithdrawalParams,
  RegisterAffiliateParams,
  UpdateLeverageParams,
} from "../messages/account.js";
import type { AddAuthenticatorParams, RemoveAuthenticatorParams } from "../messages/accountplus.js";
import type { BatchCancelParams, CancelOrderParams } from "../messages/clob.js";
import type { BankMultiSendParams } from "../messages/multiSend.js";
import type { PlaceOrderParams } from "../messages/orderTypes.js";
import type {
  BankSendParams,
  DepositToSubaccountParams,
  IbcTransferParams,
  TransferParams,
  WithdrawFromSubaccountParams,
  WrapRedeemParams,
  WrapWithdrawParams,
} from "../messages/transfers.js";
import { checkParams } from "../messages/validate.js";
import type { SendTxParams } from "./send.js";

/** The keys of {@link SendTxParams}. */
export const SEND_TX_KEYS = optionKeys<SendTxParams>({
  signer: true,
  messages: true,
  memo: true,
  account: true,
  authenticators: true,
  gas: true,
  gasMultiplier: true,
  feeDenom: true,
  gasPrice: true,
  fee: true,
  timeoutHeight: true,
  validate: true,
  knownLatestBlock: true,
  broadcastTransport: true,
  onBroadcast: true,
  signal: true,
  timeoutMs: true,
  broadcastMode: true,
  commitTimeoutMs: true,
  pollIntervalMs: true,
  nonceMode: true,
});

/** What an action's `tx` may hold: every send option but the signer and the messages. */
const TX_KEYS = SEND_TX_KEYS.filter((key) => key !== "signer" && key !== "messages");

/** The keys of each one-message action's message parameters, held to the types by the compiler. */
const MESSAGE_KEYS = {
  placeOrder: optionKeys<PlaceOrderParams>({
    subaccount: true,
    clientId: true,
    side: true,
    timeInForce: true,
    reduceOnly: true,
    clientMetadata: true,
    builderCode: true,
    orderRouterAddress: true,
    clobPairId: true,
    quantums: true,
    subticks: true,
    kind: true,
    goodTilBlock: true,
    goodTilBlockTime: true,
    conditionType: true,
    triggerSubticks: true,
    triggerPrice: true,
    twap: true,
    market: true,
    size: true,
    price: true,
  }),
  cancelOrder: optionKeys<CancelOrderParams>({
    subaccount: true,
    clientId: true,
    clobPairId: true,
    kind: true,
    goodTilBlock: true,
    goodTilBlockTime: true,
    market: true,
  }),
  batchCancel: optionKeys<BatchCancelParams>({ subaccount: true, goodTilBlock: true, cancels: true }),
  depositToSubaccount: optionKeys<DepositToSubaccountParams>({
    quantums: true,
    sender: true,
    recipient: true,
    assetId: true,
  }),
  withdrawFromSubaccount: optionKeys<WithdrawFromSubaccountParams>({
    quantums: true,
    sender: true,
    recipient: true,
    assetId: true,
  }),
  transfer: optionKeys<TransferParams>({ quantums: true, sender: true, recipient: true, assetId: true }),
  bankMultiSend: optionKeys<BankMultiSendParams>({ from: true, outputs: true }),
  bankSend: optionKeys<BankSendParams>({ from: true, to: true, amount: true }),
  addAuthenticator: optionKeys<AddAuthenticatorParams>({ sender: true, authenticator: true }),
  removeAuthenticator: optionKeys<RemoveAuthenticatorParams>({ sender: true, id: true }),
  wrapWithdraw: optionKeys<WrapWithdrawParams>({
    sender: true,
    amount: true,
    receiver: true,
    timeoutSeconds: true,
    voucherDenom: true,
    localDenom: true,
  }),
  wrapRedeem: optionKeys<WrapRedeemParams>({
    sender: true,
    amount: true,
    voucherDenom: true,
    localDenom: true,
  }),
  ibcTransfer: optionKeys<IbcTransferParams>({
    memo: true,
    timeoutHeight: true,
    sender: true,
    receiver: true,
    token: true,
    sourceChannel: true,
    sourcePort: true,
    timeoutTimestampNs: true,
  }),
  updateLeverage: optionKeys<UpdateLeverageParams>({ subaccount: true, leverage: true }),
  registerAffiliate: optionKeys<RegisterAffiliateParams>({ referee: true, affiliate: true }),
  initiateWithdrawal: optionKeys<InitiateWithdrawalParams>({
    sender: true,
    recipient: true,
    amount: true,
    denom: true,
    ethChainId: true,
  }),
} as const;

/** The keys of each action's parameters: its message's, and the signer and send options (`tx`). */
const ACTION_KEYS = {} as Record<ActionName, readonly string[]>;
for (const action of Object.keys(MESSAGE_KEYS) as ActionName[]) {
  ACTION_KEYS[action] = Object.freeze([...MESSAGE_KEYS[action], "signer", "tx"]);
}

/**
 * The name of a one-message action.
 *
 * @example
 * ```ts
 * const action: ActionName = "transfer";
 * ```
 */
export type ActionName = keyof typeof MESSAGE_KEYS;

/**
 * Checks a one-message action's parameters before its message is built: an object, with only the
 * keys of the action's message, `signer` and `tx`, and a `tx` with only send options.
 *
 * @param params - the parameters as the caller gave them.
 * @param action - the action.
 * @returns nothing.
 * @throws {InvalidArgumentError} when `params` is not an object.
 * @throws {UnknownOptionError} naming an unknown key (`tx.x` inside `tx`) and the accepted ones.
 *
 * @example
 * ```ts
 * checkActionParams({ signer: wallet, sender: subaccount, recipient: subaccount, quantums: 1n }, "transfer"); // passes
 * checkActionParams({ signer: wallet, sender: subaccount, recipient: subaccount, quantums: 1n, memo: "x" }, "transfer"); // throws UnknownOptionError
 * ```
 */
export function checkActionParams(params: unknown, action: ActionName): void {
  checkParams(params, action);
  assertKnownKeys(params, ACTION_KEYS[action], action);
  if (params.tx !== undefined) assertKnownKeys(params.tx, TX_KEYS, action, "tx");
}
