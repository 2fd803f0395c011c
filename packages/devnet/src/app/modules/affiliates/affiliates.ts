/**
 * x/affiliates: genesis (the reference genesis' tiers and parameters; no whitelist, no overrides),
 * referrals (`MsgRegisterAffiliate`), the governance updates with the real chain's checks, the
 * queries (an affiliate's tier from its 30-day referred volume, `affiliates-state.ts`), and the end
 * block of the affiliate stats (`affiliate-stats.ts`). Referees' taker fees pay their affiliates
 * through the revshare module at every fill.
 */
import { create, type DescMessage, type Message, type MessageShape } from "@bufbuild/protobuf";
import { affiliates, encodeSerializableInt } from "@perpx/proto";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  emptyResponse,
  genesisJson,
  type Module,
  msgHandler,
  type QueryContext,
  queryHandler,
} from "../../kernel/module.js";
import { accAddressBytes } from "../../lib/addresses.js";
import { abciError } from "../../lib/errors.js";
import type { ReadMemo } from "../../lib/read-memo.js";
import { type WireMessage, wireCreate } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import type { EpochsKeeper } from "../epochs/epochs.js";
import { affiliateStatsEndBlock, userStats } from "./affiliate-stats.js";
import {
  AFFILIATES,
  affiliateOverrides,
  affiliateParameters,
  affiliatesErrors,
  checkAffiliateAddress,
  defaultAffiliateParameters,
  defaultAffiliateTiers,
  isReferred,
  readAffiliates,
  referredBy,
  setReferredBy,
  tierForAffiliate,
  validateAffiliateTiers,
  validateAffiliateWhitelist,
  writeAffiliates,
} from "./affiliates-state.js";

/** The reference genesis (`sample_pregenesis.json`): its tiers and parameters, no whitelist, no overrides. */
export function affiliatesGenesis(): AffiliatesGenesis {
  return {
    tiers: defaultAffiliateTiers(),
    whitelist: wireCreate(wire.perpx_affiliates_v1_AffiliateWhitelist, { tiers: [] }),
    parameters: defaultAffiliateParameters(),
    overrides: wireCreate(wire.perpx_affiliates_v1_AffiliateOverrides, { addresses: [] }),
  };
}

/** What {@link createAffiliatesModule} writes at genesis. */
export interface AffiliatesGenesis {
  readonly tiers: affiliates.AffiliateTiers;
  readonly whitelist: affiliates.AffiliateWhitelist;
  readonly parameters: affiliates.AffiliateParameters;
  readonly overrides: affiliates.AffiliateOverrides;
}

/**
 * The minimum fee tier index of a referred user (the affiliate parameters'
 * `referee_minimum_fee_tier_idx`), or undefined for a user nobody referred: the fee tiers keeper's
 * referee floor. The user is given by the store-key spelling of its address (`addressKey`).
 */
export function refereeFeeTierFloor(
  ctx: StoreAccess,
  addressKey: string,
  memo?: ReadMemo,
): number | undefined {
  if (!isReferred(ctx, addressKey, memo)) return undefined;
  return affiliateParameters(ctx).refereeMinimumFeeTierIdx;
}

/**
 * The affiliate info of an address as the real chain answers it: `is_whitelisted` for an
 * overridden address, its tier and share, its 30-day referred volume (as an affiliate) and
 * attributed volume (as a referee); the deprecated all-time volume and the stake stay 0.
 */
export function affiliateInfo(ctx: QueryContext, address: string): affiliates.AffiliateInfoResponse {
  const overrides = affiliateOverrides(ctx);
  const { tier, feeSharePpm } = tierForAffiliate(ctx, address, overrides);
  const stats = userStats(ctx, address);
  const zero = encodeSerializableInt(0n);
  return create(affiliates.AffiliateInfoResponseSchema, {
    isWhitelisted: overrides.has(address),
    tier,
    feeSharePpm,
    referredVolume: zero,
    stakedAmount: zero,
    referredVolume30dRolling: encodeSerializableInt(stats.referredVolume),
    attributedVolume30dRolling: encodeSerializableInt(stats.attributedVolume),
  });
}

/** The affiliates module (the epochs keeper gives the stats epoch). */
export function createAffiliatesModule(genesis: AffiliatesGenesis, epochs: EpochsKeeper): Module {
  const gov = <Desc extends DescMessage, Stored extends Message>(
    typeUrl: string,
    schema: () => Desc,
    response: () => DescMessage,
    key: string,
    stored: WireMessage<Stored>,
    pick: (msg: MessageShape<Desc>) => { authority: string; value: Stored | undefined },
    validate: (value: Stored) => void = () => undefined,
  ) =>
    msgHandler({
      typeUrl,
      schema,
      signers: (msg) => [pick(msg).authority],
      execute(ctx, msg) {
        const { authority, value } = pick(msg);
        requireGovAuthority(authority, affiliatesErrors.invalidAuthority);
        const next = value ?? wireCreate(stored);
        validate(next);
        writeAffiliates(ctx, key, stored, next);
        return emptyResponse(response());
      },
    });
  return {
    name: AFFILIATES,
    initGenesis(ctx) {
      writeAffiliates(ctx, "tiers", wire.perpx_affiliates_v1_AffiliateTiers, genesis.tiers);
      writeAffiliates(ctx, "whitelist", wire.perpx_affiliates_v1_AffiliateWhitelist, genesis.whitelist);
      writeAffiliates(ctx, "parameters", wire.perpx_affiliates_v1_AffiliateParameters, genesis.parameters);
      writeAffiliates(ctx, "overrides", wire.perpx_affiliates_v1_AffiliateOverrides, genesis.overrides);
    },
    exportGenesis(ctx) {
      const json = <T extends Message>(schema: DescMessage, table: WireMessage<T>, key: string) =>
        genesisJson(schema, readAffiliates(ctx, key, table));
      return {
        affiliate_tiers: json(
          affiliates.AffiliateTiersSchema,
          wire.perpx_affiliates_v1_AffiliateTiers,
          "tiers",
        ),
        affiliate_whitelist: json(
          affiliates.AffiliateWhitelistSchema,
          wire.perpx_affiliates_v1_AffiliateWhitelist,
          "whitelist",
        ),
        affiliate_parameters: json(
          affiliates.AffiliateParametersSchema,
          wire.perpx_affiliates_v1_AffiliateParameters,
          "parameters",
        ),
        affiliate_overrides: json(
          affiliates.AffiliateOverridesSchema,
          wire.perpx_affiliates_v1_AffiliateOverrides,
          "overrides",
        ),
      };
    },
    endBlock(ctx) {
      affiliateStatsEndBlock(ctx, epochs);
    },
    msgs: [
      msgHandler({
        typeUrl: "/perpx.affiliates.v1.MsgRegisterAffiliate",
        schema: () => affiliates.MsgRegisterAffiliateSchema,
        signers: (msg) => [msg.referee],
        execute(ctx, msg) {
          // The real keeper's order: self-referral, the two addresses, an existing referral, no tiers.
          if (msg.referee === msg.affiliate) {
            throw abciError(
              affiliatesErrors.selfReferral,
              `referee: ${msg.referee}, affiliate: ${msg.affiliate}`,
            );
          }
          const referee = checkAffiliateAddress(msg.referee, "referee");
          checkAffiliateAddress(msg.affiliate, "affiliate");
          const existing = referredBy(ctx, msg.referee);
          if (existing !== undefined) {
            throw abciError(
              affiliatesErrors.alreadyRegistered,
              `referee: ${msg.referee}, affiliate: ${msg.affiliate}`,
            );
          }
          if (readAffiliates(ctx, "tiers", wire.perpx_affiliates_v1_AffiliateTiers).tiers.length === 0) {
            throw abciError(affiliatesErrors.tiersNotSet);
          }
          setReferredBy(ctx, referee, msg.affiliate);
          ctx.events.indexer({
            kind: "affiliate_registered",
            referee: msg.referee,
            affiliate: msg.affiliate,
          });
          ctx.events.emitEvent("register_affiliate", [
            ["referee", msg.referee],
            ["affiliate", msg.affiliate],
          ]);
          return emptyResponse(affiliates.MsgRegisterAffiliateResponseSchema);
        },
      }),
      gov(
        "/perpx.affiliates.v1.MsgUpdateAffiliateTiers",
        () => affiliates.MsgUpdateAffiliateTiersSchema,
        () => affiliates.MsgUpdateAffiliateTiersResponseSchema,
        "tiers",
        wire.perpx_affiliates_v1_AffiliateTiers,
        (m) => ({ authority: m.authority, value: m.tiers }),
        validateAffiliateTiers,
      ),
      gov(
        "/perpx.affiliates.v1.MsgUpdateAffiliateWhitelist",
        () => affiliates.MsgUpdateAffiliateWhitelistSchema,
        () => affiliates.MsgUpdateAffiliateWhitelistResponseSchema,
        "whitelist",
        wire.perpx_affiliates_v1_AffiliateWhitelist,
        (m) => ({ authority: m.authority, value: m.whitelist }),
        validateAffiliateWhitelist,
      ),
      gov(
        "/perpx.affiliates.v1.MsgUpdateAffiliateParameters",
        () => affiliates.MsgUpdateAffiliateParametersSchema,
        () => affiliates.MsgUpdateAffiliateParametersResponseSchema,
        "parameters",
        wire.perpx_affiliates_v1_AffiliateParameters,
        (m) => ({ authority: m.authority, value: m.affiliateParameters }),
      ),
      gov(
        "/perpx.affiliates.v1.MsgUpdateAffiliateOverrides",
        () => affiliates.MsgUpdateAffiliateOverridesSchema,
        () => affiliates.MsgUpdateAffiliateOverridesResponseSchema,
        "overrides",
        wire.perpx_affiliates_v1_AffiliateOverrides,
        (m) => ({ authority: m.authority, value: m.affiliateOverrides }),
      ),
    ],
    queries: {
      "/perpx.affiliates.v1.Query/AffiliateInfo": queryHandler(
        () => affiliates.AffiliateInfoRequestSchema,
        () => affiliates.AffiliateInfoResponseSchema,
        (ctx, req) => {
          accAddressBytes(req.address, "invalid affiliate address");
          return affiliateInfo(ctx, req.address);
        },
      ),
      "/perpx.affiliates.v1.Query/ReferredBy": queryHandler(
        () => affiliates.ReferredByRequestSchema,
        () => affiliates.ReferredByResponseSchema,
        (ctx, req) => {
          accAddressBytes(req.address, "invalid address");
          return create(affiliates.ReferredByResponseSchema, {
            affiliateAddress: referredBy(ctx, req.address) ?? "",
          });
        },
      ),
      "/perpx.affiliates.v1.Query/AllAffiliateTiers": queryHandler(
        () => affiliates.AllAffiliateTiersRequestSchema,
        () => affiliates.AllAffiliateTiersResponseSchema,
        (ctx) =>
          create(affiliates.AllAffiliateTiersResponseSchema, {
            tiers: readAffiliates(ctx, "tiers", wire.perpx_affiliates_v1_AffiliateTiers),
          }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateWhitelist": queryHandler(
        () => affiliates.AffiliateWhitelistRequestSchema,
        () => affiliates.AffiliateWhitelistResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateWhitelistResponseSchema, {
            whitelist: readAffiliates(ctx, "whitelist", wire.perpx_affiliates_v1_AffiliateWhitelist),
          }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateParameters": queryHandler(
        () => affiliates.AffiliateParametersRequestSchema,
        () => affiliates.AffiliateParametersResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateParametersResponseSchema, { parameters: affiliateParameters(ctx) }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateOverrides": queryHandler(
        () => affiliates.AffiliateOverridesRequestSchema,
        () => affiliates.AffiliateOverridesResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateOverridesResponseSchema, {
            overrides: readAffiliates(ctx, "overrides", wire.perpx_affiliates_v1_AffiliateOverrides),
          }),
      ),
    },
  };
}
