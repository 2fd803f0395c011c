/**
 * The order book read model: price level -> total resting size per clob pair, fed only by the
 * memclob's off-chain order stream (placements, fill-amount updates, removals, replacements), as
 * the real indexer's book is. Immediate-or-cancel and fill-or-kill orders never rest, so they never
 * touch a level. The REST snapshot is sorted, uncrossed by the reference's rule and capped.
 */
import { clob } from "@perpx/proto";
import type { OrderStreamMessage } from "../../app/contract.js";

/** Levels per side in a snapshot. */
export const SNAPSHOT_LEVELS = 100;

/** A side of the book. */
export type BookSide = "bids" | "asks";

/** One level's new total after a stream message (0 removes it), and its total before. */
export interface LevelChange {
  readonly clobPairId: number;
  readonly side: BookSide;
  readonly subticks: bigint;
  readonly quantums: bigint;
  readonly previous: bigint;
}

/**
 * The net change of each level over a step of the order stream: the size before the level's first
 * change and its last change, in the order the levels first changed (keyed by the subticks, then
 * the pair and side: no key string per change).
 */
export class LevelChanges {
  /** Every changed level, in the order first changed. */
  readonly inOrder: { readonly first: bigint; last: LevelChange }[] = [];
  private readonly bySubticks = new Map<bigint, { readonly first: bigint; last: LevelChange }[]>();

  /** Records one change. */
  add(change: LevelChange): void {
    const atPrice = this.bySubticks.get(change.subticks);
    if (atPrice === undefined) {
      const entry = { first: change.previous, last: change };
      this.bySubticks.set(change.subticks, [entry]);
      this.inOrder.push(entry);
      return;
    }
    for (const entry of atPrice) {
      if (entry.last.clobPairId === change.clobPairId && entry.last.side === change.side) {
        entry.last = change;
        return;
      }
    }
    const entry = { first: change.previous, last: change };
    atPrice.push(entry);
    this.inOrder.push(entry);
  }
}

/** A level: its total size and when it last changed (a counter of stream messages). */
export interface Level {
  readonly subticks: bigint;
  readonly quantums: bigint;
  readonly updated: number;
}

interface Resting {
  readonly clobPairId: number;
  readonly side: BookSide;
  readonly subticks: bigint;
  readonly quantums: bigint;
  remaining: bigint;
}

interface Book {
  readonly bids: Map<bigint, Level>;
  readonly asks: Map<bigint, Level>;
}

/** The key of an order id (owner, number, client id, flags, clob pair). */
export function orderIdKey(id: clob.OrderId | undefined): string {
  const sub = id?.subaccountId;
  return `${sub?.owner ?? ""}/${sub?.number ?? 0}/${id?.clientId ?? 0}/${id?.orderFlags ?? 0}/${id?.clobPairId ?? 0}`;
}

/** The key of the order a stream message is about (the new order of a replacement). */
export function streamOrderKey(message: OrderStreamMessage): string {
  return orderIdKey(
    message.kind === "place" || message.kind === "replace" ? message.order.orderId : message.orderId,
  );
}

function rests(order: clob.Order): boolean {
  return (
    order.timeInForce !== clob.Order_TimeInForce.IOC &&
    order.timeInForce !== clob.Order_TimeInForce.FILL_OR_KILL
  );
}

/** The order book model (see the module comment). */
export class OrderBookModel {
  private readonly books = new Map<number, Book>();
  private readonly resting = new Map<string, Resting>();
  private readonly filled = new Map<string, bigint>();
  private clock = 0;

  private book(clobPairId: number): Book {
    let book = this.books.get(clobPairId);
    if (book === undefined) {
      book = { bids: new Map(), asks: new Map() };
      this.books.set(clobPairId, book);
    }
    return book;
  }

  private adjust(order: Resting, delta: bigint, out: LevelChange[]): void {
    if (delta === 0n) return;
    const levels = this.book(order.clobPairId)[order.side];
    const previous = levels.get(order.subticks)?.quantums ?? 0n;
    const total = previous + delta;
    if (total <= 0n) levels.delete(order.subticks);
    else levels.set(order.subticks, { subticks: order.subticks, quantums: total, updated: this.clock });
    out.push({
      clobPairId: order.clobPairId,
      side: order.side,
      subticks: order.subticks,
      quantums: total > 0n ? total : 0n,
      previous,
    });
  }

  private place(order: clob.Order, key: string, out: LevelChange[]): void {
    if (!rests(order)) return;
    const resting: Resting = {
      clobPairId: order.orderId?.clobPairId ?? 0,
      side: order.side === clob.Order_Side.BUY ? "bids" : "asks",
      subticks: order.subticks,
      quantums: order.quantums,
      remaining: order.quantums - (this.filled.get(key) ?? 0n),
    };
    if (resting.remaining <= 0n) return;
    this.resting.set(key, resting);
    this.adjust(resting, resting.remaining, out);
  }

  private remove(key: string, out: LevelChange[]): void {
    const resting = this.resting.get(key);
    if (resting === undefined) return;
    this.resting.delete(key);
    this.adjust(resting, -resting.remaining, out);
  }

  /**
   * Applies one stream message; returns the levels it changed, in order. `key` is the message's
   * {@link streamOrderKey} (a caller that has it passes it).
   */
  apply(message: OrderStreamMessage, key = streamOrderKey(message)): LevelChange[] {
    this.clock++;
    const out: LevelChange[] = [];
    switch (message.kind) {
      case "place":
        this.place(message.order, key, out);
        break;
      case "replace":
        this.remove(orderIdKey(message.oldOrder.orderId), out);
        this.place(message.order, key, out);
        break;
      case "update": {
        this.filled.set(key, message.totalFilled);
        const resting = this.resting.get(key);
        if (resting !== undefined) {
          const remaining = resting.quantums - message.totalFilled;
          const delta = (remaining > 0n ? remaining : 0n) - resting.remaining;
          resting.remaining += delta;
          this.adjust(resting, delta, out);
          if (resting.remaining <= 0n) this.resting.delete(key);
        }
        break;
      }
      case "remove": {
        this.remove(key, out);
        this.filled.delete(key);
        break;
      }
    }
    return out;
  }

  /** The levels of one side, best first, without uncrossing. */
  levels(clobPairId: number, side: BookSide): Level[] {
    const levels = [...(this.books.get(clobPairId)?.[side].values() ?? [])];
    return levels.sort((a, b) =>
      side === "bids" ? Number(b.subticks - a.subticks) : Number(a.subticks - b.subticks),
    );
  }

  /**
   * The best bid plus the best ask of the uncrossed book ({@link snapshot}), in subticks: twice
   * the mid, as the reference's `getOrderBookMidPrice` reads it; undefined when a side is empty.
   */
  bestSum(clobPairId: number): bigint | undefined {
    const { bids, asks } = this.snapshot(clobPairId);
    const [bid] = bids;
    const [ask] = asks;
    if (bid === undefined || ask === undefined) return undefined;
    return bid.subticks + ask.subticks;
  }

  /**
   * The snapshot of a book: levels sorted, uncrossed (while the best bid is at or above the best
   * ask, the level updated less recently goes; on a tie the smaller one; on equal sizes the bid),
   * then at most {@link SNAPSHOT_LEVELS} per side.
   */
  snapshot(clobPairId: number): { bids: Level[]; asks: Level[] } {
    const bids = this.levels(clobPairId, "bids");
    const asks = this.levels(clobPairId, "asks");
    let b = 0;
    let a = 0;
    while (b < bids.length && a < asks.length) {
      const bid = bids[b] as Level;
      const ask = asks[a] as Level;
      if (bid.subticks < ask.subticks) break;
      if (bid.updated > ask.updated) a++;
      else if (bid.updated < ask.updated) b++;
      else if (bid.quantums > ask.quantums) a++;
      else b++;
    }
    return { bids: bids.slice(b, b + SNAPSHOT_LEVELS), asks: asks.slice(a, a + SNAPSHOT_LEVELS) };
  }
}
