/**
 * One fill of a liquidation order, as the reference chain settles it both in the proposer's memclob
 * and when the block's proposed operations are delivered: the insurance fund delta at the maker's
 * price (the liquidation fee, or the fund's payout), the fund's balance and the subaccount's block
 * limits checked (clob 1013, 1011, 1012, 1008), no taker fee, a maker fee that is never a rebate,
 * both subaccounts collateral-checked, the fund paid or paying, and the fill's events (the ABCI
 * `order_fill` with `liquidation` and `insurance_fund_delta`, and the indexer's fill flagged as a
 * liquidation).
 *
 * The per-block liquidation record of a subaccount (perpetuals liquidated, notional liquidated,
 * insurance fund lost) lives under `liqinfo/<owner>/<number>` of the clob store and is cleared at
 * every end of block, like the reference chain's transient store.
 */
import { create } from "@bufbuild/protobuf";
import { USDC_DENOM } from "@perpx/core";
import { clob } from "@perpx/proto";
import { moduleAddress } from "../../lib/addresses.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { abciError } from "../../lib/errors.js";
import { wireCreate, wireDecode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { distributeFillFees } from "../revshare/fill.js";
import { routerFeesOf } from "../revshare/shares.js";
import { absBig } from "../subaccounts/dtypes.js";
import type { SubaccountRef } from "../subaccounts/keeper.js";
import { netNotional, type PositionPricing } from "../subaccounts/margin.js";
import { CLOB_EVENTS, type ClobKeepers, type Engine, quoteQuantums } from "./engine.js";
import { clobErrors } from "./errors.js";
import { insuranceFundDelta, type LiquidatedPosition, type SubaccountRisk } from "./liquidation-math.js";
import type { FillDecision } from "./matching.js";
import { CLOB, keys } from "./state.js";

/** The insurance fund module account of a perpetual (`insurance_fund`, or its own when isolated). */
export function insuranceFundName(keepers: ClobKeepers, ctx: StoreAccess, perpetualId: number): string {
  const pool = keepers.subaccounts.collateralPoolName(ctx, perpetualId);
  return pool === "subaccounts" ? "insurance_fund" : `insurance_fund:${perpetualId}`;
}

/** The USDC balance of a perpetual's insurance fund (quote quantums). */
export function insuranceFundBalance(keepers: ClobKeepers, ctx: StoreAccess, perpetualId: number): bigint {
  return keepers.bank.balance(ctx, moduleAddress(insuranceFundName(keepers, ctx, perpetualId)), USDC_DENOM);
}

/** A subaccount's liquidations in the current block. */
export interface LiquidationInfo {
  readonly perpetualsLiquidated: readonly number[];
  readonly notionalLiquidated: bigint;
  readonly insuranceLost: bigint;
}

const INFO_PREFIX = "liqinfo/";

function infoKey(ref: SubaccountRef): string {
  return `${INFO_PREFIX}${ref.owner}/${ref.number}`;
}

/** A subaccount's liquidation record of this block. */
export function liquidationInfo(ctx: StoreAccess, ref: SubaccountRef): LiquidationInfo {
  const bytes = ctx.store(CLOB).get(infoKey(ref));
  if (bytes === undefined) return { perpetualsLiquidated: [], notionalLiquidated: 0n, insuranceLost: 0n };
  const [perps = "", notional = "0", lost = "0"] = fromUtf8(bytes).split("|");
  return {
    perpetualsLiquidated: perps === "" ? [] : perps.split(",").map(Number),
    notionalLiquidated: BigInt(notional),
    insuranceLost: BigInt(lost),
  };
}

function setInfo(ctx: StoreAccess, ref: SubaccountRef, info: LiquidationInfo): void {
  const text = `${info.perpetualsLiquidated.join(",")}|${info.notionalLiquidated}|${info.insuranceLost}`;
  ctx.store(CLOB).set(infoKey(ref), utf8(text));
}

/** Records that a perpetual of a subaccount was liquidated in this block. */
export function markPerpetualLiquidated(ctx: StoreAccess, ref: SubaccountRef, perpetualId: number): void {
  const info = liquidationInfo(ctx, ref);
  if (info.perpetualsLiquidated.includes(perpetualId)) return;
  setInfo(ctx, ref, { ...info, perpetualsLiquidated: [...info.perpetualsLiquidated, perpetualId] });
}

/** Forgets every subaccount's liquidation record (end of block). */
export function clearLiquidationInfo(ctx: StoreAccess): void {
  const store = ctx.store(CLOB);
  for (const [key] of [...store.entries(INFO_PREFIX)]) store.delete(key);
}

/** The liquidations configuration in state. */
export function liquidationsConfig(ctx: StoreAccess): clob.LiquidationsConfig {
  const bytes = ctx.store(CLOB).get(keys.liquidationsConfig);
  return bytes === undefined
    ? wireCreate(wire.perpx_clob_v1_LiquidationsConfig)
    : wireDecode(wire.perpx_clob_v1_LiquidationsConfig, bytes);
}

/** What the liquidation math needs about a subaccount's position in a perpetual (funding settled). */
export function liquidatedPosition(
  ctx: StoreAccess,
  keepers: ClobKeepers,
  ref: SubaccountRef,
  perpetualId: number,
): { risk: SubaccountRisk; position: LiquidatedPosition | undefined } {
  const totals = keepers.subaccounts.risk(ctx, ref);
  const view = keepers.subaccounts.settled(ctx, ref);
  const held = view.perpetualPositions.find((p) => p.perpetualId === perpetualId);
  const risk = { netCollateral: totals.netCollateral, maintenance: totals.maintenance };
  if (held === undefined || held.quantums === 0n) return { risk, position: undefined };
  return {
    risk,
    position: {
      quantums: held.quantums,
      pricing: pricingOf(ctx, keepers, perpetualId),
      fractions: fractionsOf(ctx, keepers, perpetualId),
    },
  };
}

/** The oracle pricing of a perpetual. */
export function pricingOf(ctx: StoreAccess, keepers: ClobKeepers, perpetualId: number): PositionPricing {
  const perpetual = keepers.perpetuals.perpetual(ctx, perpetualId);
  const oracle = keepers.prices.oraclePrice(ctx, perpetual.params.marketId);
  return {
    atomicResolution: perpetual.params.atomicResolution,
    price: oracle.price,
    exponent: oracle.exponent,
  };
}

function fractionsOf(ctx: StoreAccess, keepers: ClobKeepers, perpetualId: number) {
  const tier = keepers.perpetuals.liquidityTierOf(ctx, perpetualId);
  return { initialMarginPpm: tier.initialMarginPpm, maintenanceFractionPpm: tier.maintenanceFractionPpm };
}

/** A liquidation order: never signed or stored, built by the proposer for a liquidatable subaccount. */
export interface LiquidationOrder {
  readonly liquidated: SubaccountRef;
  readonly pair: clob.ClobPair;
  readonly perpetualId: number;
  readonly isBuy: boolean;
  /** Base quantums. */
  readonly totalSize: bigint;
  /** The fillable price, in subticks (the order's limit). */
  readonly subticks: bigint;
}

/** The liquidation order as an `Order` (client id 0, short-term flags, IOC) for the fill events. */
export function liquidationAsOrder(order: LiquidationOrder): clob.Order {
  return create(clob.OrderSchema, {
    orderId: {
      subaccountId: { owner: order.liquidated.owner, number: order.liquidated.number },
      clientId: 0,
      orderFlags: 0,
      clobPairId: order.pair.id,
    },
    side: order.isBuy ? clob.Order_Side.BUY : clob.Order_Side.SELL,
    quantums: order.totalSize,
    subticks: order.subticks,
    timeInForce: clob.Order_TimeInForce.IOC,
  });
}

/**
 * Settles one fill of a liquidation order against `maker` at the maker's price (see the module
 * comment). `makerTotalFilled` and `takerTotalFilled` are each order's fill amount with this fill.
 *
 * @throws AbciError clob 1002 (not liquidatable), 1008, 1011, 1012 (block limits), 1013 (the
 * insurance fund cannot pay); nothing is changed then.
 */
export function settleLiquidationFill(
  engine: Engine,
  keepers: ClobKeepers,
  order: LiquidationOrder,
  maker: clob.Order,
  quantums: bigint,
  makerTotalFilled: bigint,
  takerTotalFilled: bigint,
): FillDecision {
  const ctx = engine.ctx;
  const { pair, perpetualId, liquidated } = order;
  const { risk, position } = liquidatedPosition(ctx, keepers, liquidated, perpetualId);
  const label = `subaccount ${liquidated.owner}/${liquidated.number}`;
  if (position === undefined || risk.maintenance === 0n || risk.netCollateral >= risk.maintenance) {
    throw abciError(clobErrors.subaccountNotLiquidatable, `${label} is not liquidatable`);
  }
  const config = liquidationsConfig(ctx);
  const quote = quoteQuantums(maker.subticks, quantums, pair.quantumConversionExponent);
  const fundDelta = insuranceFundDelta(
    risk,
    position,
    order.isBuy,
    quantums,
    quote,
    config.maxLiquidationFeePpm,
  );
  if (fundDelta < 0n && insuranceFundBalance(keepers, ctx, perpetualId) + fundDelta < 0n) {
    throw abciError(
      clobErrors.insuranceFundHasInsufficientFunds,
      `${label}: insurance fund delta ${fundDelta}`,
    );
  }
  const info = liquidationInfo(ctx, liquidated);
  if (info.perpetualsLiquidated.includes(perpetualId) && takerTotalFilled === quantums) {
    throw abciError(clobErrors.subaccountHasLiquidatedPerpetual, `${label}, perpetual ${perpetualId}`);
  }
  const limits = config.subaccountBlockLimits;
  const notional = absBig(netNotional(quantums, position.pricing));
  const notionalLeft = (limits?.maxNotionalLiquidated ?? 0n) - info.notionalLiquidated;
  if (notional > notionalLeft) {
    throw abciError(
      clobErrors.liquidationExceedsSubaccountMaxNotionalLiquidated,
      `${label}: notional ${notional} above ${notionalLeft} left this block`,
    );
  }
  const lostLeft = (limits?.maxQuantumsInsuranceLost ?? 0n) - info.insuranceLost;
  if (fundDelta < 0n && -fundDelta > lostLeft) {
    throw abciError(
      clobErrors.liquidationExceedsSubaccountMaxInsuranceLost,
      `${label}: insurance lost ${-fundDelta} above ${lostLeft} left this block`,
    );
  }
  const makerRef = {
    owner: maker.orderId?.subaccountId?.owner ?? "",
    number: maker.orderId?.subaccountId?.number ?? 0,
  };
  const makerFeeSigned = engine.fee(makerRef.owner, quote, false, pair);
  const makerFee = makerFeeSigned < 0n ? 0n : makerFeeSigned;
  const takerPool = keepers.subaccounts.poolOf(ctx, liquidated);
  const refused = keepers.subaccounts.tryApplyEach(ctx, [
    {
      id: liquidated,
      usdcDelta: (order.isBuy ? -quote : quote) - fundDelta,
      perpetualDeltas: [{ perpetualId, quantumsDelta: order.isBuy ? quantums : -quantums }],
    },
    {
      id: makerRef,
      usdcDelta: (order.isBuy ? quote : -quote) - makerFee,
      perpetualDeltas: [{ perpetualId, quantumsDelta: order.isBuy ? -quantums : quantums }],
    },
  ]);
  if (refused === 0) return "taker-fails";
  if (refused === 1) return "maker-fails";
  const fund = insuranceFundName(keepers, ctx, perpetualId);
  const coins = [{ denom: USDC_DENOM, amount: absBig(fundDelta) }];
  if (fundDelta > 0n) keepers.bank.sendCoinsFromModuleToModule(ctx, takerPool, fund, coins);
  if (fundDelta < 0n) keepers.bank.sendCoinsFromModuleToModule(ctx, fund, takerPool, coins);
  const shares = distributeFillFees(ctx, keepers, {
    perpetualId,
    taker: liquidated.owner,
    maker: makerRef.owner,
    takerFee: 0n,
    makerFee,
    quoteQuantums: quote,
    takerRouter: "",
    makerRouter: maker.orderRouterAddress,
  });
  keepers.feeTiers.recordFill(ctx, liquidated.owner, makerRef.owner, quote);
  setInfo(ctx, liquidated, {
    ...info,
    notionalLiquidated: info.notionalLiquidated + notional,
    insuranceLost: info.insuranceLost + (fundDelta < 0n ? -fundDelta : 0n),
  });
  // As for any fill: a liquidation pays no taker fee, so only the maker can earn reward shares.
  keepers.rewards.addRewardSharesForFill(ctx, {
    taker: liquidated.owner,
    maker: makerRef.owner,
    takerFee: 0n,
    makerFee,
    fillQuote: quote,
    revShares: {
      takerOrderRouter: 0n,
      makerOrderRouter: routerFeesOf(shares, "", maker.orderRouterAddress).maker,
      netProtocolRevenuePpm: shares.ppmBySource.net_protocol_revenue,
    },
  });
  const taker = liquidationAsOrder(order);
  ctx.events.emitEvent(CLOB_EVENTS.fill, [
    ["clob_pair_id", String(pair.id)],
    ["taker_owner", liquidated.owner],
    ["taker_subaccount_number", String(liquidated.number)],
    ["taker_client_id", "0"],
    ["taker_order_flags", "0"],
    ["taker_side", order.isBuy ? "buy" : "sell"],
    ["maker_owner", makerRef.owner],
    ["maker_subaccount_number", String(makerRef.number)],
    ["maker_client_id", String(maker.orderId?.clientId ?? 0)],
    ["maker_order_flags", String(maker.orderId?.orderFlags ?? 0)],
    ["subticks", maker.subticks.toString()],
    ["quantums", quantums.toString()],
    ["quote_quantums", quote.toString()],
    ["taker_fee", "0"],
    ["maker_fee", makerFee.toString()],
    ["maker_total_filled", makerTotalFilled.toString()],
    ["liquidation", "true"],
    ["insurance_fund_delta", fundDelta.toString()],
  ]);
  ctx.events.indexer({
    kind: "order_fill",
    clobPairId: pair.id,
    taker,
    maker,
    quantums,
    subticks: maker.subticks,
    quoteQuantums: quote,
    takerFee: 0n,
    makerFee,
    takerTotalFilled,
    makerTotalFilled,
    liquidation: true,
  });
  return "ok";
}
