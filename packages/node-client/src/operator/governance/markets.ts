/**
 * Governance messages that list and tune markets: perpetuals and their liquidity tiers, oracle
 * markets, and the perpetuals module's parameters.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { perpetuals, prices } from "@perpx/proto";
import { checkParams, nonEmpty, positiveUint64, uint32, uint64 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, type GovernanceParams, intIn, object, ppm } from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * A perpetual's parameters.
 *
 * @example
 * ```ts
 * const params: PerpetualParamsInput = { id: 5, ticker: "SOL-USD", marketId: 5, atomicResolution: -7, defaultFundingPpm: 0, liquidityTier: 1 };
 * ```
 */
export interface PerpetualParamsInput {
  /** The perpetual id (uint32). */
  id: number;
  /** The ticker, e.g. `SOL-USD`. */
  ticker: string;
  /** The oracle market id it settles on. */
  marketId: number;
  /** Base quantums per base unit as a power of ten, -18 to 0. */
  atomicResolution: number;
  /** The default funding rate in ppm per 8 hours, -1,000,000 to 1,000,000. */
  defaultFundingPpm: number;
  /** The liquidity tier id. */
  liquidityTier: number;
  /**
   * Cross-margined or isolated.
   * @default "cross"
   */
  marketType?: "cross" | "isolated";
}

function perpetualParams(input: PerpetualParamsInput, argument: string) {
  object(input, argument);
  const type = input.marketType ?? "cross";
  if (type !== "cross" && type !== "isolated") {
    throw new InvalidArgumentError(
      `${argument}.marketType`,
      `must be "cross" or "isolated", got ${JSON.stringify(type)}`,
    );
  }
  return {
    id: uint32(input.id, `${argument}.id`),
    ticker: nonEmpty(input.ticker, `${argument}.ticker`),
    marketId: uint32(input.marketId, `${argument}.marketId`),
    atomicResolution: intIn(input.atomicResolution, `${argument}.atomicResolution`, -18, 0),
    defaultFundingPpm: intIn(input.defaultFundingPpm, `${argument}.defaultFundingPpm`, -1_000_000, 1_000_000),
    liquidityTier: uint32(input.liquidityTier, `${argument}.liquidityTier`),
    marketType:
      type === "cross" ? perpetuals.PerpetualMarketType.CROSS : perpetuals.PerpetualMarketType.ISOLATED,
  };
}

/**
 * Parameters of {@link createPerpetualMsg}.
 *
 * @example
 * ```ts
 * const params: CreatePerpetualParams = { params: { id: 5, ticker: "SOL-USD", marketId: 5, atomicResolution: -7, defaultFundingPpm: 0, liquidityTier: 1 } };
 * ```
 */
export interface CreatePerpetualParams extends GovernanceParams {
  /** The new perpetual. */
  params: PerpetualParamsInput;
}

/**
 * Builds a `MsgCreatePerpetual` (governance): lists a perpetual on an existing oracle market.
 *
 * @param params - the message's fields in chain units (`CreatePerpetualParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} naming the field, before anything is built.
 *
 * @example
 * ```ts
 * const msg = createPerpetualMsg({ params: { id: 5, ticker: "SOL-USD", marketId: 5, atomicResolution: -7, defaultFundingPpm: 0, liquidityTier: 1 } });
 * ```
 */
export function createPerpetualMsg(
  params: CreatePerpetualParams,
): TxMessage<typeof perpetuals.MsgCreatePerpetualSchema> {
  checkParams(params, "createPerpetualMsg");
  return govMsg(perpetuals.MsgCreatePerpetualSchema, {
    authority: authorityOf(params),
    params: perpetualParams(params.params, "params"),
  });
}

/**
 * Parameters of {@link updatePerpetualParamsMsg}.
 *
 * @example
 * ```ts
 * const { id, ticker, marketId, atomicResolution, defaultFundingPpm } = (await client.getPerpetual({ id: btc.perpetualId })).params!;
 * const params: UpdatePerpetualParamsParams = { params: { id, ticker, marketId, atomicResolution, defaultFundingPpm, liquidityTier: 2 } };
 * ```
 */
export interface UpdatePerpetualParamsParams extends GovernanceParams {
  /** The perpetual's new parameters (its atomic resolution and market type cannot change). */
  params: PerpetualParamsInput;
}

/**
 * Builds a `MsgUpdatePerpetualParams` (governance).
 *
 * @param params - the message's fields in chain units (`UpdatePerpetualParamsParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} naming the field, before anything is built.
 *
 * @example
 * ```ts
 * const msg = updatePerpetualParamsMsg({ params: { id: 0, ticker: "BTC-USD", marketId: 0, atomicResolution: -10, defaultFundingPpm: 100, liquidityTier: 0 } });
 * ```
 */
export function updatePerpetualParamsMsg(
  params: UpdatePerpetualParamsParams,
): TxMessage<typeof perpetuals.MsgUpdatePerpetualParamsSchema> {
  checkParams(params, "updatePerpetualParamsMsg");
  return govMsg(perpetuals.MsgUpdatePerpetualParamsSchema, {
    authority: authorityOf(params),
    perpetualParams: perpetualParams(params.params, "params"),
  });
}

/**
 * A liquidity tier: the margin requirements of the perpetuals in it.
 *
 * @example
 * ```ts
 * const tier: LiquidityTierInput = { id: 3, name: "Small-Cap", initialMarginPpm: 200_000, maintenanceFractionPpm: 500_000, impactNotional: 2_500_000_000n, openInterestLowerCap: 0n, openInterestUpperCap: 0n };
 * ```
 */
export interface LiquidityTierInput {
  /** The tier id (uint32). */
  id: number;
  /** Its name. */
  name: string;
  /** Initial margin in ppm of the position's notional, at most 1,000,000. */
  initialMarginPpm: number;
  /** Maintenance margin as a fraction of the initial margin, in ppm, at most 1,000,000. */
  maintenanceFractionPpm: number;
  /** Impact notional in quote quantums, > 0. */
  impactNotional: IntegerInput;
  /** Open interest (quote quantums) where the initial margin starts to rise; at most the upper cap. */
  openInterestLowerCap: IntegerInput;
  /** Open interest (quote quantums) where the initial margin reaches 100%. */
  openInterestUpperCap: IntegerInput;
}

/**
 * Parameters of {@link setLiquidityTierMsg}.
 *
 * @example
 * ```ts
 * const params: SetLiquidityTierParams = { tier: { id: 3, name: "Small-Cap", initialMarginPpm: 200_000, maintenanceFractionPpm: 500_000, impactNotional: 2_500_000_000n, openInterestLowerCap: 0n, openInterestUpperCap: 0n } };
 * ```
 */
export interface SetLiquidityTierParams extends GovernanceParams {
  /** The tier, created or replaced by id. */
  tier: LiquidityTierInput;
}

/**
 * Builds a `MsgSetLiquidityTier` (governance): creates or replaces a liquidity tier.
 *
 * @param params - the message's fields in chain units (`SetLiquidityTierParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (a ppm above 1,000,000, a zero impact notional, a lower cap above the upper cap) before anything is built.
 *
 * @example
 * ```ts
 * const msg = setLiquidityTierMsg({ tier: { id: 3, name: "Small-Cap", initialMarginPpm: 200_000, maintenanceFractionPpm: 500_000, impactNotional: 2_500_000_000n, openInterestLowerCap: 0n, openInterestUpperCap: 0n } });
 * ```
 */
export function setLiquidityTierMsg(
  params: SetLiquidityTierParams,
): TxMessage<typeof perpetuals.MsgSetLiquidityTierSchema> {
  checkParams(params, "setLiquidityTierMsg");
  const tier = object(params.tier, "tier");
  const lower = uint64(tier.openInterestLowerCap, "tier.openInterestLowerCap");
  const upper = uint64(tier.openInterestUpperCap, "tier.openInterestUpperCap");
  if (lower > upper) {
    throw new InvalidArgumentError(
      "tier.openInterestLowerCap",
      `must be at most the upper cap ${upper}, got ${lower}`,
    );
  }
  return govMsg(perpetuals.MsgSetLiquidityTierSchema, {
    authority: authorityOf(params),
    liquidityTier: {
      id: uint32(tier.id, "tier.id"),
      name: nonEmpty(tier.name, "tier.name"),
      initialMarginPpm: ppm(tier.initialMarginPpm, "tier.initialMarginPpm"),
      maintenanceFractionPpm: ppm(tier.maintenanceFractionPpm, "tier.maintenanceFractionPpm"),
      impactNotional: positiveUint64(tier.impactNotional, "tier.impactNotional"),
      openInterestLowerCap: lower,
      openInterestUpperCap: upper,
    },
  });
}

/**
 * Parameters of {@link updatePerpetualsModuleParamsMsg}: the funding sample clamps.
 *
 * @example
 * ```ts
 * const params: UpdatePerpetualsModuleParamsParams = { fundingRateClampFactorPpm: 6_000_000, premiumVoteClampFactorPpm: 60_000_000, minNumVotesPerSample: 15 };
 * ```
 */
export interface UpdatePerpetualsModuleParamsParams extends GovernanceParams {
  /** The funding rate clamp factor, in ppm (uint32). */
  fundingRateClampFactorPpm: number;
  /** The premium vote clamp factor, in ppm (uint32). */
  premiumVoteClampFactorPpm: number;
  /** The votes a premium sample needs (uint32). */
  minNumVotesPerSample: number;
}

/**
 * Builds the perpetuals module's `MsgUpdateParams` (governance).
 *
 * @param params - the message's fields in chain units (`UpdatePerpetualsModuleParamsParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updatePerpetualsModuleParamsMsg({ fundingRateClampFactorPpm: 6_000_000, premiumVoteClampFactorPpm: 60_000_000, minNumVotesPerSample: 15 });
 * ```
 */
export function updatePerpetualsModuleParamsMsg(
  params: UpdatePerpetualsModuleParamsParams,
): TxMessage<typeof perpetuals.MsgUpdateParamsSchema> {
  checkParams(params, "updatePerpetualsModuleParamsMsg");
  return govMsg(perpetuals.MsgUpdateParamsSchema, {
    authority: authorityOf(params),
    params: {
      fundingRateClampFactorPpm: uint32(params.fundingRateClampFactorPpm, "fundingRateClampFactorPpm"),
      premiumVoteClampFactorPpm: uint32(params.premiumVoteClampFactorPpm, "premiumVoteClampFactorPpm"),
      minNumVotesPerSample: uint32(params.minNumVotesPerSample, "minNumVotesPerSample"),
    },
  });
}

/**
 * An oracle market's parameters.
 *
 * @example
 * ```ts
 * const market: MarketParamInput = { id: 5, pair: "SOL-USD", exponent: -8, minExchanges: 3, minPriceChangePpm: 4_000 };
 * ```
 */
export interface MarketParamInput {
  /** The market id (uint32). */
  id: number;
  /** `BASE-QUOTE`, upper-case letters and digits, e.g. `SOL-USD`. */
  pair: string;
  /** Price = integer price x 10^exponent, -18 to 0. */
  exponent: number;
  /** Exchanges a price needs (uint32). */
  minExchanges: number;
  /** The smallest price change that updates the price, in ppm, from 1 to 9,999. */
  minPriceChangePpm: number;
  /**
   * The exchange configuration, JSON.
   * @default ""
   */
  exchangeConfigJson?: string;
}

function marketParam(input: MarketParamInput, argument: string) {
  object(input, argument);
  if (typeof input.pair !== "string" || !/^[A-Z0-9]+-[A-Z0-9]+$/.test(input.pair)) {
    throw new InvalidArgumentError(
      `${argument}.pair`,
      `must be BASE-QUOTE in upper case, got ${JSON.stringify(String(input.pair))}`,
    );
  }
  const json = input.exchangeConfigJson ?? "";
  if (json !== "") {
    try {
      JSON.parse(json);
    } catch {
      throw new InvalidArgumentError(`${argument}.exchangeConfigJson`, "must be JSON");
    }
  }
  return {
    id: uint32(input.id, `${argument}.id`),
    pair: input.pair,
    exponent: intIn(input.exponent, `${argument}.exponent`, -18, 0),
    minExchanges: uint32(input.minExchanges, `${argument}.minExchanges`),
    minPriceChangePpm: intIn(input.minPriceChangePpm, `${argument}.minPriceChangePpm`, 1, 9_999),
    exchangeConfigJson: json,
  };
}

/**
 * Parameters of {@link createOracleMarketMsg}.
 *
 * @example
 * ```ts
 * const params: CreateOracleMarketParams = { market: { id: 5, pair: "SOL-USD", exponent: -8, minExchanges: 3, minPriceChangePpm: 4_000 } };
 * ```
 */
export interface CreateOracleMarketParams extends GovernanceParams {
  /** The new market. */
  market: MarketParamInput;
}

/**
 * Builds a `MsgCreateOracleMarket` (governance).
 *
 * @param params - the message's fields in chain units (`CreateOracleMarketParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = createOracleMarketMsg({ market: { id: 5, pair: "SOL-USD", exponent: -8, minExchanges: 3, minPriceChangePpm: 4_000 } });
 * ```
 */
export function createOracleMarketMsg(
  params: CreateOracleMarketParams,
): TxMessage<typeof prices.MsgCreateOracleMarketSchema> {
  checkParams(params, "createOracleMarketMsg");
  return govMsg(prices.MsgCreateOracleMarketSchema, {
    authority: authorityOf(params),
    params: marketParam(params.market, "market"),
  });
}

/**
 * Parameters of {@link updateMarketParamMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateMarketParamParams = { market: { id: 0, pair: "BTC-USD", exponent: -5, minExchanges: 2, minPriceChangePpm: 1_000 } };
 * ```
 */
export interface UpdateMarketParamParams extends GovernanceParams {
  /** The market's new parameters (its pair and exponent cannot change). */
  market: MarketParamInput;
}

/**
 * Builds a `MsgUpdateMarketParam` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateMarketParamParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateMarketParamMsg({ market: { id: 0, pair: "BTC-USD", exponent: -5, minExchanges: 2, minPriceChangePpm: 1_000 } });
 * ```
 */
export function updateMarketParamMsg(
  params: UpdateMarketParamParams,
): TxMessage<typeof prices.MsgUpdateMarketParamSchema> {
  checkParams(params, "updateMarketParamMsg");
  return govMsg(prices.MsgUpdateMarketParamSchema, {
    authority: authorityOf(params),
    marketParam: marketParam(params.market, "market"),
  });
}
