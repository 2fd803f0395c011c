/**
 * x/perpetuals: perpetual parameters, liquidity tiers, module params, and per perpetual the
 * funding index and open interest (which change on every fill, so they are stored fixed-width).
 *
 * Store slice `perpetuals/`:
 * - `perp/<id:10>`: `perpx.perpetuals.v1.PerpetualParams`
 * - `funding/<id:10>`: 32-byte two's complement funding index (1e-6 quote quantums per base quantum)
 * - `oi/<id:10>`: 32-byte open interest (base quantums of longs)
 * - `tier/<id:10>`: `perpx.perpetuals.v1.LiquidityTier`
 * - `params`: `perpx.perpetuals.v1.Params`
 * - `premium_votes`, `premium_samples`: `perpx.perpetuals.v1.PremiumStore` (see `funding.ts`)
 */
import { create } from "@bufbuild/protobuf";
import { encodeSerializableInt, perpetuals } from "@perpx/proto";
import { liquidityTierEvent, perpetualEvent } from "../../indexer-output/indexer-emit.js";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  type Context,
  emptyResponse,
  genesisJson,
  type Module,
  msgHandler,
  notFound,
  queryHandler,
} from "../../kernel/module.js";
import { utf8 } from "../../lib/codec.js";
import { abciError, registerError } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import { wireCreate, wireDecode, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { idStoreKey, padKey } from "../records.js";
import { decodeI256, encodeI256 } from "../subaccounts/dtypes.js";

/** The module's name and store prefix. */
export const PERPETUALS = "perpetuals";

/** Errors of codespace `perpetuals`. */
export const perpetualsErrors = {
  perpetualDoesNotExist: registerError(PERPETUALS, 1, "perpetual does not exist"),
  perpetualAlreadyExists: registerError(PERPETUALS, 2, "perpetual already exists"),
  invalidParams: registerError(PERPETUALS, 3, "invalid perpetual params"),
  invalidLiquidityTier: registerError(PERPETUALS, 12, "invalid liquidity tier"),
  invalidAuthority: registerError(PERPETUALS, 14, "invalid authority"),
  liquidityTierDoesNotExist: registerError(PERPETUALS, 13, "liquidity tier does not exist"),
  openInterestWouldBecomeNegative: registerError(PERPETUALS, 27, "open interest would become negative"),
} as const;

/** A perpetual as other modules see it: its parameters, funding index and open interest. */
export interface PerpetualView {
  readonly params: perpetuals.PerpetualParams;
  /** Funding index, in 1e-6 quote quantums per base quantum (see `margin.ts`). */
  readonly fundingIndex: bigint;
  /** Open interest: base quantums held long (equal to those held short). */
  readonly openInterest: bigint;
}

/** The perpetuals genesis. */
export interface PerpetualsGenesis {
  readonly perpetuals: readonly perpetuals.PerpetualParams[];
  readonly liquidityTiers: readonly perpetuals.LiquidityTier[];
  readonly params: perpetuals.Params;
}

/** The store key of record `prefix` of perpetual (or liquidity tier) `id`: `<prefix>/<id:10>`. */
const key = idStoreKey;

/** Store keys of the premium records (see `funding.ts`). */
export const PREMIUM_KEYS = { votes: "premium_votes", samples: "premium_samples" } as const;

/** The perpetuals module's state operations (the keeper the clob and subaccounts use). */
export class PerpetualsKeeper {
  /** A perpetual, or undefined. */
  find(ctx: StoreAccess, id: number): PerpetualView | undefined {
    const store = ctx.store(PERPETUALS);
    const bytes = store.get(key("perp", id));
    if (bytes === undefined) return undefined;
    return {
      params: wireDecodeCached(wire.perpx_perpetuals_v1_PerpetualParams, bytes),
      fundingIndex: decodeI256(store.get(key("funding", id))),
      openInterest: decodeI256(store.get(key("oi", id))),
    };
  }

  /** A perpetual's parameters alone (without decoding its funding index and open interest), or undefined. */
  findParams(ctx: StoreAccess, id: number): perpetuals.PerpetualParams | undefined {
    const bytes = ctx.store(PERPETUALS).get(key("perp", id));
    return bytes === undefined
      ? undefined
      : wireDecodeCached(wire.perpx_perpetuals_v1_PerpetualParams, bytes);
  }

  /** Every perpetual's parameters, by id (without decoding funding indexes and open interest). */
  allPerpetualParams(ctx: StoreAccess): perpetuals.PerpetualParams[] {
    return [...ctx.store(PERPETUALS).entries("perp/")].map(([, bytes]) =>
      wireDecodeCached(wire.perpx_perpetuals_v1_PerpetualParams, bytes),
    );
  }

  /**
   * A perpetual.
   *
   * @throws AbciError (perpetuals 1) when it does not exist.
   */
  perpetual(ctx: StoreAccess, id: number): PerpetualView {
    return this.required(id, this.find(ctx, id));
  }

  /**
   * `found`, what {@link find} gave for perpetual `id` (as {@link perpetual} would return it).
   *
   * @throws AbciError (perpetuals 1) when it is undefined.
   */
  required(id: number, found: PerpetualView | undefined): PerpetualView {
    if (found === undefined)
      throw abciError(perpetualsErrors.perpetualDoesNotExist, `perpetual ${id} does not exist`);
    return found;
  }

  /** Every perpetual, by id. */
  allPerpetuals(ctx: StoreAccess): PerpetualView[] {
    return [...ctx.store(PERPETUALS).entries("perp/")].map(([k]) =>
      this.perpetual(ctx, Number(k.slice("perp/".length))),
    );
  }

  /** Stores a perpetual's parameters (creating it with zero funding index and open interest). */
  setPerpetualParams(ctx: StoreAccess, params: perpetuals.PerpetualParams): void {
    const store = ctx.store(PERPETUALS);
    store.set(key("perp", params.id), wireEncode(wire.perpx_perpetuals_v1_PerpetualParams, params));
    if (store.get(key("funding", params.id)) === undefined)
      store.set(key("funding", params.id), encodeI256(0n));
    if (store.get(key("oi", params.id)) === undefined) store.set(key("oi", params.id), encodeI256(0n));
  }

  /**
   * A liquidity tier.
   *
   * @throws AbciError (perpetuals 13) when it does not exist.
   */
  liquidityTier(ctx: StoreAccess, id: number): perpetuals.LiquidityTier {
    const bytes = ctx.store(PERPETUALS).get(key("tier", id));
    if (bytes === undefined) {
      throw abciError(perpetualsErrors.liquidityTierDoesNotExist, `liquidity tier ${id} does not exist`);
    }
    return wireDecodeCached(wire.perpx_perpetuals_v1_LiquidityTier, bytes);
  }

  /** The liquidity tier of a perpetual. */
  liquidityTierOf(ctx: StoreAccess, perpetualId: number): perpetuals.LiquidityTier {
    return this.liquidityTier(ctx, this.perpetual(ctx, perpetualId).params.liquidityTier);
  }

  /** Every liquidity tier, by id. */
  allLiquidityTiers(ctx: StoreAccess): perpetuals.LiquidityTier[] {
    return [...ctx.store(PERPETUALS).entries("tier/")].map(([, bytes]) =>
      wireDecode(wire.perpx_perpetuals_v1_LiquidityTier, bytes),
    );
  }

  /** Stores a liquidity tier. */
  setLiquidityTier(ctx: StoreAccess, tier: perpetuals.LiquidityTier): void {
    ctx.store(PERPETUALS).set(key("tier", tier.id), wireEncode(wire.perpx_perpetuals_v1_LiquidityTier, tier));
  }

  /** The module params. */
  params(ctx: StoreAccess): perpetuals.Params {
    const bytes = ctx.store(PERPETUALS).get("params");
    return bytes === undefined
      ? wireCreate(wire.perpx_perpetuals_v1_Params)
      : wireDecode(wire.perpx_perpetuals_v1_Params, bytes);
  }

  /** A premium record (votes or samples; empty when never written). */
  premiumStore(ctx: StoreAccess, key: string): perpetuals.PremiumStore {
    const bytes = ctx.store(PERPETUALS).get(key);
    return bytes === undefined
      ? wireCreate(wire.perpx_perpetuals_v1_PremiumStore)
      : wireDecode(wire.perpx_perpetuals_v1_PremiumStore, bytes);
  }

  /** Stores a premium record. */
  setPremiumStore(ctx: StoreAccess, key: string, value: perpetuals.PremiumStore): void {
    ctx.store(PERPETUALS).set(key, wireEncode(wire.perpx_perpetuals_v1_PremiumStore, value));
  }

  /** The id the next created perpetual would get. */
  nextPerpetualId(ctx: StoreAccess): number {
    return this.allPerpetuals(ctx).reduce((max, p) => Math.max(max, p.params.id + 1), 0);
  }

  /**
   * Adds `delta` to a perpetual's funding index (1e-6 quote quantums per base quantum; positive:
   * longs pay shorts). Positions settle the difference the next time they are touched.
   * Emits `funding_index_update`.
   *
   * @throws AbciError (perpetuals 1) for an unknown perpetual.
   */
  addFundingIndex(ctx: Context, id: number, delta: bigint): void {
    const current = this.perpetual(ctx, id);
    const next = current.fundingIndex + delta;
    ctx.store(PERPETUALS).set(key("funding", id), encodeI256(next));
    ctx.events.emitEvent("funding_index_update", [
      ["perpetual_id", id.toString()],
      ["delta", delta.toString()],
      ["funding_index", next.toString()],
    ]);
  }

  /**
   * Adds `delta` base quantums to a perpetual's open interest. The subaccounts keeper's
   * `applyUpdates` already calls this for every position change, so the clob must not call it for fills.
   *
   * @throws AbciError (perpetuals 27) when open interest would become negative.
   */
  updateOpenInterest(ctx: StoreAccess, id: number, delta: bigint): void {
    if (delta === 0n) return;
    this.addOpenInterest(ctx, this.perpetual(ctx, id), delta);
  }

  /**
   * {@link updateOpenInterest} of a perpetual read as it is now (`current`, from {@link perpetual}):
   * stores its open interest plus `delta`.
   *
   * @throws AbciError (perpetuals 27) when open interest would become negative.
   */
  addOpenInterest(ctx: StoreAccess, current: PerpetualView, delta: bigint): void {
    const id = current.params.id;
    const next = current.openInterest + delta;
    if (next < 0n) {
      throw abciError(
        perpetualsErrors.openInterestWouldBecomeNegative,
        `perpetual ${id}: open interest ${next}`,
      );
    }
    ctx.store(PERPETUALS).set(key("oi", id), encodeI256(next));
  }
}

/** The wire `Perpetual` of a view. */
export function perpetualProto(view: PerpetualView): perpetuals.Perpetual {
  return create(perpetuals.PerpetualSchema, {
    params: view.params,
    fundingIndex: encodeSerializableInt(view.fundingIndex),
    openInterest: encodeSerializableInt(view.openInterest),
  });
}

function validatePerpetualParams(params: perpetuals.PerpetualParams | undefined): perpetuals.PerpetualParams {
  if (params === undefined) throw abciError(perpetualsErrors.invalidParams, "perpetual params are missing");
  if (params.ticker === "") throw abciError(perpetualsErrors.invalidParams, "ticker is empty");
  if (params.atomicResolution > 0 || params.atomicResolution < -18) {
    throw abciError(
      perpetualsErrors.invalidParams,
      `atomic resolution ${params.atomicResolution} must be within -18..0`,
    );
  }
  if (Math.abs(params.defaultFundingPpm) > 1_000_000) {
    throw abciError(
      perpetualsErrors.invalidParams,
      `default funding ${params.defaultFundingPpm} ppm out of range`,
    );
  }
  return params;
}

function validateTier(tier: perpetuals.LiquidityTier | undefined): perpetuals.LiquidityTier {
  if (tier === undefined) throw abciError(perpetualsErrors.invalidLiquidityTier, "liquidity tier is missing");
  if (tier.initialMarginPpm > 1_000_000 || tier.maintenanceFractionPpm > 1_000_000) {
    throw abciError(perpetualsErrors.invalidLiquidityTier, "margin ppm values must be at most 1000000");
  }
  if (tier.openInterestLowerCap > tier.openInterestUpperCap) {
    throw abciError(perpetualsErrors.invalidLiquidityTier, "open interest lower cap is above the upper cap");
  }
  return tier;
}

/**
 * The perpetuals module: genesis, the queries (with the premium votes and samples funding
 * records) and the governance messages (`MsgCreatePerpetual`, `MsgSetLiquidityTier`,
 * `MsgUpdatePerpetualParams`, `MsgUpdateParams`). `prices` checks that a perpetual's market
 * exists; `endBlock` is funding's (`funding.ts`).
 */
export function createPerpetualsModule(
  keeper: PerpetualsKeeper,
  genesis: PerpetualsGenesis,
  marketExists: (ctx: StoreAccess, marketId: number) => boolean = () => true,
  endBlock?: (ctx: Context) => void,
): Module {
  const checkRefs = (ctx: StoreAccess, params: perpetuals.PerpetualParams) => {
    keeper.liquidityTier(ctx, params.liquidityTier);
    if (!marketExists(ctx, params.marketId)) {
      throw abciError(perpetualsErrors.invalidParams, `market ${params.marketId} does not exist`);
    }
  };
  return {
    name: PERPETUALS,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.perpetuals.v1.MsgCreatePerpetual",
        schema: () => perpetuals.MsgCreatePerpetualSchema,
        signers: (msg) => [msg.authority],
        validate: (msg) => void validatePerpetualParams(msg.params),
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, perpetualsErrors.invalidAuthority);
          const params = validatePerpetualParams(msg.params);
          if (keeper.find(ctx, params.id) !== undefined) {
            throw abciError(perpetualsErrors.perpetualAlreadyExists, `perpetual ${params.id} exists`);
          }
          checkRefs(ctx, params);
          keeper.setPerpetualParams(ctx, params);
          ctx.events.indexer(perpetualEvent(params));
          return emptyResponse(perpetuals.MsgCreatePerpetualResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.perpetuals.v1.MsgSetLiquidityTier",
        schema: () => perpetuals.MsgSetLiquidityTierSchema,
        signers: (msg) => [msg.authority],
        validate: (msg) => void validateTier(msg.liquidityTier),
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, perpetualsErrors.invalidAuthority);
          const tier = validateTier(msg.liquidityTier);
          keeper.setLiquidityTier(ctx, tier);
          // The reference keeper's SetLiquidityTier emits LiquidityTierUpsertEventV2.
          ctx.events.indexer(liquidityTierEvent(tier));
          return emptyResponse(perpetuals.MsgSetLiquidityTierResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.perpetuals.v1.MsgUpdatePerpetualParams",
        schema: () => perpetuals.MsgUpdatePerpetualParamsSchema,
        signers: (msg) => [msg.authority],
        validate: (msg) => void validatePerpetualParams(msg.perpetualParams),
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, perpetualsErrors.invalidAuthority);
          const params = validatePerpetualParams(msg.perpetualParams);
          const current = keeper.perpetual(ctx, params.id);
          if (
            current.params.atomicResolution !== params.atomicResolution ||
            current.params.marketType !== params.marketType
          ) {
            throw abciError(
              perpetualsErrors.invalidParams,
              "atomic resolution and market type cannot change",
            );
          }
          checkRefs(ctx, params);
          keeper.setPerpetualParams(ctx, params);
          // The reference keeper's ModifyPerpetual emits UpdatePerpetualEventV3.
          ctx.events.indexer(perpetualEvent(params));
          return emptyResponse(perpetuals.MsgUpdatePerpetualParamsResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.perpetuals.v1.MsgUpdateParams",
        schema: () => perpetuals.MsgUpdateParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, perpetualsErrors.invalidAuthority);
          ctx
            .store(PERPETUALS)
            .set(
              "params",
              wireEncode(
                wire.perpx_perpetuals_v1_Params,
                msg.params ?? wireCreate(wire.perpx_perpetuals_v1_Params),
              ),
            );
          return emptyResponse(perpetuals.MsgUpdateParamsResponseSchema);
        },
      }),
    ],
    ...(endBlock === undefined ? {} : { endBlock }),
    initGenesis(ctx) {
      for (const tier of genesis.liquidityTiers) keeper.setLiquidityTier(ctx, tier);
      for (const params of genesis.perpetuals) keeper.setPerpetualParams(ctx, params);
      ctx.store(PERPETUALS).set("params", wireEncode(wire.perpx_perpetuals_v1_Params, genesis.params));
    },
    exportGenesis(ctx) {
      return {
        perpetuals: keeper
          .allPerpetuals(ctx)
          .map((p) => genesisJson(perpetuals.PerpetualSchema, perpetualProto(p))),
        liquidity_tiers: keeper
          .allLiquidityTiers(ctx)
          .map((t) => genesisJson(perpetuals.LiquidityTierSchema, t)),
        params: genesisJson(perpetuals.ParamsSchema, keeper.params(ctx)),
      };
    },
    queries: {
      "/perpx.perpetuals.v1.Query/Perpetual": queryHandler(
        () => perpetuals.QueryPerpetualRequestSchema,
        () => perpetuals.QueryPerpetualResponseSchema,
        (ctx, req) => {
          const found = keeper.find(ctx, req.id);
          if (found === undefined) throw notFound(`perpetual ${req.id}`);
          return create(perpetuals.QueryPerpetualResponseSchema, { perpetual: perpetualProto(found) });
        },
      ),
      "/perpx.perpetuals.v1.Query/AllPerpetuals": queryHandler(
        () => perpetuals.QueryAllPerpetualsRequestSchema,
        () => perpetuals.QueryAllPerpetualsResponseSchema,
        (ctx, req) => {
          const items = keeper.allPerpetuals(ctx).map((p) => ({
            key: utf8(padKey(p.params.id, 10)),
            value: perpetualProto(p),
          }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(perpetuals.QueryAllPerpetualsResponseSchema, { perpetual: page, pagination });
        },
      ),
      "/perpx.perpetuals.v1.Query/AllLiquidityTiers": queryHandler(
        () => perpetuals.QueryAllLiquidityTiersRequestSchema,
        () => perpetuals.QueryAllLiquidityTiersResponseSchema,
        (ctx, req) => {
          const items = keeper.allLiquidityTiers(ctx).map((t) => ({ key: utf8(padKey(t.id, 10)), value: t }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(perpetuals.QueryAllLiquidityTiersResponseSchema, {
            liquidityTiers: page,
            pagination,
          });
        },
      ),
      "/perpx.perpetuals.v1.Query/PremiumVotes": queryHandler(
        () => perpetuals.QueryPremiumVotesRequestSchema,
        () => perpetuals.QueryPremiumVotesResponseSchema,
        (ctx) =>
          create(perpetuals.QueryPremiumVotesResponseSchema, {
            premiumVotes: keeper.premiumStore(ctx, PREMIUM_KEYS.votes),
          }),
      ),
      "/perpx.perpetuals.v1.Query/PremiumSamples": queryHandler(
        () => perpetuals.QueryPremiumSamplesRequestSchema,
        () => perpetuals.QueryPremiumSamplesResponseSchema,
        (ctx) =>
          create(perpetuals.QueryPremiumSamplesResponseSchema, {
            premiumSamples: keeper.premiumStore(ctx, PREMIUM_KEYS.samples),
          }),
      ),
      "/perpx.perpetuals.v1.Query/Params": queryHandler(
        () => perpetuals.QueryParamsRequestSchema,
        () => perpetuals.QueryParamsResponseSchema,
        (ctx) => create(perpetuals.QueryParamsResponseSchema, { params: keeper.params(ctx) }),
      ),
      "/perpx.perpetuals.v1.Query/NextPerpetualId": queryHandler(
        () => perpetuals.QueryNextPerpetualIdRequestSchema,
        () => perpetuals.QueryNextPerpetualIdResponseSchema,
        (ctx) =>
          create(perpetuals.QueryNextPerpetualIdResponseSchema, {
            nextPerpetualId: keeper.nextPerpetualId(ctx),
          }),
      ),
    },
  };
}
