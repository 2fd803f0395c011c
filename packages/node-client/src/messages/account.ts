/**
 * Builders of the account-level messages a trader sends besides orders and transfers: leverage
 * per market, an affiliate referral, and a bridge withdrawal to an EVM chain.
 */
import { create } from "@bufbuild/protobuf";
import { type IntegerInput, InvalidArgumentError, parseAddress, type SubaccountRef } from "@perpx/core";
import { affiliates, bridge, clob, cosmosBase, typeUrlOf } from "@perpx/proto";
import type { TxMessage } from "../tx/encode.js";
import {
  bech32Address,
  checkParams,
  nonEmpty,
  positiveAmount,
  subaccountId,
  uint32,
  uint64,
} from "./validate.js";

/** The largest initial margin fraction: 100%. */
const MAX_IMF_PPM = 1_000_000;

/**
 * One market's leverage setting: its initial margin fraction in ppm (`1_000_000 / leverage`).
 *
 * @example
 * ```ts
 * const fiveTimes: LeverageSetting = { clobPairId: 0, imfPpm: 200_000 };
 * ```
 */
export interface LeverageSetting {
  /** The clob pair. */
  clobPairId: number;
  /** The chosen initial margin fraction, ppm, in 1..1,000,000 (200,000 = 5x). */
  imfPpm: number;
}

/**
 * Parameters of {@link updateLeverageMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateLeverageParams = { subaccount: { owner: wallet.address, number: 0 }, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] };
 * ```
 */
export interface UpdateLeverageParams {
  /** The subaccount whose leverage changes. */
  subaccount: SubaccountRef;
  /** One setting per clob pair (each pair at most once). */
  leverage: readonly LeverageSetting[];
}

/**
 * Builds a clob `MsgUpdateLeverage` (a fee-free clob message, like orders).
 *
 * @param params - the message's fields in chain units (`UpdateLeverageParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidSubaccountError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = updateLeverageMsg({ subaccount: { owner: wallet.address, number: 0 }, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] });
 * ```
 */
export function updateLeverageMsg(
  params: UpdateLeverageParams,
): TxMessage<typeof clob.MsgUpdateLeverageSchema> {
  checkParams(params, "updateLeverageMsg");
  if (!Array.isArray(params.leverage) || params.leverage.length === 0) {
    throw new InvalidArgumentError("leverage", "must hold at least one { clobPairId, imfPpm }");
  }
  const seen = new Set<number>();
  const entries = params.leverage.map((setting, i) => {
    checkParams(setting, `leverage[${i}]`);
    const clobPairId = uint32(setting.clobPairId, `leverage[${i}].clobPairId`);
    if (seen.has(clobPairId))
      throw new InvalidArgumentError(`leverage[${i}].clobPairId`, `repeats ${clobPairId}`);
    seen.add(clobPairId);
    const imfPpm = setting.imfPpm;
    if (!Number.isInteger(imfPpm) || imfPpm < 1 || imfPpm > MAX_IMF_PPM) {
      throw new InvalidArgumentError(
        `leverage[${i}].imfPpm`,
        `must be an integer from 1 to ${MAX_IMF_PPM} (ppm), got ${String(imfPpm)}`,
      );
    }
    return create(clob.LeverageEntrySchema, { clobPairId, customImfPpm: imfPpm });
  });
  return {
    typeUrl: typeUrlOf(clob.MsgUpdateLeverageSchema),
    value: create(clob.MsgUpdateLeverageSchema, {
      subaccountId: subaccountId(params.subaccount, "subaccount"),
      clobPairLeverage: entries,
    }),
  };
}

/**
 * Parameters of {@link registerAffiliateMsg}.
 *
 * @example
 * ```ts
 * const params: RegisterAffiliateParams = { referee: wallet.address, affiliate: "perpx1..." };
 * ```
 */
export interface RegisterAffiliateParams {
  /** The account being referred: the signer (either address form). */
  referee: string;
  /** The affiliate who referred it (either address form); not the referee. */
  affiliate: string;
}

/**
 * Builds an affiliates `MsgRegisterAffiliate`: records who referred the referee (once per referee).
 *
 * @param params - the message's fields in chain units (`RegisterAffiliateParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const affiliate = LocalWallet.generate().address;
 * const msg = registerAffiliateMsg({ referee: wallet.address, affiliate });
 * msg.value.affiliate === affiliate; // true
 * ```
 */
export function registerAffiliateMsg(
  params: RegisterAffiliateParams,
): TxMessage<typeof affiliates.MsgRegisterAffiliateSchema> {
  checkParams(params, "registerAffiliateMsg");
  const referee = bech32Address(params.referee);
  const affiliate = bech32Address(params.affiliate);
  if (referee === affiliate) throw new InvalidArgumentError("affiliate", "must not be the referee");
  return {
    typeUrl: typeUrlOf(affiliates.MsgRegisterAffiliateSchema),
    value: create(affiliates.MsgRegisterAffiliateSchema, { referee, affiliate }),
  };
}

/**
 * Parameters of {@link initiateWithdrawalMsg}.
 *
 * @example
 * ```ts
 * const params: InitiateWithdrawalParams = { sender: wallet.address, recipient: "0x52908400098527886E0F7030069857D2E4169EE7", denom: "uusdc", amount: 5_000_000n, ethChainId: 11155111n };
 * ```
 */
export interface InitiateWithdrawalParams {
  /** The account debited: the signer (either address form). */
  sender: string;
  /** The `0x` address credited on the destination chain. */
  recipient: string;
  /** The denom withdrawn (the bridged denom of `ethChainId`). */
  denom: string;
  /** Amount in base units, > 0. */
  amount: IntegerInput;
  /** The EVM chain id of the destination (one of the bridge's event params). */
  ethChainId: IntegerInput;
}

/**
 * Builds a bridge `MsgInitiateWithdrawal`: debits the sender and queues a withdrawal for the
 * bridge's validators to sign (subject to the ratelimit module's limits, fee and timelock).
 *
 * @param params - the message's fields in chain units (`InitiateWithdrawalParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const recipient = "0x8ba1f109551bD432803012645Ac136ddd64DBA72"; // on Sepolia
 * const msg = initiateWithdrawalMsg({ sender: wallet.address, recipient, denom: "uusdc", amount: 5_000_000n, ethChainId: 11155111n });
 * msg.typeUrl; // "/perpx.bridge.v1.MsgInitiateWithdrawal"
 * ```
 */
export function initiateWithdrawalMsg(
  params: InitiateWithdrawalParams,
): TxMessage<typeof bridge.MsgInitiateWithdrawalSchema> {
  checkParams(params, "initiateWithdrawalMsg");
  if (typeof params.recipient !== "string" || !/^0x/i.test(params.recipient)) {
    throw new InvalidArgumentError("recipient", "must be the 0x address credited on the destination chain");
  }
  const ethChainId = uint64(params.ethChainId, "ethChainId");
  if (ethChainId === 0n) throw new InvalidArgumentError("ethChainId", "must be greater than zero");
  return {
    typeUrl: typeUrlOf(bridge.MsgInitiateWithdrawalSchema),
    value: create(bridge.MsgInitiateWithdrawalSchema, {
      sender: bech32Address(params.sender),
      recipient: parseAddress(params.recipient).hex,
      coin: create(cosmosBase.CoinSchema, {
        denom: nonEmpty(params.denom, "denom"),
        amount: positiveAmount(params.amount, "amount"),
      }),
      ethChainId,
    }),
  };
}
