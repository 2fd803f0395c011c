/**
 * x/affiliates: regular tiers, the whitelist, program parameters and overrides (genesis values of
 * the reference chain, replaceable by governance), referrals (`MsgRegisterAffiliate`) and the
 * queries. The devnet tracks no referred volume yet, so volumes read 0 and the regular tier is the
 * lowest one unless the address is whitelisted or overridden.
 *
 * Store slice `affiliates/`: `tiers`, `whitelist`, `parameters`, `overrides` (their messages);
 * `referred_by/<referee hex20>`: the affiliate's bech32 address.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { affiliates, encodeSerializableInt } from "@perpx/proto";
import { accAddressBytes, addressKey, bech32Of } from "../addresses.js";
import { fromUtf8, utf8 } from "../codec.js";
import { abciError, registerError } from "../errors.js";
import type { ChainConfig } from "../genesis.js";
import { requireGovAuthority } from "../governance.js";
import {
  type Context,
  emptyResponse,
  genesisJson,
  type Module,
  msgHandler,
  type QueryContext,
  queryHandler,
} from "../module.js";
import type { StoreAccess } from "./auth.js";

/** The module's name, store prefix and codespace. */
export const AFFILIATES = "affiliates";

/** Errors of codespace `affiliates`. */
export const affiliatesErrors = {
  alreadyRegistered: registerError(AFFILIATES, 1, "affiliate already exists for referee"),
  invalidAddress: registerError(AFFILIATES, 2, "invalid address"),
  selfReferral: registerError(AFFILIATES, 3, "referee and affiliate cannot be the same"),
  invalidAuthority: registerError(AFFILIATES, 4, "invalid authority"),
  invalidTiers: registerError(AFFILIATES, 5, "invalid affiliate tiers"),
} as const;

/** Genesis tiers (the reference chain's defaults). */
export function defaultAffiliateTiers(): affiliates.AffiliateTiers {
  const tier = (volume: bigint, ppm: number) =>
    create(affiliates.AffiliateTiers_TierSchema, {
      reqReferredVolumeQuoteQuantums: volume,
      reqStakedWholeCoins: 0,
      takerFeeSharePpm: ppm,
    });
  return create(affiliates.AffiliateTiersSchema, {
    tiers: [
      tier(0n, 50_000),
      tier(1_000_000_000_000n, 100_000),
      tier(5_000_000_000_000n, 125_000),
      tier(25_000_000_000_000n, 150_000),
    ],
  });
}

/** Genesis parameters (the reference chain's defaults). */
export function defaultAffiliateParameters(): affiliates.AffiliateParameters {
  return create(affiliates.AffiliateParametersSchema, {
    maximum30dAttributableVolumePerReferredUserQuoteQuantums: 100_000_000_000_000n,
    refereeMinimumFeeTierIdx: 2,
    maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10_000_000_000n,
  });
}

function read<Desc extends DescMessage>(ctx: StoreAccess, key: string, schema: Desc): MessageShape<Desc> {
  const bytes = ctx.store(AFFILIATES).get(key);
  return bytes === undefined ? create(schema) : fromBinary(schema, bytes);
}

function write<Desc extends DescMessage>(
  ctx: Context,
  key: string,
  schema: Desc,
  value: MessageShape<Desc>,
): void {
  ctx.store(AFFILIATES).set(key, toBinary(schema, value));
}

/**
 * The devnet's genesis: the default tiers and parameters, the last genesis test account
 * whitelisted at 250,000 ppm (to show the whitelist), no overrides.
 */
export function affiliatesGenesis(config: ChainConfig): AffiliatesGenesis {
  const last = config.accounts.at(-1);
  return {
    tiers: defaultAffiliateTiers(),
    whitelist: create(affiliates.AffiliateWhitelistSchema, {
      tiers:
        last === undefined
          ? []
          : [
              create(affiliates.AffiliateWhitelist_TierSchema, {
                addresses: [bech32Of(last)],
                takerFeeSharePpm: 250_000,
              }),
            ],
    }),
    parameters: defaultAffiliateParameters(),
    overrides: create(affiliates.AffiliateOverridesSchema, { addresses: [] }),
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
 * referee floor.
 */
export function refereeFeeTierFloor(ctx: StoreAccess, address: Uint8Array): number | undefined {
  if (ctx.store(AFFILIATES).get(`referred_by/${addressKey(address)}`) === undefined) return undefined;
  return read(ctx, "parameters", affiliates.AffiliateParametersSchema).refereeMinimumFeeTierIdx;
}

/** The affiliate info of an address. */
export function affiliateInfo(ctx: QueryContext, address: string): affiliates.AffiliateInfoResponse {
  const tiers = read(ctx, "tiers", affiliates.AffiliateTiersSchema).tiers;
  const whitelist = read(ctx, "whitelist", affiliates.AffiliateWhitelistSchema);
  const overrides = read(ctx, "overrides", affiliates.AffiliateOverridesSchema);
  const zero = encodeSerializableInt(0n);
  const listed = whitelist.tiers.find((t) => t.addresses.includes(address));
  if (listed !== undefined) {
    return create(affiliates.AffiliateInfoResponseSchema, {
      isWhitelisted: true,
      tier: 0,
      feeSharePpm: listed.takerFeeSharePpm,
      referredVolume: zero,
      stakedAmount: zero,
      referredVolume30dRolling: zero,
      attributedVolume30dRolling: zero,
    });
  }
  const index = overrides.addresses.includes(address) ? Math.max(0, tiers.length - 1) : 0;
  return create(affiliates.AffiliateInfoResponseSchema, {
    isWhitelisted: false,
    tier: index,
    feeSharePpm: tiers[index]?.takerFeeSharePpm ?? 0,
    referredVolume: zero,
    stakedAmount: zero,
    referredVolume30dRolling: zero,
    attributedVolume30dRolling: zero,
  });
}

/** The affiliates module. */
export function createAffiliatesModule(genesis: AffiliatesGenesis): Module {
  const gov = <Desc extends DescMessage>(
    schema: Desc,
    response: DescMessage,
    key: string,
    stored: DescMessage,
    pick: (msg: MessageShape<Desc>) => { authority: string; value: MessageShape<DescMessage> | undefined },
  ) =>
    msgHandler({
      schema,
      signers: (msg) => [pick(msg).authority],
      execute(ctx, msg) {
        const { authority, value } = pick(msg);
        requireGovAuthority(authority, affiliatesErrors.invalidAuthority);
        write(ctx, key, stored, value ?? create(stored));
        return emptyResponse(response);
      },
    });
  return {
    name: AFFILIATES,
    initGenesis(ctx) {
      write(ctx, "tiers", affiliates.AffiliateTiersSchema, genesis.tiers);
      write(ctx, "whitelist", affiliates.AffiliateWhitelistSchema, genesis.whitelist);
      write(ctx, "parameters", affiliates.AffiliateParametersSchema, genesis.parameters);
      write(ctx, "overrides", affiliates.AffiliateOverridesSchema, genesis.overrides);
    },
    exportGenesis(ctx) {
      const json = (schema: DescMessage, key: string) => genesisJson(schema, read(ctx, key, schema));
      return {
        affiliate_tiers: json(affiliates.AffiliateTiersSchema, "tiers"),
        affiliate_whitelist: json(affiliates.AffiliateWhitelistSchema, "whitelist"),
        affiliate_parameters: json(affiliates.AffiliateParametersSchema, "parameters"),
        affiliate_overrides: json(affiliates.AffiliateOverridesSchema, "overrides"),
      };
    },
    msgs: [
      msgHandler({
        schema: affiliates.MsgRegisterAffiliateSchema,
        signers: (msg) => [msg.referee],
        execute(ctx, msg) {
          const referee = accAddressBytes(msg.referee, "invalid referee address");
          accAddressBytes(msg.affiliate, "invalid affiliate address");
          if (msg.referee === msg.affiliate) throw abciError(affiliatesErrors.selfReferral, msg.referee);
          const key = `referred_by/${addressKey(referee)}`;
          const existing = ctx.store(AFFILIATES).get(key);
          if (existing !== undefined) {
            throw abciError(
              affiliatesErrors.alreadyRegistered,
              `referee ${msg.referee}, affiliate ${fromUtf8(existing)}`,
            );
          }
          ctx.store(AFFILIATES).set(key, utf8(msg.affiliate));
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
        affiliates.MsgUpdateAffiliateTiersSchema,
        affiliates.MsgUpdateAffiliateTiersResponseSchema,
        "tiers",
        affiliates.AffiliateTiersSchema,
        (m) => ({ authority: m.authority, value: m.tiers }),
      ),
      gov(
        affiliates.MsgUpdateAffiliateWhitelistSchema,
        affiliates.MsgUpdateAffiliateWhitelistResponseSchema,
        "whitelist",
        affiliates.AffiliateWhitelistSchema,
        (m) => ({ authority: m.authority, value: m.whitelist }),
      ),
      gov(
        affiliates.MsgUpdateAffiliateParametersSchema,
        affiliates.MsgUpdateAffiliateParametersResponseSchema,
        "parameters",
        affiliates.AffiliateParametersSchema,
        (m) => ({ authority: m.authority, value: m.affiliateParameters }),
      ),
      gov(
        affiliates.MsgUpdateAffiliateOverridesSchema,
        affiliates.MsgUpdateAffiliateOverridesResponseSchema,
        "overrides",
        affiliates.AffiliateOverridesSchema,
        (m) => ({ authority: m.authority, value: m.affiliateOverrides }),
      ),
    ],
    queries: {
      "/perpx.affiliates.v1.Query/AffiliateInfo": queryHandler(
        affiliates.AffiliateInfoRequestSchema,
        affiliates.AffiliateInfoResponseSchema,
        (ctx, req) => {
          accAddressBytes(req.address, "invalid affiliate address");
          return affiliateInfo(ctx, req.address);
        },
      ),
      "/perpx.affiliates.v1.Query/ReferredBy": queryHandler(
        affiliates.ReferredByRequestSchema,
        affiliates.ReferredByResponseSchema,
        (ctx, req) => {
          const bytes = ctx.store(AFFILIATES).get(`referred_by/${addressKey(accAddressBytes(req.address))}`);
          return create(affiliates.ReferredByResponseSchema, {
            affiliateAddress: bytes === undefined ? "" : fromUtf8(bytes),
          });
        },
      ),
      "/perpx.affiliates.v1.Query/AllAffiliateTiers": queryHandler(
        affiliates.AllAffiliateTiersRequestSchema,
        affiliates.AllAffiliateTiersResponseSchema,
        (ctx) =>
          create(affiliates.AllAffiliateTiersResponseSchema, {
            tiers: read(ctx, "tiers", affiliates.AffiliateTiersSchema),
          }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateWhitelist": queryHandler(
        affiliates.AffiliateWhitelistRequestSchema,
        affiliates.AffiliateWhitelistResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateWhitelistResponseSchema, {
            whitelist: read(ctx, "whitelist", affiliates.AffiliateWhitelistSchema),
          }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateParameters": queryHandler(
        affiliates.AffiliateParametersRequestSchema,
        affiliates.AffiliateParametersResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateParametersResponseSchema, {
            parameters: read(ctx, "parameters", affiliates.AffiliateParametersSchema),
          }),
      ),
      "/perpx.affiliates.v1.Query/AffiliateOverrides": queryHandler(
        affiliates.AffiliateOverridesRequestSchema,
        affiliates.AffiliateOverridesResponseSchema,
        (ctx) =>
          create(affiliates.AffiliateOverridesResponseSchema, {
            overrides: read(ctx, "overrides", affiliates.AffiliateOverridesSchema),
          }),
      ),
    },
  };
}
