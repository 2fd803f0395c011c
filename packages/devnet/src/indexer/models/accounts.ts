/**
 * The subaccounts read model: each subaccount's USDC and perpetual positions as the chain last
 * reported them (subaccount updates), the perpetuals' funding indices (funding events), and the
 * position history as the real indexer's ender keeps it. Equity and free collateral are the chain's
 * margin math (`app/modules/subaccounts/margin.ts`, shared pure code) at the oracle prices the
 * indexer holds.
 *
 * The lifecycle is ender's (`dydx_subaccount_update_handler`): a subaccount update opens a position
 * (size and max size signed, entry price 0, sums 0), updates its size and max size (the greater
 * signed value, so a short's is its smallest size), and closes it (CLOSED, size 0) when its size
 * returns to zero or changes sign, opening the new side's position at once. The chain emits a
 * fill's subaccount updates before the fill, so a fill finds the position the update left: the
 * latest one (`dydx_update_perpetual_position_aggregate_fields`) takes the fill's size into
 * `sumOpen` and the entry price when the sides agree, else into `sumClose` and the exit price
 * (weighted averages in `numeric(256, 20)`), and an order fill realizes
 * (`dydx_apply_fill_realized_effects`) against the size it found (`sumOpen − sumClose`): (price −
 * entry) × the size closed (a short the other way) when it reduces, always minus its fee. So a
 * fill that crosses zero books its whole size and fee on the new position and realizes nothing
 * (the closed one keeps its sums), as the reference does. Liquidation fills (both sides) and
 * deleveraging move the sums but not the realized PnL; funding stays apart (`netFunding`).
 */

import { Exact } from "@perpx/core";
import type { IndexerEvent, LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { floorDiv } from "../../app/modules/subaccounts/dtypes.js";
import {
  fundingSettlementPpm,
  marginRequirements,
  netNotional,
} from "../../app/modules/subaccounts/margin.js";
import { usdc } from "../format.js";
import { deleveragingPrice, weightedAverage } from "../pg-numeric.js";
import { type MarketsModel, priceOf, sizeOf } from "./markets.js";

/** A perpetual position as the chain holds it. */
export interface ChainPosition {
  readonly quantums: bigint;
  readonly fundingIndex: bigint;
}

/** A subaccount as the chain last reported it. */
export interface SubaccountRecord {
  readonly address: string;
  readonly subaccountNumber: number;
  usdc: bigint;
  positions: Map<number, ChainPosition>;
  updatedAtHeight: bigint;
}

/** A perpetual position's history, opened and closed by subaccount updates (see the module comment). */
export interface PositionRecord {
  readonly perpetualId: number;
  readonly side: "LONG" | "SHORT";
  status: "OPEN" | "CLOSED";
  /** Signed base quantums (0 once closed). */
  size: bigint;
  /** Signed base quantums: the greatest signed size the updates showed. */
  maxSize: bigint;
  /** Base quantums the fills booked as opening, and their weighted average price (0 before any). */
  sumOpen: bigint;
  entryPrice: Exact;
  /** Base quantums the fills booked as closing, and their weighted average price. */
  sumClose: bigint;
  exitPrice: Exact | null;
  /** Realized PnL in USDC, exact (see the module comment). */
  realizedPnl: Exact;
  /** Settled funding in millionths of a quote quantum. */
  settledFundingPpm: bigint;
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
  closedAt: Date | null;
  /** Order of opening (for newest-first lists). */
  readonly openSeq: number;
}

/**
 * A subaccount's latest position in a perpetual as a fill finds it (the real indexer's
 * `positionSizeBefore`, `entryPriceBefore`, `positionSideBefore`): `sumOpen − sumClose` of the
 * latest position, open or not (0 when there is none), its entry price (none while 0) and side.
 */
export interface PositionBefore {
  /** Base quantums: the latest position's sumOpen − sumClose. */
  readonly size: bigint;
  readonly side?: "LONG" | "SHORT";
  readonly entryPrice?: Exact;
}

/** Equity, free collateral and margin of a subaccount, in quote quantums. */
export interface SubaccountValue {
  readonly equity: bigint;
  readonly freeCollateral: bigint;
  readonly usdcWithFunding: bigint;
}

/** The key of a subaccount. */
export function subaccountKey(address: string, subaccountNumber: number): string {
  return `${address}/${subaccountNumber}`;
}

const ZERO = new Exact(0);

/** The subaccounts model (see the module comment). */
export class AccountsModel {
  private readonly subaccounts = new Map<string, SubaccountRecord>();
  private readonly byAddress = new Map<string, Set<number>>();
  private readonly histories = new Map<string, PositionRecord[]>();
  private readonly fundingIndex = new Map<number, bigint>();
  private seq = 0;

  constructor(private readonly markets: MarketsModel) {}

  /** Applies one event; returns the subaccounts it changed (keys). */
  apply(located: LocatedIndexerEvent): string[] {
    const e = located.event;
    switch (e.kind) {
      case "funding":
        this.fundingIndex.set(e.perpetualId, e.fundingIndex);
        return [];
      case "subaccount_update":
        return [this.update(e, located)];
      case "order_fill":
        return this.fill(e);
      case "deleveraging": {
        const market = this.markets.marketOfPerpetual(e.perpetualId);
        if (market === undefined) return [];
        const liquidated = subaccountKey(e.liquidated.owner, e.liquidated.number);
        const offsetting = subaccountKey(e.offsetting.owner, e.offsetting.number);
        const price = new Exact(deleveragingPrice(market, e.totalQuoteQuantums, e.fillAmount));
        this.aggregate(liquidated, e.perpetualId, e.isBuy, e.fillAmount, price);
        this.aggregate(offsetting, e.perpetualId, !e.isBuy, e.fillAmount, price);
        return [liquidated, offsetting];
      }
      default:
        return [];
    }
  }

  private update(
    e: Extract<IndexerEvent, { kind: "subaccount_update" }>,
    located: LocatedIndexerEvent,
  ): string {
    const key = subaccountKey(e.owner, e.number);
    let record = this.subaccounts.get(key);
    if (record === undefined) {
      record = {
        address: e.owner,
        subaccountNumber: e.number,
        usdc: 0n,
        positions: new Map(),
        updatedAtHeight: 0n,
      };
      this.subaccounts.set(key, record);
      const numbers = this.byAddress.get(e.owner) ?? new Set<number>();
      numbers.add(e.number);
      this.byAddress.set(e.owner, numbers);
    }
    // Funding the chain settled into USDC with this update, per position (exact millionths).
    for (const [perpetualId, before] of record.positions) {
      const index = this.fundingIndexOf(perpetualId);
      const settled = fundingSettlementPpm(before.quantums, before.fundingIndex, index);
      const open = this.openPosition(key, perpetualId);
      if (open !== undefined && settled !== 0n) open.settledFundingPpm += settled;
    }
    const after = new Map(
      e.perpetualPositions
        .filter((p) => p.quantums !== 0n)
        .map((p) => [p.perpetualId, { quantums: p.quantums, fundingIndex: p.fundingIndex }]),
    );
    // The positions this update left: a perpetual it no longer lists went to zero.
    for (const perpetualId of new Set([...record.positions.keys(), ...after.keys()])) {
      this.resize(key, perpetualId, after.get(perpetualId)?.quantums ?? 0n, located);
    }
    record.usdc = e.usdc;
    record.positions = after;
    record.updatedAtHeight = located.height;
    return key;
  }

  /** ender's subaccount update of one perpetual position (see the module comment). */
  private resize(key: string, perpetualId: number, size: bigint, located: LocatedIndexerEvent): void {
    const open = this.openPosition(key, perpetualId);
    const side = size > 0n ? "LONG" : "SHORT";
    if (open !== undefined && (size === 0n || open.side !== side)) {
      open.status = "CLOSED";
      open.size = 0n;
      open.closedAt = located.time;
    } else if (open !== undefined) {
      open.size = size;
      if (open.maxSize < size) open.maxSize = size;
    }
    if (size === 0n || (open !== undefined && open.side === side)) return;
    const list = this.histories.get(key) ?? [];
    list.push({
      perpetualId,
      side,
      status: "OPEN",
      size,
      maxSize: size,
      sumOpen: 0n,
      entryPrice: ZERO,
      sumClose: 0n,
      exitPrice: null,
      realizedPnl: ZERO,
      settledFundingPpm: 0n,
      createdAt: located.time,
      createdAtHeight: located.height,
      closedAt: null,
      openSeq: this.seq++,
    });
    this.histories.set(key, list);
  }

  private fill(e: Extract<IndexerEvent, { kind: "order_fill" }>): string[] {
    const market = this.markets.marketOfPair(e.clobPairId);
    if (market === undefined) return [];
    const keys: string[] = [];
    const price = new Exact(priceOf(market, e.subticks));
    const size = new Exact(sizeOf(market, e.quantums));
    for (const [order, fee] of [
      [e.taker, e.takerFee],
      [e.maker, e.makerFee],
    ] as const) {
      const sub = order.orderId?.subaccountId;
      const key = subaccountKey(sub?.owner ?? "", sub?.number ?? 0);
      const buy = order.side === 1;
      const before = this.positionBefore(sub?.owner ?? "", sub?.number ?? 0, market.perpetualId);
      const position = this.aggregate(key, market.perpetualId, buy, e.quantums, price);
      // ender realizes order fills only (neither side of a liquidation).
      if (position !== undefined && e.liquidation !== true) {
        position.realizedPnl = position.realizedPnl
          .plus(realized(before, buy, size, price, new Exact(sizeOf(market, before.size))))
          .minus(new Exact(usdc(fee)));
      }
      keys.push(key);
    }
    return keys;
  }

  /**
   * ender's `dydx_update_perpetual_position_aggregate_fields`: the fill's size and price into the
   * latest position's opening or closing sums. Returns that position (none when there is none).
   */
  private aggregate(
    key: string,
    perpetualId: number,
    buy: boolean,
    quantums: bigint,
    price: Exact,
  ): PositionRecord | undefined {
    const position = this.latestPosition(key, perpetualId);
    if (position === undefined) return undefined;
    const market = this.markets.marketOfPerpetual(perpetualId);
    if (market === undefined) return position;
    const size = new Exact(sizeOf(market, quantums));
    if ((position.side === "LONG") === buy) {
      const weight = new Exact(sizeOf(market, position.sumOpen));
      position.entryPrice = weightedAverage(position.entryPrice, weight, price, size);
      position.sumOpen += quantums;
    } else {
      const weight = new Exact(sizeOf(market, position.sumClose));
      position.exitPrice = weightedAverage(position.exitPrice ?? ZERO, weight, price, size);
      position.sumClose += quantums;
    }
    return position;
  }

  private latestPosition(key: string, perpetualId: number): PositionRecord | undefined {
    const list = this.histories.get(key);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const p = list[i] as PositionRecord;
      if (p.perpetualId === perpetualId) return p;
    }
    return undefined;
  }

  private openPosition(key: string, perpetualId: number): PositionRecord | undefined {
    const latest = this.latestPosition(key, perpetualId);
    return latest?.status === "OPEN" ? latest : undefined;
  }

  /**
   * A subaccount's latest position in a perpetual as it stands now (see {@link PositionBefore});
   * size 0 and no side when it never had one.
   */
  positionBefore(address: string, subaccountNumber: number, perpetualId: number): PositionBefore {
    const p = this.latestPosition(subaccountKey(address, subaccountNumber), perpetualId);
    if (p === undefined) return { size: 0n };
    return {
      size: p.sumOpen - p.sumClose,
      side: p.side,
      ...(p.entryPrice.isZero() ? {} : { entryPrice: p.entryPrice }),
    };
  }

  /** A perpetual's funding index as the latest funding event gave it (0 before any). */
  fundingIndexOf(perpetualId: number): bigint {
    return this.fundingIndex.get(perpetualId) ?? 0n;
  }

  /** Every subaccount as the chain last reported it. */
  records(): IterableIterator<SubaccountRecord> {
    return this.subaccounts.values();
  }

  /** Every subaccount's key and equity. */
  *equities(): Generator<[string, bigint]> {
    for (const [key, record] of this.subaccounts) yield [key, this.value(record).equity];
  }

  /** A subaccount. */
  subaccount(address: string, subaccountNumber: number): SubaccountRecord | undefined {
    return this.subaccounts.get(subaccountKey(address, subaccountNumber));
  }

  /** The numbers of an address's subaccounts, ascending. */
  numbersOf(address: string): number[] {
    return [...(this.byAddress.get(address) ?? [])].sort((a, b) => a - b);
  }

  /** A subaccount's positions, oldest opened first. */
  positions(address: string, subaccountNumber: number): readonly PositionRecord[] {
    return this.histories.get(subaccountKey(address, subaccountNumber)) ?? [];
  }

  /** Unsettled funding of a chain position, in millionths of a quote quantum. */
  unsettledFundingPpm(perpetualId: number, position: ChainPosition): bigint {
    return fundingSettlementPpm(position.quantums, position.fundingIndex, this.fundingIndexOf(perpetualId));
  }

  /**
   * Equity (net collateral) and free collateral at the oracle prices, funding settled as the
   * chain settles it when the subaccount is next touched.
   */
  value(record: SubaccountRecord): SubaccountValue {
    let settlementPpm = 0n;
    let equity = 0n;
    let initial = 0n;
    for (const [perpetualId, position] of record.positions) {
      settlementPpm += this.unsettledFundingPpm(perpetualId, position);
      const market = this.markets.marketOfPerpetual(perpetualId);
      const price = market === undefined ? undefined : this.markets.oraclePrice(market.marketId);
      if (market === undefined || price === undefined) continue;
      const pricing = {
        atomicResolution: market.atomicResolution,
        price: price.price,
        exponent: price.exponent,
      };
      equity += netNotional(position.quantums, pricing);
      const tier = this.markets.tierOf(market);
      if (tier !== undefined) initial += marginRequirements(position.quantums, pricing, tier).initial;
    }
    const usdcWithFunding = record.usdc + floorDiv(settlementPpm, 1_000_000n);
    equity += usdcWithFunding;
    return { equity, freeCollateral: equity - initial, usdcWithFunding };
  }
}

/**
 * ender's `dydx_apply_fill_realized_effects` before the fee: a fill that reduces the position it
 * found realizes (price − entry) × the size it closes (capped at that position's size); a short the
 * other way. Nothing when it found none, or no entry price, or when it adds.
 */
function realized(before: PositionBefore, buy: boolean, size: Exact, price: Exact, found: Exact): Exact {
  if (before.size === 0n || before.side === undefined || before.entryPrice === undefined) return ZERO;
  const reduces = (before.side === "LONG") !== buy;
  if (!reduces) return ZERO;
  const closing = Exact.min(size, found);
  const gain = before.side === "LONG" ? price.minus(before.entryPrice) : before.entryPrice.minus(price);
  return gain.times(closing);
}
