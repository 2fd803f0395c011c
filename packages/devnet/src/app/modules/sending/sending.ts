/**
 * x/sending: deposits from an account into a subaccount, withdrawals from a subaccount to an
 * account, and transfers between subaccounts of any owners (USDC, asset 0, only), through the
 * subaccounts keeper's collateral checks. The governance sends (`MsgSendFromModuleToAccount`,
 * `MsgSendFromAccountToAccount`) need the gov module account as authority.
 *
 * The module keeps no state of its own.
 */
import { USDC_ASSET_ID } from "@perpx/core";
import { sending } from "@perpx/proto";
import { requireGovAuthority } from "../../kernel/governance.js";
import { emptyResponse, type Module, msgHandler } from "../../kernel/module.js";
import { accAddressBytes } from "../../lib/addresses.js";
import { abciError, registerError } from "../../lib/errors.js";
import type { BankKeeper } from "../bank/bank.js";
import { coinsFromProto } from "../bank/bank.js";
import { type SubaccountRef, type SubaccountsKeeper, validateSubaccountId } from "../subaccounts/keeper.js";

/** The module's name (codespace). */
export const SENDING = "sending";

/** Errors of codespace `sending`. */
export const sendingErrors = {
  senderSameAsRecipient: registerError(SENDING, 1, "Sender is the same as recipient"),
  invalidTransferAmount: registerError(SENDING, 2, "Invalid transfer amount"),
  missingFields: registerError(SENDING, 5, "Transfer does not contain all required fields"),
  invalidAccountAddress: registerError(SENDING, 6, "Account address is invalid"),
  invalidAuthority: registerError(SENDING, 8, "Authority is invalid"),
  nonUsdcAsset: registerError(SENDING, 1101, "Non-USDC asset transfer not implemented"),
} as const;

const checkAsset = (assetId: number) => {
  if (assetId !== USDC_ASSET_ID) throw abciError(sendingErrors.nonUsdcAsset, `asset ${assetId}`);
};
const checkAmount = (amount: bigint) => {
  if (amount === 0n) throw abciError(sendingErrors.invalidTransferAmount, "amount must be positive");
};
const checkAccount = (address: string) => {
  try {
    accAddressBytes(address);
  } catch (error) {
    throw abciError(
      sendingErrors.invalidAccountAddress,
      error instanceof Error ? error.message : String(error),
    );
  }
};
const ref = (id: { owner: string; number: number } | undefined): SubaccountRef => {
  if (id === undefined) throw abciError(sendingErrors.missingFields, "subaccount id is missing");
  return validateSubaccountId(id);
};

/** The sending module over the subaccounts and bank keepers. */
export function createSendingModule(subaccounts: SubaccountsKeeper, bank: BankKeeper): Module {
  const checkAuthority = (authority: string) =>
    requireGovAuthority(authority, sendingErrors.invalidAuthority);
  return {
    name: SENDING,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.sending.v1.MsgCreateTransfer",
        schema: () => sending.MsgCreateTransferSchema,
        signers: (msg) => [msg.transfer?.sender?.owner ?? ""],
        validate(msg) {
          const transfer = msg.transfer;
          if (transfer === undefined) throw abciError(sendingErrors.missingFields, "transfer is missing");
          const sender = ref(transfer.sender);
          const recipient = ref(transfer.recipient);
          if (sender.owner === recipient.owner && sender.number === recipient.number) {
            throw abciError(sendingErrors.senderSameAsRecipient, `${sender.owner}/${sender.number}`);
          }
          checkAsset(transfer.assetId);
          checkAmount(transfer.amount);
        },
        execute(ctx, msg) {
          const transfer = msg.transfer as sending.Transfer;
          const sender = ref(transfer.sender);
          const recipient = ref(transfer.recipient);
          subaccounts.transfer(ctx, sender, recipient, transfer.amount);
          ctx.events.emitEvent("create_transfer", [
            ["sender", sender.owner],
            ["sender_number", sender.number.toString()],
            ["recipient", recipient.owner],
            ["recipient_number", recipient.number.toString()],
            ["asset_id", transfer.assetId.toString()],
            ["amount", transfer.amount.toString()],
          ]);
          return emptyResponse(sending.MsgCreateTransferResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.sending.v1.MsgDepositToSubaccount",
        schema: () => sending.MsgDepositToSubaccountSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          checkAccount(msg.sender);
          ref(msg.recipient);
          checkAsset(msg.assetId);
          checkAmount(msg.quantums);
        },
        execute(ctx, msg) {
          const recipient = ref(msg.recipient);
          subaccounts.deposit(ctx, accAddressBytes(msg.sender), recipient, msg.quantums);
          ctx.events.emitEvent("deposit_to_subaccount", [
            ["sender", msg.sender],
            ["recipient", recipient.owner],
            ["recipient_number", recipient.number.toString()],
            ["asset_id", msg.assetId.toString()],
            ["quantums", msg.quantums.toString()],
          ]);
          return emptyResponse(sending.MsgDepositToSubaccountResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.sending.v1.MsgWithdrawFromSubaccount",
        schema: () => sending.MsgWithdrawFromSubaccountSchema,
        signers: (msg) => [msg.sender?.owner ?? ""],
        validate(msg) {
          ref(msg.sender);
          checkAccount(msg.recipient);
          checkAsset(msg.assetId);
          checkAmount(msg.quantums);
        },
        execute(ctx, msg) {
          const sender = ref(msg.sender);
          subaccounts.withdraw(ctx, sender, accAddressBytes(msg.recipient), msg.quantums);
          ctx.events.emitEvent("withdraw_from_subaccount", [
            ["sender", sender.owner],
            ["sender_number", sender.number.toString()],
            ["recipient", msg.recipient],
            ["asset_id", msg.assetId.toString()],
            ["quantums", msg.quantums.toString()],
          ]);
          return emptyResponse(sending.MsgWithdrawFromSubaccountResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.sending.v1.MsgSendFromModuleToAccount",
        schema: () => sending.MsgSendFromModuleToAccountSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          checkAccount(msg.authority);
          checkAccount(msg.recipient);
          if (msg.senderModuleName === "")
            throw abciError(sendingErrors.missingFields, "sender module name is empty");
          if (msg.coin === undefined) throw abciError(sendingErrors.missingFields, "coin is missing");
        },
        execute(ctx, msg) {
          checkAuthority(msg.authority);
          bank.sendCoinsFromModuleToAccount(
            ctx,
            msg.senderModuleName,
            accAddressBytes(msg.recipient),
            coinsFromProto(msg.coin === undefined ? [] : [msg.coin]),
          );
          return emptyResponse(sending.MsgSendFromModuleToAccountResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.sending.v1.MsgSendFromAccountToAccount",
        schema: () => sending.MsgSendFromAccountToAccountSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          checkAccount(msg.authority);
          checkAccount(msg.sender);
          checkAccount(msg.recipient);
          if (msg.coin === undefined) throw abciError(sendingErrors.missingFields, "coin is missing");
        },
        execute(ctx, msg) {
          checkAuthority(msg.authority);
          bank.sendCoins(
            ctx,
            accAddressBytes(msg.sender),
            accAddressBytes(msg.recipient),
            coinsFromProto(msg.coin === undefined ? [] : [msg.coin]),
          );
          return emptyResponse(sending.MsgSendFromAccountToAccountResponseSchema);
        },
      }),
    ],
  };
}
