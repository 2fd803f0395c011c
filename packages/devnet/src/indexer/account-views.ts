/**
 * The JSON bodies of the account routes and channels (`spec/indexer-api.md` 1.1-1.5, 3.5):
 * subaccounts with equity and free collateral, perpetual and asset positions, orders, fills and
 * transfers, built from the read models.
 */

import { CHILD_SUBACCOUNT_STRIDE } from "@perpx/address";
import { Exact } from "@perpx/core";
import type {
  AssetPositionResponseObject,
  FillResponseObject,
  FillUpdate,
  OrderResponseObject,
  OrderType,
  OrderUpdate,
  PerpetualPositionResponseObject,
  SubaccountResponseObject,
  TimeInForce,
  TransferType,
} from "@perpx/core/indexer";
import { clob } from "@perpx/proto";
import { iso, scaled, usdc } from "./format.js";
import { subaccountUuid, uuidOf } from "./ids.js";
import type { AccountsModel, PositionRecord, SubaccountRecord } from "./models/accounts.js";
import type { FillRecord, TransferRecord } from "./models/history.js";
import { type MarketDefinition, type MarketsModel, priceOf, sizeOf } from "./models/markets.js";
import type { OrderRecord } from "./models/orders.js";
import { deleveragingPrice } from "./pg-numeric.js";

/** The models the account views read. */
export interface AccountViewModels {
  readonly markets: MarketsModel;
  readonly accounts: AccountsModel;
  readonly height: bigint;
}

/** A perpetual position as REST shows it. */
export type PerpetualPositionBody = PerpetualPositionResponseObject;

/** An asset position as REST shows it. */
export type AssetPositionBody = AssetPositionResponseObject;

/** A subaccount as REST shows it. */
export type SubaccountBody = SubaccountResponseObject;

/** A position's body. */
export function positionBody(
  models: AccountViewModels,
  record: SubaccountRecord | undefined,
  subaccountNumber: number,
  position: PositionRecord,
): PerpetualPositionBody | undefined {
  const market = models.markets.marketOfPerpetual(position.perpetualId);
  if (market === undefined) return undefined;
  const chain = position.status === "OPEN" ? record?.positions.get(position.perpetualId) : undefined;
  const fundingPpm =
    position.settledFundingPpm +
    (chain === undefined ? 0n : models.accounts.unsettledFundingPpm(position.perpetualId, chain));
  const entryPrice = position.entryPrice.toString();
  let unrealized = "0";
  const price = models.markets.oraclePrice(market.marketId);
  if (position.status === "OPEN" && price !== undefined) {
    // comlink's getUnrealizedPnl: size × (oracle price − entry price), exact.
    unrealized = new Exact(sizeOf(market, position.size))
      .times(new Exact(scaled(price.price, price.exponent)).minus(entryPrice))
      .toString();
  }
  return {
    market: market.ticker,
    status: position.status,
    side: position.side,
    size: sizeOf(market, position.size),
    maxSize: sizeOf(market, position.maxSize),
    entryPrice,
    exitPrice: position.exitPrice === null ? null : position.exitPrice.toString(),
    realizedPnl: position.realizedPnl.toString(),
    unrealizedPnl: unrealized,
    createdAt: iso(position.createdAt),
    createdAtHeight: position.createdAtHeight.toString(),
    closedAt: position.closedAt === null ? null : iso(position.closedAt),
    sumOpen: sizeOf(market, position.sumOpen),
    sumClose: sizeOf(market, position.sumClose),
    netFunding: scaled(fundingPpm, -12),
    subaccountNumber,
  };
}

/** The USDC asset position of a subaccount (none when it is zero). */
export function assetPositionBodies(
  models: AccountViewModels,
  record: SubaccountRecord,
): AssetPositionBody[] {
  const value = models.accounts.value(record).usdcWithFunding;
  if (value === 0n) return [];
  return [
    {
      symbol: "USDC",
      side: value > 0n ? "LONG" : "SHORT",
      size: usdc(value < 0n ? -value : value),
      assetId: "0",
      subaccountNumber: record.subaccountNumber,
    },
  ];
}

/** `units × 10^exponent` as an exact decimal. */
function decimal(units: bigint, exponent: number): Exact {
  return exponent >= 0 ? new Exact(units * 10n ** BigInt(exponent)) : Exact.fromUnits(units, -exponent);
}

/**
 * Equity and free collateral as the reference's comlink computes them
 * (`calculateEquityAndFreeCollateral`), in exact decimals, nothing rounded: equity is the USDC
 * (funding settled) plus every open position's size × oracle price; free collateral is equity less
 * every position's |size × oracle price| × its tier's initial margin fraction. (The chain's own
 * checks round: notional truncated, margins rounded up; the indexer shows the exact values.)
 */
export function subaccountValue(
  models: AccountViewModels,
  record: SubaccountRecord,
): { equity: Exact; freeCollateral: Exact } {
  let equity = decimal(models.accounts.value(record).usdcWithFunding, -6);
  let risk = new Exact(0);
  for (const [perpetualId, position] of record.positions) {
    const market = models.markets.marketOfPerpetual(perpetualId);
    const price = market === undefined ? undefined : models.markets.oraclePrice(market.marketId);
    if (market === undefined || price === undefined) continue;
    const notional = decimal(position.quantums * price.price, price.exponent + market.atomicResolution);
    equity = equity.plus(notional);
    const tier = models.markets.tierOf(market);
    if (tier !== undefined)
      risk = risk.plus(notional.abs().times(decimal(BigInt(tier.initialMarginPpm), -6)));
  }
  return { equity, freeCollateral: equity.minus(risk) };
}

/** A subaccount's body. */
export function subaccountBody(models: AccountViewModels, record: SubaccountRecord): SubaccountBody {
  const value = subaccountValue(models, record);
  const open: Record<string, PerpetualPositionBody> = {};
  for (const position of models.accounts.positions(record.address, record.subaccountNumber)) {
    if (position.status !== "OPEN") continue;
    const body = positionBody(models, record, record.subaccountNumber, position);
    if (body !== undefined) open[body.market] = body;
  }
  const assets: Record<string, AssetPositionBody> = {};
  for (const a of assetPositionBodies(models, record)) assets[a.symbol] = a;
  return {
    address: record.address,
    subaccountNumber: record.subaccountNumber,
    equity: value.equity.toString(),
    freeCollateral: value.freeCollateral.toString(),
    openPerpetualPositions: open,
    assetPositions: assets,
    marginEnabled: true,
    updatedAtHeight: record.updatedAtHeight.toString(),
    latestProcessedBlockHeight: models.height.toString(),
  };
}

/** The id of an order. */
export function orderUuid(key: string): string {
  return uuidOf(`order/${key}`);
}

function orderType(order: clob.Order): OrderType {
  if (order.conditionType === clob.Order_ConditionType.STOP_LOSS) return "STOP_LIMIT";
  if (order.conditionType === clob.Order_ConditionType.TAKE_PROFIT) return "TAKE_PROFIT";
  return "LIMIT";
}

function timeInForce(order: clob.Order): TimeInForce {
  if (order.timeInForce === clob.Order_TimeInForce.IOC) return "IOC";
  if (order.timeInForce === clob.Order_TimeInForce.FILL_OR_KILL) return "FOK";
  return "GTT";
}

/** An order's REST body. */
export function orderBody(market: MarketDefinition, record: OrderRecord): OrderResponseObject {
  return {
    ...orderFields(market, record),
    subaccountNumber: record.order.orderId?.subaccountId?.number ?? 0,
  };
}

/** An order as the subaccount channels send it (no subaccount number; the removal reason). */
export function orderUpdateBody(market: MarketDefinition, record: OrderRecord): OrderUpdate {
  return {
    ...orderFields(market, record),
    ...(record.removalReason === undefined ? {} : { removalReason: record.removalReason }),
  };
}

function orderFields(
  market: MarketDefinition,
  record: OrderRecord,
): Omit<OrderResponseObject, "subaccountNumber"> {
  const order = record.order;
  const id = order.orderId;
  const owner = id?.subaccountId?.owner ?? "";
  const number = id?.subaccountId?.number ?? 0;
  const gt = order.goodTilOneof;
  return {
    id: orderUuid(record.key),
    subaccountId: subaccountUuid(owner, number),
    clientId: String(id?.clientId ?? 0),
    clobPairId: String(id?.clobPairId ?? 0),
    side: order.side === clob.Order_Side.BUY ? "BUY" : "SELL",
    size: sizeOf(market, order.quantums),
    totalFilled: sizeOf(market, record.totalFilled),
    price: priceOf(market, order.subticks),
    type: orderType(order),
    status: record.status,
    timeInForce: timeInForce(order),
    postOnly: order.timeInForce === clob.Order_TimeInForce.POST_ONLY,
    reduceOnly: order.reduceOnly,
    orderFlags: String(id?.orderFlags ?? 0),
    ...(gt.case === "goodTilBlock" ? { goodTilBlock: String(gt.value) } : {}),
    ...(gt.case === "goodTilBlockTime" ? { goodTilBlockTime: iso(gt.value * 1000) } : {}),
    ...(record.createdAtHeight === undefined
      ? {}
      : { createdAtHeight: record.createdAtHeight.toString(), createdAt: iso(record.createdAt ?? 0) }),
    clientMetadata: String(order.clientMetadata),
    ...(order.conditionType === clob.Order_ConditionType.UNSPECIFIED
      ? {}
      : { triggerPrice: priceOf(market, order.conditionalOrderTriggerSubticks) }),
    ...(record.updatedAtHeight === undefined
      ? {}
      : { updatedAt: iso(record.updatedAt ?? 0), updatedAtHeight: record.updatedAtHeight.toString() }),
    ticker: market.ticker,
  };
}

/**
 * The position a fill found, as the real indexer's fill rows carry it: `positionSizeBefore`
 * (unsigned, "0" when none was open), and the latest position's `entryPriceBefore` and
 * `positionSideBefore` when there is one; nothing on a deleveraging fill.
 */
function beforeFields(
  market: MarketDefinition,
  fill: FillRecord,
): Pick<FillResponseObject, "positionSizeBefore" | "entryPriceBefore" | "positionSideBefore"> {
  const before = fill.before;
  if (before === undefined) return {};
  return {
    positionSizeBefore: sizeOf(market, before.size),
    ...(before.entryPrice === undefined ? {} : { entryPriceBefore: before.entryPrice.toString() }),
    ...(before.side === undefined ? {} : { positionSideBefore: before.side }),
  };
}

/** A fill's price: the maker's, or a deleveraging's quote amount over its size (as ender divides). */
function fillPrice(market: MarketDefinition, fill: FillRecord): string {
  return fill.type === "DELEVERAGED" || fill.type === "OFFSETTING"
    ? deleveragingPrice(market, fill.quoteQuantums, fill.quantums)
    : priceOf(market, fill.subticks);
}

/** A fill's REST body. */
export function fillBody(
  market: MarketDefinition,
  fill: FillRecord,
  orders: (key: string) => boolean,
): FillResponseObject {
  return {
    id: uuidOf(`fill/${fill.eventId}/${fill.liquidity}`),
    side: fill.side,
    liquidity: fill.liquidity,
    type: fill.type,
    market: market.ticker,
    marketType: "PERPETUAL",
    price: fillPrice(market, fill),
    size: sizeOf(market, fill.quantums),
    fee: usdc(fill.fee),
    affiliateRevShare: usdc(fill.affiliateRevShare),
    createdAt: iso(fill.createdAt),
    createdAtHeight: fill.createdAtHeight.toString(),
    ...(orders(fill.orderKey) ? { orderId: orderUuid(fill.orderKey) } : {}),
    clientMetadata: String(fill.clientMetadata),
    subaccountNumber: fill.subaccountNumber,
    ...beforeFields(market, fill),
  };
}

/** A fill as the subaccount channel sends it. */
export function fillUpdateBody(market: MarketDefinition, fill: FillRecord): FillUpdate {
  return {
    id: uuidOf(`fill/${fill.eventId}/${fill.liquidity}`),
    subaccountId: subaccountUuid(fill.subaccount, fill.subaccountNumber),
    side: fill.side,
    liquidity: fill.liquidity,
    type: fill.type,
    clobPairId: String(fill.clobPairId),
    // A liquidated or deleveraged side has no order of its own.
    ...(fill.type === "LIMIT" || fill.type === "LIQUIDATION" ? { orderId: orderUuid(fill.orderKey) } : {}),
    size: sizeOf(market, fill.quantums),
    price: fillPrice(market, fill),
    quoteAmount: usdc(fill.quoteQuantums),
    eventId: fill.eventId,
    transactionHash: fill.transactionHash,
    createdAt: iso(fill.createdAt),
    createdAtHeight: fill.createdAtHeight.toString(),
    clientMetadata: String(fill.clientMetadata),
    fee: usdc(fill.fee),
    affiliateRevShare: usdc(fill.affiliateRevShare),
    ticker: market.ticker,
    ...beforeFields(market, fill),
  };
}

/** A transfer's type seen from a subaccount (`parent`: judged at parent level). */
export function transferType(
  transfer: TransferRecord,
  address: string,
  number: number,
  parent = false,
): TransferType {
  const same = (s: TransferRecord["sender"]) =>
    s.address === address &&
    s.subaccountNumber !== undefined &&
    (parent ? s.subaccountNumber % CHILD_SUBACCOUNT_STRIDE === number : s.subaccountNumber === number);
  if (same(transfer.sender))
    return transfer.recipient.subaccountNumber === undefined ? "WITHDRAWAL" : "TRANSFER_OUT";
  return transfer.sender.subaccountNumber === undefined ? "DEPOSIT" : "TRANSFER_IN";
}

/** A transfer's REST body, typed from a subaccount's point of view. */
export function transferBody(transfer: TransferRecord, address: string, number: number, parent = false) {
  const side = (s: TransferRecord["sender"]) => ({
    address: s.address,
    ...(s.subaccountNumber === undefined
      ? {}
      : parent
        ? { parentSubaccountNumber: s.subaccountNumber % CHILD_SUBACCOUNT_STRIDE }
        : { subaccountNumber: s.subaccountNumber }),
  });
  return {
    id: uuidOf(`transfer/${transfer.eventId}`),
    sender: side(transfer.sender),
    recipient: side(transfer.recipient),
    size: usdc(transfer.quantums),
    createdAt: iso(transfer.createdAt),
    createdAtHeight: transfer.createdAtHeight.toString(),
    symbol: "USDC",
    type: transferType(transfer, address, number, parent),
    transactionHash: transfer.transactionHash,
  };
}
