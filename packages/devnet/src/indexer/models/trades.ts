/**
 * The trades read model: one trade per taker fill, per market, in the order the chain filled them:
 * order and liquidation fills, and deleveragings (the real indexer's trades are its TAKER fills,
 * and a deleveraging's liquidated side is one: type DELEVERAGED, its side).
 */

import { clob } from "@perpx/proto";
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { eventIdHex } from "../block-events.js";

/** One trade. */
export interface TradeRecord {
  /** The taker fill's event id in hex. */
  readonly id: string;
  readonly clobPairId: number;
  readonly side: "BUY" | "SELL";
  readonly quantums: bigint;
  readonly subticks: bigint;
  readonly quoteQuantums: bigint;
  readonly type: "LIMIT" | "LIQUIDATED" | "DELEVERAGED";
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
}

/** The trades model (see the module comment). */
export class TradesModel {
  private readonly byPair = new Map<number, TradeRecord[]>();

  /** Applies one event; returns the trade it made, if any. */
  apply(located: LocatedIndexerEvent): TradeRecord | undefined {
    const e = located.event;
    if (e.kind === "deleveraging") {
      return this.add({
        id: eventIdHex(located),
        clobPairId: e.clobPairId,
        side: e.isBuy ? "BUY" : "SELL",
        quantums: e.fillAmount,
        subticks: e.subticks,
        quoteQuantums: e.totalQuoteQuantums,
        type: "DELEVERAGED",
        createdAt: located.time,
        createdAtHeight: located.height,
      });
    }
    if (e.kind !== "order_fill") return undefined;
    return this.add({
      id: eventIdHex(located),
      clobPairId: e.clobPairId,
      side: e.taker.side === clob.Order_Side.BUY ? "BUY" : "SELL",
      quantums: e.quantums,
      subticks: e.subticks,
      quoteQuantums: e.quoteQuantums,
      type: e.liquidation === true ? "LIQUIDATED" : "LIMIT",
      createdAt: located.time,
      createdAtHeight: located.height,
    });
  }

  private add(trade: TradeRecord): TradeRecord {
    const list = this.byPair.get(trade.clobPairId) ?? [];
    list.push(trade);
    this.byPair.set(trade.clobPairId, list);
    return trade;
  }

  /** Forgets trades of blocks below `height`. */
  prune(height: bigint): void {
    for (const list of this.byPair.values()) {
      let cut = 0;
      while (cut < list.length && (list[cut] as TradeRecord).createdAtHeight < height) cut++;
      if (cut > 0) list.splice(0, cut);
    }
  }

  /** A market's trades, oldest first. */
  trades(clobPairId: number): readonly TradeRecord[] {
    return this.byPair.get(clobPairId) ?? [];
  }
}
