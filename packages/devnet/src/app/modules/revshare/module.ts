/**
 * The revshare module: genesis (the reference genesis' market mapper parameters: the fee
 * collector, 0 ppm, 0 days; no unconditional recipients), the governance messages with the real
 * chain's checks (`MsgSetMarketMapperRevenueShare`, `MsgSetMarketMapperRevShareDetailsForMarket`,
 * `MsgUpdateUnconditionalRevShareConfig`, `MsgSetOrderRouterRevShare`) and the four queries. The
 * fills' shares are `fill.ts`.
 */
import { create } from "@bufbuild/protobuf";
import { type feetiers, revshare } from "@perpx/proto";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  emptyResponse,
  genesisJson,
  type Module,
  msgHandler,
  notFound,
  queryHandler,
} from "../../kernel/module.js";
import { bech32Of, moduleAddress } from "../../lib/addresses.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { wireCreate } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import { AFFILIATES_REV_SHARE_PPM_CAP } from "../affiliates/affiliates-state.js";
import type { StoreAccess } from "../auth/auth.js";
import type { FeeTiersKeeper } from "../feetiers/feetiers.js";
import {
  checkRevShareAddress,
  MAX_ORDER_ROUTER_SHARE_PPM,
  REVSHARE,
  type RevShareKeeper,
  revshareErrors,
} from "./keeper.js";
import { MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE } from "./shares.js";

/** The fee tier a referred user starts at (the real chain's `RefereeStartingFeeTier`). */
const REFEREE_STARTING_FEE_TIER = 2;
const INT32_MAX = 2_147_483_647;

/** The reference genesis' market mapper parameters: the fee collector, no share, no days. */
export function defaultMarketMapperParams(): revshare.MarketMapperRevenueShareParams {
  return wireCreate(wire.perpx_revshare_v1_MarketMapperRevenueShareParams, {
    address: bech32Of(moduleAddress("fee_collector")),
    revenueSharePpm: 0,
    validDays: 0,
  });
}

/**
 * The lowest taker fee a referred user may pay (the real chain's
 * `GetAffiliateRefereeLowestTakerFeeFromTiers`): the last tier below 50M USDC of volume, or the
 * referee starting tier when that is lower.
 */
function refereeLowestTakerFee(tiers: readonly feetiers.PerpetualFeeTier[]): number {
  let fee = INT32_MAX;
  for (const tier of tiers) {
    if (tier.absoluteVolumeRequirement >= MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE) break;
    fee = tier.takerFeePpm;
  }
  const starting = tiers[REFEREE_STARTING_FEE_TIER];
  return starting === undefined ? fee : Math.min(fee, starting.takerFeePpm);
}

/**
 * The real chain's `ValidateRevShareSafety`: unconditional and market mapper shares below 100%, and
 * the lowest taker plus maker fee (as Go's uint64 sum) at least half the lowest referee taker fee
 * (the affiliates' share cap), rounded up.
 */
function revShareSafe(
  ctx: StoreAccess,
  feeTiers: FeeTiersKeeper,
  unconditional: revshare.UnconditionalRevShareConfig,
  mapper: revshare.MarketMapperRevenueShareParams,
): boolean {
  const total = unconditional.configs.reduce((sum, c) => sum + c.sharePpm, 0) + mapper.revenueSharePpm;
  if (total >= 1_000_000) return false;
  const tiers = feeTiers.params(ctx).tiers;
  const taker = refereeLowestTakerFee(tiers);
  const maker = tiers.reduce((low, t) => Math.min(low, t.makerFeePpm), INT32_MAX);
  const net = BigInt.asUintN(64, BigInt(taker) + BigInt(maker));
  const capped = BigInt(taker) * BigInt(AFFILIATES_REV_SHARE_PPM_CAP);
  const ceil = capped / 1_000_000n + (capped % 1_000_000n > 0n ? 1n : 0n);
  return net >= ceil;
}

function safetyViolation(): never {
  throw abciError(revshareErrors.revShareSafetyViolation, "rev share safety violation");
}

/** The revshare module (the fee tiers keeper gives the lowest fees of the safety check). */
export function createRevShareModule(keeper: RevShareKeeper, feeTiers: FeeTiersKeeper): Module {
  return {
    name: REVSHARE,
    initGenesis(ctx) {
      keeper.setMarketMapperParams(ctx, defaultMarketMapperParams());
    },
    exportGenesis() {
      // As the real chain: its export is the default genesis, whatever the state.
      return {
        params: genesisJson(revshare.MarketMapperRevenueShareParamsSchema, defaultMarketMapperParams()),
      };
    },
    msgs: [
      msgHandler({
        typeUrl: "/perpx.revshare.v1.MsgSetMarketMapperRevenueShare",
        schema: () => revshare.MsgSetMarketMapperRevenueShareSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, sdkErrors.unauthorized);
          const params = msg.params ?? create(revshare.MarketMapperRevenueShareParamsSchema);
          if (!revShareSafe(ctx, feeTiers, keeper.unconditionalConfig(ctx), params)) safetyViolation();
          keeper.setMarketMapperParams(ctx, params);
          return emptyResponse(revshare.MsgSetMarketMapperRevenueShareResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.revshare.v1.MsgSetMarketMapperRevShareDetailsForMarket",
        schema: () => revshare.MsgSetMarketMapperRevShareDetailsForMarketSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, sdkErrors.unauthorized);
          // As the real chain, the market is not checked (governance is trusted with it).
          keeper.setMarketMapperDetails(
            ctx,
            msg.marketId,
            msg.params ?? create(revshare.MarketMapperRevShareDetailsSchema),
          );
          return emptyResponse(revshare.MsgSetMarketMapperRevShareDetailsForMarketResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.revshare.v1.MsgUpdateUnconditionalRevShareConfig",
        schema: () => revshare.MsgUpdateUnconditionalRevShareConfigSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, sdkErrors.unauthorized);
          const config = msg.config ?? create(revshare.UnconditionalRevShareConfigSchema);
          const total = config.configs.reduce((sum, c) => sum + c.sharePpm, 0);
          if (total >= 1_000_000) {
            throw abciError(
              revshareErrors.invalidRevShareConfig,
              `total revshare percentage ppm ${total} is greater than 100%`,
            );
          }
          if (!revShareSafe(ctx, feeTiers, config, keeper.marketMapperParams(ctx))) safetyViolation();
          // Ours checks the recipients' addresses here (the chain finds a bad one at the first fill).
          for (const c of config.configs) checkRevShareAddress(c.address);
          keeper.setUnconditionalConfig(ctx, config);
          return emptyResponse(revshare.MsgUpdateUnconditionalRevShareConfigResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.revshare.v1.MsgSetOrderRouterRevShare",
        schema: () => revshare.MsgSetOrderRouterRevShareSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          // Only a proposal reaches this (signed by the gov module); the chain answers gov's invalid signer.
          requireGovAuthority(msg.authority, sdkErrors.unauthorized);
          const value = msg.orderRouterRevShare ?? create(revshare.OrderRouterRevShareSchema);
          if (value.sharePpm > MAX_ORDER_ROUTER_SHARE_PPM) {
            throw abciError(
              revshareErrors.invalidRevenueSharePpm,
              "rev share safety violation: rev shares greater than or equal to allowed amount",
            );
          }
          keeper.setRouterShare(ctx, value);
          return emptyResponse(revshare.MsgSetOrderRouterRevShareResponseSchema);
        },
      }),
    ],
    queries: {
      "/perpx.revshare.v1.Query/MarketMapperRevenueShareParams": queryHandler(
        () => revshare.QueryMarketMapperRevenueShareParamsSchema,
        () => revshare.QueryMarketMapperRevenueShareParamsResponseSchema,
        (ctx) =>
          create(revshare.QueryMarketMapperRevenueShareParamsResponseSchema, {
            params: keeper.marketMapperParams(ctx),
          }),
      ),
      "/perpx.revshare.v1.Query/MarketMapperRevShareDetails": queryHandler(
        () => revshare.QueryMarketMapperRevShareDetailsSchema,
        () => revshare.QueryMarketMapperRevShareDetailsResponseSchema,
        (ctx, req) => {
          const details = keeper.marketMapperDetails(ctx, req.marketId);
          if (details === undefined) throw abciError(revshareErrors.detailsNotFound);
          return create(revshare.QueryMarketMapperRevShareDetailsResponseSchema, { details });
        },
      ),
      "/perpx.revshare.v1.Query/UnconditionalRevShareConfig": queryHandler(
        () => revshare.QueryUnconditionalRevShareConfigSchema,
        () => revshare.QueryUnconditionalRevShareConfigResponseSchema,
        (ctx) =>
          create(revshare.QueryUnconditionalRevShareConfigResponseSchema, {
            config: keeper.unconditionalConfig(ctx),
          }),
      ),
      "/perpx.revshare.v1.Query/OrderRouterRevShare": queryHandler(
        () => revshare.QueryOrderRouterRevShareSchema,
        () => revshare.QueryOrderRouterRevShareResponseSchema,
        (ctx, req) => {
          const share = keeper.findRouterShare(ctx, req.address);
          if (share === undefined) throw notFound(`order router rev share of ${req.address}`);
          return create(revshare.QueryOrderRouterRevShareResponseSchema, {
            orderRouterRevShare: { address: req.address, sharePpm: share },
          });
        },
      ),
    },
  };
}
