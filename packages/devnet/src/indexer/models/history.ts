/**
 * The account history read model: fills (one per side of every fill event, with its fee),
 * transfers (between subaccounts, deposits and withdrawals), and historical funding per
 * perpetual (each funding payment's rate and oracle price).
 */
import { clob } from "@perpx/proto";
import type { FundingRateEvent, LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { eventIdHex } from "../block-events.js";
import type { PositionBefore } from "./accounts.js";
import { orderIdKey } from "./orderbook.js";

/** One side of a fill. */
export interface FillRecord {
  readonly eventId: string;
  readonly subaccount: string;
  readonly subaccountNumber: number;
  readonly liquidity: "TAKER" | "MAKER";
  /** LIMIT, or LIQUIDATED / LIQUIDATION (a liquidation's two sides), DELEVERAGED / OFFSETTING. */
  readonly type: "LIMIT" | "LIQUIDATED" | "LIQUIDATION" | "DELEVERAGED" | "OFFSETTING";
  readonly side: "BUY" | "SELL";
  readonly clobPairId: number;
  readonly quantums: bigint;
  readonly subticks: bigint;
  readonly quoteQuantums: bigint;
  readonly fee: bigint;
  /**
   * The fill event's affiliate revenue share, on both sides as the real indexer books it (0 on
   * deleveraging).
   */
  readonly affiliateRevShare: bigint;
  readonly orderKey: string;
  readonly clientMetadata: number;
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
  readonly transactionHash: string;
  /** The subaccount's position in the market as the fill found it (order fills; not deleveraging). */
  readonly before?: PositionBefore;
}

/** The position a fill of a subaccount finds in a clob pair's market, before the fill moves it. */
export type PositionBeforeLookup = (
  address: string,
  subaccountNumber: number,
  clobPairId: number,
) => PositionBefore;

/** A transfer. */
export interface TransferRecord {
  readonly eventId: string;
  readonly sender: { readonly address: string; readonly subaccountNumber?: number };
  readonly recipient: { readonly address: string; readonly subaccountNumber?: number };
  readonly quantums: bigint;
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
  readonly transactionHash: string;
}

/** A funding payment of a perpetual. */
export interface FundingRecord {
  readonly perpetualId: number;
  readonly ratePpm: bigint;
  readonly oracleSubticks: bigint;
  readonly effectiveAt: Date;
  readonly effectiveAtHeight: bigint;
}

const subKey = (address: string, n: number) => `${address}/${n}`;

/** The fills and transfers one event made. */
export interface HistoryChanges {
  readonly fills: readonly FillRecord[];
  readonly transfers: readonly TransferRecord[];
}

/** What an event that makes neither fills nor transfers returns (shared: never changed). */
const NO_CHANGES: HistoryChanges = Object.freeze({
  fills: Object.freeze([]) as readonly FillRecord[],
  transfers: Object.freeze([]) as readonly TransferRecord[],
});

/** The history model (see the module comment). */
export class HistoryModel {
  private readonly fills = new Map<string, FillRecord[]>();
  private readonly transfers = new Map<string, TransferRecord[]>();
  private readonly funding = new Map<number, FundingRecord[]>();

  private push<T>(map: Map<string, T[]>, key: string, item: T): void {
    const list = map.get(key);
    if (list === undefined) map.set(key, [item]);
    else list.push(item);
  }

  /**
   * Applies one event; returns the fills and transfers it made. `positionBefore` answers the
   * position an order fill finds (the real indexer sets `positionSizeBefore` and the rest on order
   * and liquidation fills, not on deleveraging ones): call it before the position moves.
   */
  apply(located: LocatedIndexerEvent, positionBefore?: PositionBeforeLookup): HistoryChanges {
    const e = located.event;
    if (e.kind === "funding") {
      if (e.phase === "payment") this.applyFunding(e, located);
      return NO_CHANGES;
    }
    if (e.kind !== "order_fill" && e.kind !== "deleveraging" && e.kind !== "transfer") return NO_CHANGES;
    const eventId = eventIdHex(located);
    const transactionHash = located.txHash ?? "";
    const base = { createdAt: located.time, createdAtHeight: located.height, transactionHash };
    if (e.kind === "order_fill") {
      const fills: FillRecord[] = [];
      const liquidation = e.liquidation === true;
      for (const [order, liquidity, fee, type] of [
        [e.taker, "TAKER", e.takerFee, liquidation ? "LIQUIDATED" : "LIMIT"],
        [e.maker, "MAKER", e.makerFee, liquidation ? "LIQUIDATION" : "LIMIT"],
      ] as const) {
        const sub = order.orderId?.subaccountId;
        const owner = sub?.owner ?? "";
        const number = sub?.number ?? 0;
        const before = positionBefore?.(owner, number, e.clobPairId);
        // Written out (no spreads): one fill record per side of every fill, on the block's path.
        const fill: { -readonly [K in keyof FillRecord]: FillRecord[K] } = {
          createdAt: located.time,
          createdAtHeight: located.height,
          transactionHash,
          eventId,
          subaccount: owner,
          subaccountNumber: number,
          liquidity,
          type,
          side: order.side === clob.Order_Side.BUY ? "BUY" : "SELL",
          clobPairId: e.clobPairId,
          quantums: e.quantums,
          subticks: e.subticks,
          quoteQuantums: e.quoteQuantums,
          fee,
          affiliateRevShare: e.affiliateRevShare ?? 0n,
          orderKey: orderIdKey(order.orderId),
          clientMetadata: order.clientMetadata,
        };
        if (before !== undefined) fill.before = before;
        this.push(this.fills, subKey(fill.subaccount, fill.subaccountNumber), fill);
        fills.push(fill);
      }
      return { fills, transfers: [] };
    }
    if (e.kind === "deleveraging") {
      const fills: FillRecord[] = [];
      for (const [sub, liquidity, type, buys] of [
        [e.liquidated, "TAKER", "DELEVERAGED", e.isBuy],
        [e.offsetting, "MAKER", "OFFSETTING", !e.isBuy],
      ] as const) {
        const fill: FillRecord = {
          ...base,
          eventId,
          subaccount: sub.owner,
          subaccountNumber: sub.number,
          liquidity,
          type,
          side: buys ? "BUY" : "SELL",
          clobPairId: e.clobPairId,
          quantums: e.fillAmount,
          subticks: e.subticks,
          quoteQuantums: e.totalQuoteQuantums,
          fee: 0n,
          affiliateRevShare: 0n,
          orderKey: "",
          clientMetadata: 0,
        };
        this.push(this.fills, subKey(fill.subaccount, fill.subaccountNumber), fill);
        fills.push(fill);
      }
      return { fills, transfers: [] };
    }
    const side = (s: { owner: string; number?: number }) => ({
      address: s.owner,
      ...(s.number === undefined ? {} : { subaccountNumber: s.number }),
    });
    const transfer: TransferRecord = {
      ...base,
      eventId,
      sender: side(e.sender),
      recipient: side(e.recipient),
      quantums: e.quantums,
    };
    const keys = new Set<string>();
    for (const s of [transfer.sender, transfer.recipient]) {
      if (s.subaccountNumber !== undefined) keys.add(subKey(s.address, s.subaccountNumber));
    }
    for (const key of keys) this.push(this.transfers, key, transfer);
    return { fills: [], transfers: [transfer] };
  }

  private applyFunding(e: FundingRateEvent, located: LocatedIndexerEvent): void {
    const list = this.funding.get(e.perpetualId) ?? [];
    list.push({
      perpetualId: e.perpetualId,
      ratePpm: e.ratePpm,
      oracleSubticks: e.oracleSubticks,
      effectiveAt: located.time,
      effectiveAtHeight: located.height,
    });
    this.funding.set(e.perpetualId, list);
  }

  /** Forgets fills and transfers of blocks below `height`. */
  prune(height: bigint): void {
    for (const map of [this.fills, this.transfers] as Map<string, { createdAtHeight: bigint }[]>[]) {
      for (const [key, list] of map) {
        let cut = 0;
        while (cut < list.length && (list[cut] as { createdAtHeight: bigint }).createdAtHeight < height)
          cut++;
        if (cut === list.length) map.delete(key);
        else if (cut > 0) {
          // Shifted in place: `splice` would also build an array of the removed records.
          list.copyWithin(0, cut);
          list.length -= cut;
        }
      }
    }
  }

  /** A subaccount's fills, oldest first. */
  fillsOf(address: string, subaccountNumber: number): readonly FillRecord[] {
    return this.fills.get(subKey(address, subaccountNumber)) ?? [];
  }

  /** A subaccount's transfers, oldest first. */
  transfersOf(address: string, subaccountNumber: number): readonly TransferRecord[] {
    return this.transfers.get(subKey(address, subaccountNumber)) ?? [];
  }

  /** A perpetual's funding payments, oldest first. */
  fundingOf(perpetualId: number): readonly FundingRecord[] {
    return this.funding.get(perpetualId) ?? [];
  }
}
