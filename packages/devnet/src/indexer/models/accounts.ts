/**
 * The subaccounts read model: each subaccount's USDC and perpetual positions as the chain last
 * reported them (subaccount updates), the perpetuals' funding indices (funding events), and the
 * position history the fills make (entry and exit prices, sizes opened and closed, realized PnL,
 * settled funding, OPEN/CLOSED). Equity and free collateral are the chain's margin math
 * (`app/modules/subaccounts/margin.ts`, shared pure code) at the oracle prices the indexer holds.
 *
 * Realized PnL is the real indexer's (`dydx_apply_fill_realized_effects`): an order fill that
 * reduces the position adds `(price - entry price before) × size closed` (long; the other way for a
 * short), and every order fill subtracts its fee (a maker rebate adds); liquidation fills (both
 * sides) and deleveraging fills move the position but not its realized PnL; funding stays apart
 * (`netFunding`).
 */
import type { IndexerEvent, LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { floorDiv } from "../../app/modules/subaccounts/dtypes.js";
import {
  fundingSettlementPpm,
  marginRequirements,
  netNotional,
} from "../../app/modules/subaccounts/margin.js";
import type { MarketsModel } from "./markets.js";

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

/** A perpetual position's history, opened by a fill and closed when its size returns to zero. */
export interface PositionRecord {
  readonly perpetualId: number;
  readonly side: "LONG" | "SHORT";
  status: "OPEN" | "CLOSED" | "LIQUIDATED";
  /** Signed base quantums. */
  size: bigint;
  maxSize: bigint;
  /** Quantums opened, and the quote quantums paid or received for them (entry = quote / size). */
  sumOpen: bigint;
  openQuote: bigint;
  sumClose: bigint;
  closeQuote: bigint;
  /**
   * Realized PnL in quote quantums: closing PnL (rounded down per close) minus the fees of the
   * order fills, funding apart (see the module comment).
   */
  realizedPnl: bigint;
  /** Settled funding in millionths of a quote quantum. */
  settledFundingPpm: bigint;
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
  closedAt: Date | null;
  /** Order of opening (for newest-first lists). */
  readonly openSeq: number;
}

/**
 * A subaccount's latest position in a perpetual as a fill found it (the real indexer's
 * `positionSizeBefore`, `entryPriceBefore`, `positionSideBefore`): the size still open (0 once
 * closed), and the entry (`openQuote / sumOpen`) and side of the latest position, open or not.
 */
export interface PositionBefore {
  /** Unsigned base quantums still open. */
  readonly size: bigint;
  readonly side?: "LONG" | "SHORT";
  readonly openQuote: bigint;
  readonly sumOpen: bigint;
}

/** How a fill moves the realized PnL: `fee` (quote quantums) when it realizes, else not at all. */
type Realizing = { readonly fee: bigint } | undefined;

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

const sign = (v: bigint) => (v > 0n ? 1n : v < 0n ? -1n : 0n);

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
        return this.fill(e, located);
      case "deleveraging": {
        const liquidated = subaccountKey(e.liquidated.owner, e.liquidated.number);
        const offsetting = subaccountKey(e.offsetting.owner, e.offsetting.number);
        const delta = e.isBuy ? e.fillAmount : -e.fillAmount;
        this.trade(liquidated, e.perpetualId, delta, e.totalQuoteQuantums, located, undefined);
        this.trade(offsetting, e.perpetualId, -delta, e.totalQuoteQuantums, located, undefined);
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
    record.usdc = e.usdc;
    record.positions = new Map(
      e.perpetualPositions
        .filter((p) => p.quantums !== 0n)
        .map((p) => [p.perpetualId, { quantums: p.quantums, fundingIndex: p.fundingIndex }]),
    );
    record.updatedAtHeight = located.height;
    return key;
  }

  private fill(e: Extract<IndexerEvent, { kind: "order_fill" }>, located: LocatedIndexerEvent): string[] {
    const market = this.markets.marketOfPair(e.clobPairId);
    if (market === undefined) return [];
    const keys: string[] = [];
    const liquidation = e.liquidation === true;
    for (const [order, fee] of [
      [e.taker, e.takerFee],
      [e.maker, e.makerFee],
    ] as const) {
      const sub = order.orderId?.subaccountId;
      const key = subaccountKey(sub?.owner ?? "", sub?.number ?? 0);
      const delta = order.side === 1 ? e.quantums : -e.quantums;
      const closedAs = liquidation && order === e.taker ? "LIQUIDATED" : "CLOSED";
      const realizing = liquidation ? undefined : { fee };
      this.trade(key, market.perpetualId, delta, e.quoteQuantums, located, realizing, closedAs);
      keys.push(key);
    }
    return keys;
  }

  /**
   * Books `delta` base quantums traded for `quote` quote quantums on the subaccount's position;
   * an order fill (`realizing`) realizes its closing PnL and fee on the position it finds open (or
   * the one it opens).
   */
  private trade(
    key: string,
    perpetualId: number,
    delta: bigint,
    quote: bigint,
    located: LocatedIndexerEvent,
    realizing: Realizing,
    closedAs: "CLOSED" | "LIQUIDATED" = "CLOSED",
  ): void {
    let open = this.openPosition(key, perpetualId);
    if (open !== undefined && realizing !== undefined) open.realizedPnl -= realizing.fee;
    const feeBooked = open !== undefined;
    let remaining = delta;
    let remainingQuote = quote;
    if (open !== undefined && sign(open.size) !== sign(delta)) {
      const absSize = open.size * sign(open.size);
      const absDelta = delta * sign(delta);
      // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
      const closeAmount = absDelta < absSize ? absDelta : absSize;
      const closeQuote = (quote * closeAmount) / absDelta;
      open.sumClose += closeAmount;
      open.closeQuote += closeQuote;
      // Long: proceeds minus cost; short: cost minus what buying back costs.
      const basis = floorDiv(open.openQuote * closeAmount, open.sumOpen);
      if (realizing !== undefined)
        open.realizedPnl += open.side === "LONG" ? closeQuote - basis : basis - closeQuote;
      open.size += sign(delta) * closeAmount;
      remaining = delta - sign(delta) * closeAmount;
      remainingQuote = quote - closeQuote;
      if (open.size === 0n) {
        open.status = closedAs;
        open.closedAt = located.time;
        open = undefined;
      }
    }
    if (remaining === 0n) return;
    if (open === undefined) {
      open = {
        perpetualId,
        side: remaining > 0n ? "LONG" : "SHORT",
        status: "OPEN",
        size: 0n,
        maxSize: 0n,
        sumOpen: 0n,
        openQuote: 0n,
        sumClose: 0n,
        closeQuote: 0n,
        realizedPnl: 0n,
        settledFundingPpm: 0n,
        createdAt: located.time,
        createdAtHeight: located.height,
        closedAt: null,
        openSeq: this.seq++,
      };
      const list = this.histories.get(key) ?? [];
      list.push(open);
      this.histories.set(key, list);
      if (!feeBooked && realizing !== undefined) open.realizedPnl -= realizing.fee;
    }
    open.size += remaining;
    open.sumOpen += remaining > 0n ? remaining : -remaining;
    open.openQuote += remainingQuote;
    const abs = open.size > 0n ? open.size : -open.size;
    if (abs > open.maxSize) open.maxSize = abs;
  }

  private openPosition(key: string, perpetualId: number): PositionRecord | undefined {
    const list = this.histories.get(key);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const p = list[i] as PositionRecord;
      if (p.perpetualId === perpetualId && p.status === "OPEN") return p;
    }
    return undefined;
  }

  /**
   * A subaccount's latest position in a perpetual as it stands now (see {@link PositionBefore});
   * size 0 and no side when it never had one.
   */
  positionBefore(address: string, subaccountNumber: number, perpetualId: number): PositionBefore {
    const list = this.histories.get(subaccountKey(address, subaccountNumber)) ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      const p = list[i] as PositionRecord;
      if (p.perpetualId !== perpetualId) continue;
      return { size: p.sumOpen - p.sumClose, side: p.side, openQuote: p.openQuote, sumOpen: p.sumOpen };
    }
    return { size: 0n, openQuote: 0n, sumOpen: 0n };
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
