/**
 * x/prices: market parameters, oracle prices, and the devnet's oracle. Every block (begin block)
 * the oracle moves each market's price by a bounded random step drawn from a deterministic PRNG
 * (splitmix64) whose state lives in the store, so a run is reproducible from its seed and resumes
 * exactly after a restart. Prices stay within a band around a reference price; setting a price
 * (devnet control) moves the reference to it. The walk can be switched off.
 *
 * Store slice `prices/`:
 * - `param/<id:10>`: `perpx.prices.v1.MarketParam`
 * - `price/<id:10>`: 8-byte big-endian price mantissa (the exponent is the param's)
 * - `ref/<id:10>`: 8-byte reference price (center of the walk's band)
 * - `oracle/state`: 8-byte PRNG state; `oracle/walk`: 1 byte (1 on, 0 off);
 *   `oracle/params`: 8 bytes, step ppm (u32) then band ppm (u32)
 */
import { create } from "@bufbuild/protobuf";
import { prices } from "@perpx/proto";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  type Context,
  emptyResponse,
  type Module,
  msgHandler,
  notFound,
  queryHandler,
} from "../../kernel/module.js";
import { decodeU64, encodeU64, utf8 } from "../../lib/codec.js";
import { abciError, registerError } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import { wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { idStoreKey, padKey } from "../records.js";

/** The module's name and store prefix. */
export const PRICES = "prices";

/** Errors of codespace `prices`. */
export const pricesErrors = {
  invalidInput: registerError(PRICES, 1, "invalid input"),
  marketParamDoesNotExist: registerError(PRICES, 4, "market param does not exist"),
  marketPriceDoesNotExist: registerError(PRICES, 5, "market price does not exist"),
  marketParamAlreadyExists: registerError(PRICES, 6, "market param already exists"),
  invalidAuthority: registerError(PRICES, 20, "invalid authority"),
} as const;

/** An oracle price: USD price = `price × 10^exponent`. */
export interface OraclePrice {
  readonly marketId: number;
  readonly price: bigint;
  readonly exponent: number;
}

/** One market at genesis. */
export interface MarketGenesis {
  readonly param: prices.MarketParam;
  /** Initial price mantissa (in the param's exponent); also the walk's reference. */
  readonly price: bigint;
}

/** The prices genesis: markets and the oracle's seed and bounds. */
export interface PricesGenesis {
  readonly markets: readonly MarketGenesis[];
  readonly oracle: {
    /** PRNG seed (u64). */
    readonly seed: bigint;
    /** Whether the walk runs from the first block. */
    readonly walk: boolean;
    /** Largest move per block, in ppm of the price. */
    readonly stepPpm: number;
    /** Half-width of the band around the reference price, in ppm. */
    readonly bandPpm: number;
  };
}

const U64 = (1n << 64n) - 1n;

/** One splitmix64 step: the new state and the output. */
export function splitmix64(state: bigint): { state: bigint; value: bigint } {
  const next = (state + 0x9e3779b97f4a7c15n) & U64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & U64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & U64;
  return { state: next, value: z ^ (z >> 31n) };
}

/**
 * A decimal USD price as a mantissa in `exponent`: `"65000.5"` with exponent -5 is 6_500_050_000n.
 *
 * @throws AbciError (prices 1) when the text is not a positive decimal or has more digits than the exponent holds.
 */
export function priceFromDecimal(text: string, exponent: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (match === null) throw abciError(pricesErrors.invalidInput, `invalid price "${text}"`);
  const whole = match[1] as string;
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  const scale = -exponent;
  if (fraction.length > Math.max(scale, 0)) {
    throw abciError(
      pricesErrors.invalidInput,
      `price "${text}" has more decimals than exponent ${exponent} allows`,
    );
  }
  let mantissa = BigInt(whole + fraction.padEnd(Math.max(scale, 0), "0"));
  if (scale < 0) {
    const divisor = 10n ** BigInt(-scale);
    if (mantissa % divisor !== 0n) {
      throw abciError(pricesErrors.invalidInput, `price "${text}" is not a multiple of 1e${-scale}`);
    }
    mantissa /= divisor;
  }
  if (mantissa <= 0n || mantissa > U64)
    throw abciError(pricesErrors.invalidInput, `price "${text}" out of range`);
  return mantissa;
}

/** The decimal USD text of a price mantissa (`6_500_050_000n`, -5 -> `"65000.5"`). */
export function priceToDecimal(price: bigint, exponent: number): string {
  if (exponent >= 0) return (price * 10n ** BigInt(exponent)).toString();
  const digits = price.toString().padStart(-exponent + 1, "0");
  const whole = digits.slice(0, exponent);
  const fraction = digits.slice(exponent).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

const paramKey = (id: number) => idStoreKey("param", id);
const priceKey = (id: number) => idStoreKey("price", id);
const refKey = (id: number) => idStoreKey("ref", id);

/** The prices module's state operations (the keeper other modules use). */
export class PricesKeeper {
  private marketCreated: (ctx: Context, marketId: number) => void = () => undefined;

  /** Installs what runs when a market is created (revshare's market mapper details); wiring only. */
  onMarketCreated(hook: (ctx: Context, marketId: number) => void): void {
    this.marketCreated = hook;
  }

  /** Stores a new market's parameters and runs the market creation hook (the chain's `CreateMarket`). */
  createMarket(ctx: Context, param: prices.MarketParam): void {
    this.setMarketParam(ctx, param);
    this.marketCreated(ctx, param.id);
  }

  /** A market's parameters, or undefined. */
  marketParam(ctx: StoreAccess, id: number): prices.MarketParam | undefined {
    const bytes = ctx.store(PRICES).get(paramKey(id));
    return bytes === undefined ? undefined : wireDecodeCached(wire.perpx_prices_v1_MarketParam, bytes);
  }

  /** Every market's parameters, by id (decoded once per distinct record, frozen: the walk reads them every block). */
  allMarketParams(ctx: StoreAccess): prices.MarketParam[] {
    return [...ctx.store(PRICES).entries("param/")].map(([, bytes]) =>
      wireDecodeCached(wire.perpx_prices_v1_MarketParam, bytes),
    );
  }

  /** A market's current price, or undefined when the market does not exist. */
  marketPrice(ctx: StoreAccess, id: number): OraclePrice | undefined {
    const param = this.marketParam(ctx, id);
    if (param === undefined) return undefined;
    const bytes = ctx.store(PRICES).get(priceKey(id));
    return { marketId: id, price: bytes === undefined ? 0n : decodeU64(bytes), exponent: param.exponent };
  }

  /**
   * The oracle price of a market (what margin and conditional orders use).
   *
   * @throws AbciError (prices 5) when the market does not exist or has no price yet.
   */
  oraclePrice(ctx: StoreAccess, marketId: number): OraclePrice {
    const found = this.marketPrice(ctx, marketId);
    if (found === undefined || found.price === 0n) {
      throw abciError(pricesErrors.marketPriceDoesNotExist, `market price ${marketId} does not exist`);
    }
    return found;
  }

  /**
   * A market id from an id or a pair (`"BTC-USD"`).
   *
   * @throws AbciError (prices 4) when no such market exists.
   */
  marketIdOf(ctx: StoreAccess, market: number | string): number {
    if (typeof market === "number") {
      if (this.marketParam(ctx, market) === undefined) {
        throw abciError(pricesErrors.marketParamDoesNotExist, `market ${market} does not exist`);
      }
      return market;
    }
    const found = this.allMarketParams(ctx).find((p) => p.pair === market);
    if (found === undefined)
      throw abciError(pricesErrors.marketParamDoesNotExist, `market ${market} does not exist`);
    return found.id;
  }

  /** The id the next created market would get. */
  nextMarketId(ctx: StoreAccess): number {
    const all = this.allMarketParams(ctx);
    return all.reduce((max, p) => Math.max(max, p.id + 1), 0);
  }

  /** Stores a market's parameters (creating the market). */
  setMarketParam(ctx: StoreAccess, param: prices.MarketParam): void {
    ctx.store(PRICES).set(paramKey(param.id), wireEncode(wire.perpx_prices_v1_MarketParam, param));
  }

  /**
   * Sets a market's price and re-centers the walk's band on it; emits `market_price_update`.
   *
   * @throws AbciError (prices 4) for an unknown market, (prices 1) for a zero price.
   */
  setPrice(ctx: Context, marketId: number, price: bigint): void {
    const param = this.marketParam(ctx, marketId);
    if (param === undefined)
      throw abciError(pricesErrors.marketParamDoesNotExist, `market ${marketId} does not exist`);
    if (price <= 0n || price > U64) throw abciError(pricesErrors.invalidInput, `price ${price} out of range`);
    const store = ctx.store(PRICES);
    store.set(refKey(marketId), encodeU64(price));
    this.writePrice(ctx, param, price);
  }

  private writePrice(ctx: Context, param: prices.MarketParam, price: bigint): void {
    ctx.store(PRICES).set(priceKey(param.id), encodeU64(price));
    ctx.events.indexer({ kind: "oracle_price", marketId: param.id, price });
    ctx.events.emitEvent("market_price_update", [
      ["market_id", param.id.toString()],
      ["pair", param.pair],
      ["price", price.toString()],
      ["exponent", param.exponent.toString()],
    ]);
  }

  /** Whether the oracle walk runs. */
  walkEnabled(ctx: StoreAccess): boolean {
    return ctx.store(PRICES).get("oracle/walk")?.[0] === 1;
  }

  /** Switches the oracle walk on or off. */
  setWalk(ctx: StoreAccess, enabled: boolean): void {
    ctx.store(PRICES).set("oracle/walk", new Uint8Array([enabled ? 1 : 0]));
  }

  /** Writes the oracle's PRNG state and bounds. */
  initOracle(ctx: StoreAccess, oracle: PricesGenesis["oracle"]): void {
    const store = ctx.store(PRICES);
    store.set("oracle/state", encodeU64(oracle.seed & U64));
    this.setWalk(ctx, oracle.walk);
    const params = new Uint8Array(8);
    const view = new DataView(params.buffer);
    view.setUint32(0, oracle.stepPpm);
    view.setUint32(4, oracle.bandPpm);
    store.set("oracle/params", params);
  }

  /** The oracle's step and band (ppm) and PRNG state. */
  oracleState(ctx: StoreAccess): { state: bigint; stepPpm: number; bandPpm: number } {
    const store = ctx.store(PRICES);
    const params = store.get("oracle/params") ?? new Uint8Array(8);
    const view = new DataView(params.buffer, params.byteOffset, params.byteLength);
    const state = store.get("oracle/state");
    return {
      state: state === undefined ? 0n : decodeU64(state),
      stepPpm: view.getUint32(0),
      bandPpm: view.getUint32(4),
    };
  }

  /** The walk's reference price of a market (0 when none). */
  referencePrice(ctx: StoreAccess, marketId: number): bigint {
    const bytes = ctx.store(PRICES).get(refKey(marketId));
    return bytes === undefined ? 0n : decodeU64(bytes);
  }

  /** One step of the walk over every priced market, in id order (no-op when the walk is off). */
  walk(ctx: Context): void {
    if (!this.walkEnabled(ctx)) return;
    const oracle = this.oracleState(ctx);
    let state = oracle.state;
    const span = BigInt(oracle.stepPpm) * 2n + 1n;
    for (const param of this.allMarketParams(ctx)) {
      const current = this.marketPrice(ctx, param.id)?.price ?? 0n;
      if (current === 0n) continue;
      const drawn = splitmix64(state);
      state = drawn.state;
      const stepPpm = (drawn.value % span) - BigInt(oracle.stepPpm);
      let next = current + (current * stepPpm) / 1_000_000n;
      const reference = this.referencePrice(ctx, param.id) || current;
      const band = (reference * BigInt(oracle.bandPpm)) / 1_000_000n;
      if (next > reference + band) next = reference + band;
      if (next < reference - band) next = reference - band;
      if (next < 1n) next = 1n;
      if (next !== current) this.writePrice(ctx, param, next);
    }
    ctx.store(PRICES).set("oracle/state", encodeU64(state));
  }
}

/** Stateless checks of a market param (pair and exponent). */
function validateMarketParam(param: prices.MarketParam | undefined): prices.MarketParam {
  if (param === undefined) throw abciError(pricesErrors.invalidInput, "market param is missing");
  if (!/^[A-Z0-9]+-[A-Z0-9]+$/.test(param.pair)) {
    throw abciError(pricesErrors.invalidInput, `invalid pair "${param.pair}"`);
  }
  if (param.exponent > 0 || param.exponent < -18) {
    throw abciError(pricesErrors.invalidInput, `exponent ${param.exponent} must be within -18..0`);
  }
  return param;
}

/**
 * The prices module: genesis, the oracle walk at begin block, the queries, and the governance
 * messages `MsgCreateOracleMarket` (the market has no price until one is set through control) and
 * `MsgUpdateMarketParam` (the pair and exponent cannot change).
 */
export function createPricesModule(keeper: PricesKeeper, genesis: PricesGenesis): Module {
  return {
    name: PRICES,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.prices.v1.MsgCreateOracleMarket",
        schema: () => prices.MsgCreateOracleMarketSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          validateMarketParam(msg.params);
        },
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, pricesErrors.invalidAuthority);
          const param = validateMarketParam(msg.params);
          if (keeper.marketParam(ctx, param.id) !== undefined) {
            throw abciError(pricesErrors.marketParamAlreadyExists, `market ${param.id} exists`);
          }
          if (keeper.allMarketParams(ctx).some((p) => p.pair === param.pair)) {
            throw abciError(pricesErrors.marketParamAlreadyExists, `pair ${param.pair} exists`);
          }
          keeper.createMarket(ctx, param);
          ctx.store(PRICES).set(priceKey(param.id), encodeU64(0n));
          ctx.store(PRICES).set(refKey(param.id), encodeU64(0n));
          return emptyResponse(prices.MsgCreateOracleMarketResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.prices.v1.MsgUpdateMarketParam",
        schema: () => prices.MsgUpdateMarketParamSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          validateMarketParam(msg.marketParam);
        },
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, pricesErrors.invalidAuthority);
          const param = validateMarketParam(msg.marketParam);
          const current = keeper.marketParam(ctx, param.id);
          if (current === undefined) {
            throw abciError(pricesErrors.marketParamDoesNotExist, `market ${param.id} does not exist`);
          }
          if (current.pair !== param.pair || current.exponent !== param.exponent) {
            throw abciError(pricesErrors.invalidInput, "the pair and exponent of a market cannot change");
          }
          keeper.setMarketParam(ctx, param);
          return emptyResponse(prices.MsgUpdateMarketParamResponseSchema);
        },
      }),
    ],
    initGenesis(ctx) {
      for (const market of genesis.markets) {
        keeper.createMarket(ctx, market.param);
        ctx.store(PRICES).set(priceKey(market.param.id), encodeU64(market.price));
        ctx.store(PRICES).set(refKey(market.param.id), encodeU64(market.price));
      }
      keeper.initOracle(ctx, genesis.oracle);
    },
    exportGenesis(ctx) {
      const oracle = keeper.oracleState(ctx);
      return {
        market_params: keeper.allMarketParams(ctx).map((p) => ({
          id: p.id,
          pair: p.pair,
          exponent: p.exponent,
          min_exchanges: p.minExchanges,
          min_price_change_ppm: p.minPriceChangePpm,
          exchange_config_json: p.exchangeConfigJson,
        })),
        market_prices: keeper.allMarketParams(ctx).map((p) => ({
          id: p.id,
          exponent: p.exponent,
          price: (keeper.marketPrice(ctx, p.id)?.price ?? 0n).toString(),
        })),
        oracle: {
          seed: oracle.state.toString(),
          walk: keeper.walkEnabled(ctx),
          step_ppm: oracle.stepPpm,
          band_ppm: oracle.bandPpm,
        },
      };
    },
    beginBlock(ctx) {
      keeper.walk(ctx);
    },
    control: {
      /** `{market: id | "BTC-USD", price: "65000.5"}`: sets the price and re-centers the walk. */
      "set-price"(ctx, request) {
        const market = request.market;
        if (typeof market !== "number" && typeof market !== "string") {
          throw abciError(pricesErrors.invalidInput, 'the field "market" must be a market id or pair');
        }
        const marketId = keeper.marketIdOf(ctx, market);
        const param = keeper.marketParam(ctx, marketId) as prices.MarketParam;
        if (typeof request.price !== "string") {
          throw abciError(pricesErrors.invalidInput, 'the field "price" must be a decimal string');
        }
        const price = priceFromDecimal(request.price, param.exponent);
        keeper.setPrice(ctx, marketId, price);
        return { marketId, pair: param.pair, price: price.toString(), exponent: param.exponent };
      },
      /**
       * `{market: id | "BTC-USD", factor: "0.9"}`: multiplies the price by a positive decimal
       * factor (rounded down, at least 1) and re-centers the walk.
       */
      "scale-price"(ctx, request) {
        const market = request.market;
        if (typeof market !== "number" && typeof market !== "string") {
          throw abciError(pricesErrors.invalidInput, 'the field "market" must be a market id or pair');
        }
        const marketId = keeper.marketIdOf(ctx, market);
        const param = keeper.marketParam(ctx, marketId) as prices.MarketParam;
        const factor = typeof request.factor === "string" ? /^(\d+)(?:\.(\d+))?$/.exec(request.factor) : null;
        if (factor === null || !/[1-9]/.test(request.factor as string)) {
          throw abciError(pricesErrors.invalidInput, 'the field "factor" must be a positive decimal string');
        }
        const fraction = factor[2] ?? "";
        const current = keeper.oraclePrice(ctx, marketId).price;
        const scaled = (current * BigInt(`${factor[1]}${fraction}`)) / 10n ** BigInt(fraction.length);
        const price = scaled < 1n ? 1n : scaled;
        if (price > U64)
          throw abciError(pricesErrors.invalidInput, `price ${price} is above the uint64 range`);
        keeper.setPrice(ctx, marketId, price);
        return { marketId, pair: param.pair, price: price.toString(), exponent: param.exponent };
      },
      /** `{enabled: boolean}`: switches the walk. */
      "set-walk"(ctx, request) {
        if (typeof request.enabled !== "boolean") {
          throw abciError(pricesErrors.invalidInput, 'the field "enabled" must be a boolean');
        }
        keeper.setWalk(ctx, request.enabled);
        return { enabled: request.enabled };
      },
    },
    queries: {
      "/perpx.prices.v1.Query/MarketPrice": queryHandler(
        () => prices.QueryMarketPriceRequestSchema,
        () => prices.QueryMarketPriceResponseSchema,
        (ctx, req) => {
          const found = keeper.marketPrice(ctx, req.id);
          if (found === undefined) throw notFound(`market price ${req.id}`);
          return create(prices.QueryMarketPriceResponseSchema, {
            marketPrice: create(prices.MarketPriceSchema, {
              id: req.id,
              exponent: found.exponent,
              price: found.price,
            }),
          });
        },
      ),
      "/perpx.prices.v1.Query/AllMarketPrices": queryHandler(
        () => prices.QueryAllMarketPricesRequestSchema,
        () => prices.QueryAllMarketPricesResponseSchema,
        (ctx, req) => {
          const items = keeper.allMarketParams(ctx).map((p) => ({
            key: utf8(padKey(p.id, 10)),
            value: create(prices.MarketPriceSchema, {
              id: p.id,
              exponent: p.exponent,
              price: keeper.marketPrice(ctx, p.id)?.price ?? 0n,
            }),
          }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(prices.QueryAllMarketPricesResponseSchema, { marketPrices: page, pagination });
        },
      ),
      "/perpx.prices.v1.Query/MarketParam": queryHandler(
        () => prices.QueryMarketParamRequestSchema,
        () => prices.QueryMarketParamResponseSchema,
        (ctx, req) => {
          const found = keeper.marketParam(ctx, req.id);
          if (found === undefined) throw notFound(`market param ${req.id}`);
          return create(prices.QueryMarketParamResponseSchema, { marketParam: found });
        },
      ),
      "/perpx.prices.v1.Query/AllMarketParams": queryHandler(
        () => prices.QueryAllMarketParamsRequestSchema,
        () => prices.QueryAllMarketParamsResponseSchema,
        (ctx, req) => {
          const items = keeper.allMarketParams(ctx).map((p) => ({ key: utf8(padKey(p.id, 10)), value: p }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(prices.QueryAllMarketParamsResponseSchema, { marketParams: page, pagination });
        },
      ),
      "/perpx.prices.v1.Query/NextMarketId": queryHandler(
        () => prices.QueryNextMarketIdRequestSchema,
        () => prices.QueryNextMarketIdResponseSchema,
        (ctx) => create(prices.QueryNextMarketIdResponseSchema, { nextMarketId: keeper.nextMarketId(ctx) }),
      ),
    },
  };
}
