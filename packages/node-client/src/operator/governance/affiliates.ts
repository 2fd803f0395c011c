/**
 * Governance messages of the affiliate program (tiers, whitelist, parameters, overrides) and of
 * smart accounts (whether authenticators are on).
 */
import type { IntegerInput } from "@perpx/core";
import { accountplus, affiliates } from "@perpx/proto";
import { bech32Address, checkParams, uint32, uint64 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, bool, type GovernanceParams, list, object, ppm } from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * One affiliate tier: the referred volume it needs and the taker fee share it earns.
 *
 * @example
 * ```ts
 * const tier: AffiliateTierInput = { reqReferredVolumeQuoteQuantums: 1_000_000_000_000n, takerFeeSharePpm: 50_000 };
 * ```
 */
export interface AffiliateTierInput {
  /** Referred volume required, in quote quantums. */
  reqReferredVolumeQuoteQuantums: IntegerInput;
  /** The share of referred users' taker fees paid to the affiliate, in ppm. */
  takerFeeSharePpm: number;
}

/**
 * Parameters of {@link updateAffiliateTiersMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateAffiliateTiersParams = { tiers: [{ reqReferredVolumeQuoteQuantums: 0n, takerFeeSharePpm: 50_000 }] };
 * ```
 */
export interface UpdateAffiliateTiersParams extends GovernanceParams {
  /** The tiers, from the lowest. */
  tiers: readonly AffiliateTierInput[];
}

/**
 * Builds a `MsgUpdateAffiliateTiers` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateAffiliateTiersParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateAffiliateTiersMsg({ tiers: [{ reqReferredVolumeQuoteQuantums: 0n, takerFeeSharePpm: 50_000 }] });
 * ```
 */
export function updateAffiliateTiersMsg(
  params: UpdateAffiliateTiersParams,
): TxMessage<typeof affiliates.MsgUpdateAffiliateTiersSchema> {
  checkParams(params, "updateAffiliateTiersMsg");
  const tiers = list(params.tiers, "tiers").map((tier, i) => {
    object(tier, `tiers[${i}]`);
    return {
      reqReferredVolumeQuoteQuantums: uint64(
        tier.reqReferredVolumeQuoteQuantums,
        `tiers[${i}].reqReferredVolumeQuoteQuantums`,
      ),
      takerFeeSharePpm: ppm(tier.takerFeeSharePpm, `tiers[${i}].takerFeeSharePpm`),
    };
  });
  return govMsg(affiliates.MsgUpdateAffiliateTiersSchema, {
    authority: authorityOf(params),
    tiers: { tiers },
  });
}

/** Validated bech32 addresses. @throws {InvalidAddressError | InvalidArgumentError} */
function addresses(values: readonly string[], argument: string): string[] {
  return list(values, argument).map((address) => bech32Address(address));
}

/**
 * Parameters of {@link updateAffiliateWhitelistMsg}.
 *
 * @example
 * ```ts
 * const partner = LocalWallet.generate().address;
 * const params: UpdateAffiliateWhitelistParams = { tiers: [{ addresses: [partner], takerFeeSharePpm: 250_000 }] };
 * ```
 */
export interface UpdateAffiliateWhitelistParams extends GovernanceParams {
  /** Whitelisted affiliates and the fee share each group earns. */
  tiers: readonly { addresses: readonly string[]; takerFeeSharePpm: number }[];
}

/**
 * Builds a `MsgUpdateAffiliateWhitelist` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateAffiliateWhitelistParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const partner = LocalWallet.generate().address;
 * const msg = updateAffiliateWhitelistMsg({ tiers: [{ addresses: [partner], takerFeeSharePpm: 250_000 }] });
 * ```
 */
export function updateAffiliateWhitelistMsg(
  params: UpdateAffiliateWhitelistParams,
): TxMessage<typeof affiliates.MsgUpdateAffiliateWhitelistSchema> {
  checkParams(params, "updateAffiliateWhitelistMsg");
  const tiers = list(params.tiers, "tiers").map((tier, i) => {
    object(tier, `tiers[${i}]`);
    return {
      addresses: addresses(tier.addresses, `tiers[${i}].addresses`),
      takerFeeSharePpm: ppm(tier.takerFeeSharePpm, `tiers[${i}].takerFeeSharePpm`),
    };
  });
  return govMsg(affiliates.MsgUpdateAffiliateWhitelistSchema, {
    authority: authorityOf(params),
    whitelist: { tiers },
  });
}

/**
 * Parameters of {@link updateAffiliateParametersMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateAffiliateParametersParams = { maximum30dAttributableVolumePerReferredUserQuoteQuantums: 10n ** 14n, refereeMinimumFeeTierIdx: 2, maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10n ** 10n };
 * ```
 */
export interface UpdateAffiliateParametersParams extends GovernanceParams {
  /** The most 30-day volume of one referred user attributed to the affiliate, quote quantums. */
  maximum30dAttributableVolumePerReferredUserQuoteQuantums: IntegerInput;
  /** The fee tier index a referred user gets at least. */
  refereeMinimumFeeTierIdx: number;
  /** The most 30-day revenue per referred user, quote quantums. */
  maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: IntegerInput;
}

/**
 * Builds a `MsgUpdateAffiliateParameters` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateAffiliateParametersParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateAffiliateParametersMsg({ maximum30dAttributableVolumePerReferredUserQuoteQuantums: 10n ** 14n, refereeMinimumFeeTierIdx: 2, maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10n ** 10n });
 * ```
 */
export function updateAffiliateParametersMsg(
  params: UpdateAffiliateParametersParams,
): TxMessage<typeof affiliates.MsgUpdateAffiliateParametersSchema> {
  checkParams(params, "updateAffiliateParametersMsg");
  return govMsg(affiliates.MsgUpdateAffiliateParametersSchema, {
    authority: authorityOf(params),
    affiliateParameters: {
      maximum30dAttributableVolumePerReferredUserQuoteQuantums: uint64(
        params.maximum30dAttributableVolumePerReferredUserQuoteQuantums,
        "maximum30dAttributableVolumePerReferredUserQuoteQuantums",
      ),
      refereeMinimumFeeTierIdx: uint32(params.refereeMinimumFeeTierIdx, "refereeMinimumFeeTierIdx"),
      maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: uint64(
        params.maximum30dAffiliateRevenuePerReferredUserQuoteQuantums,
        "maximum30dAffiliateRevenuePerReferredUserQuoteQuantums",
      ),
    },
  });
}

/**
 * Parameters of {@link updateAffiliateOverridesMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateAffiliateOverridesParams = { addresses: [wallet.address] };
 * ```
 */
export interface UpdateAffiliateOverridesParams extends GovernanceParams {
  /** The affiliates that earn the top tier whatever their volume. */
  addresses: readonly string[];
}

/**
 * Builds a `MsgUpdateAffiliateOverrides` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateAffiliateOverridesParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateAffiliateOverridesMsg({ addresses: [wallet.address] });
 * ```
 */
export function updateAffiliateOverridesMsg(
  params: UpdateAffiliateOverridesParams,
): TxMessage<typeof affiliates.MsgUpdateAffiliateOverridesSchema> {
  checkParams(params, "updateAffiliateOverridesMsg");
  return govMsg(affiliates.MsgUpdateAffiliateOverridesSchema, {
    authority: authorityOf(params),
    affiliateOverrides: { addresses: addresses(params.addresses, "addresses") },
  });
}

/**
 * Parameters of {@link setSmartAccountActiveMsg}.
 *
 * @example
 * ```ts
 * const params: SetSmartAccountActiveParams = { active: true };
 * ```
 */
export interface SetSmartAccountActiveParams extends GovernanceParams {
  /** Whether authenticators (trading keys) are honoured. */
  active: boolean;
}

/**
 * Builds an accountplus `MsgSetActiveState` (governance): turns smart accounts on or off.
 *
 * @param params - the message's fields in chain units (`SetSmartAccountActiveParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setSmartAccountActiveMsg({ active: false });
 * ```
 */
export function setSmartAccountActiveMsg(
  params: SetSmartAccountActiveParams,
): TxMessage<typeof accountplus.MsgSetActiveStateSchema> {
  checkParams(params, "setSmartAccountActiveMsg");
  return govMsg(accountplus.MsgSetActiveStateSchema, {
    authority: authorityOf(params),
    active: bool(params.active, "active"),
  });
}
