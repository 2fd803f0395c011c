/**
 * The order book of every clob pair, kept in a {@link KvStore} under keys that sort in price-time
 * priority: `book/<pair:10>/<b|s>/<price key:20>/<seq:20>` for stateful orders and
 * `book/<pair:10>/<b|s>/<price key:20>/<seq:20>/<tie:20>` for short-term ones. Bids store
 * `2^64 - 1 - subticks` as their price key so ascending iteration gives the highest bid first; asks
 * store the subticks. The time priority ({@link Priority}) keeps arrival order at one price.
 *
 * The book lives in the module's store slice (not in closures), so a failed tx rolls it back.
 * Short-term orders' keys are volatile (see `state.ts`): the store iterates them merged with the
 * stateful ones, but they stay out of the app hash and the exported state. Insert, cancel and
 * update are one key write; the best order is the first key of a prefix.
 */

import type { KvStore } from "../../kernel/store.js";
import { BinaryReader, BinaryWriter, putVarint, varintLength } from "../../lib/codec.js";
import { padKey } from "../records.js";

/** A side of the book. */
export type BookSide = "buy" | "sell";

/**
 * The time priority of an order: a stateful order has the placement sequence `seq` and `tie` 0; a
 * short-term order has the last sequence given before it and its own `tie` (> 0), so it ranks
 * after that stateful order and before the next one.
 */
export interface Priority {
  readonly seq: bigint;
  readonly tie: bigint;
}

/** One resting order as the book keeps it. */
export interface RestingOrder extends Priority {
  /** The order's store key (see `orderKey`). */
  readonly key: string;
  readonly side: BookSide;
  readonly subticks: bigint;
  /** Quantums still open. */
  readonly remaining: bigint;
  /** The owner and number of the order's subaccount. */
  readonly owner: string;
  readonly number: number;
}

const MAX_U64 = (1n << 64n) - 1n;

function sideLetter(side: BookSide): string {
  return side === "buy" ? "b" : "s";
}

/** Where an order rests: its side, price and time priority. */
export type BookSlot = Pick<RestingOrder, "side" | "subticks" | "seq" | "tie">;

/** The store key of a resting order. */
export function bookKey(pairId: number, slot: BookSlot): string {
  const { side, subticks, seq, tie } = slot;
  const price = side === "buy" ? MAX_U64 - subticks : subticks;
  const key = `book/${padKey(pairId, 10)}/${sideLetter(side)}/${padKey(price, 20)}/${padKey(seq, 20)}`;
  return tie === 0n ? key : `${key}/${padKey(tie, 20)}`;
}

/** The length of `text` when it is ASCII (one byte a character in UTF-8), else -1. */
function asciiLength(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return -1;
  return text.length;
}

/** Writes ASCII `text` length-prefixed at `at`; returns where it ends. */
function putAscii(out: Uint8Array, at: number, text: string): number {
  let i = putVarint(out, at, BigInt(text.length));
  for (let c = 0; c < text.length; c++) out[i++] = text.charCodeAt(c);
  return i;
}

/**
 * The stored value of a resting order: its key and owner (length-prefixed UTF-8), then its
 * subaccount number and open quantums (varints), as a `BinaryWriter` writes them; ASCII key and
 * owner (every address) are written in one exact-size array.
 */
export function encodeResting(order: RestingOrder): Uint8Array {
  const keyLength = asciiLength(order.key);
  const ownerLength = asciiLength(order.owner);
  if (keyLength < 0 || ownerLength < 0) {
    return new BinaryWriter(96)
      .string(order.key)
      .string(order.owner)
      .uvarint(order.number)
      .uvarint(order.remaining)
      .finish();
  }
  const number = BigInt(order.number);
  const out = new Uint8Array(
    varintLength(BigInt(keyLength)) +
      keyLength +
      varintLength(BigInt(ownerLength)) +
      ownerLength +
      varintLength(number) +
      varintLength(order.remaining),
  );
  const at = putAscii(out, putAscii(out, 0, order.key), order.owner);
  putVarint(out, putVarint(out, at, number), order.remaining);
  return out;
}

/** The part of `key` from `start` to the next slash (or its end). */
function part(key: string, start: number): string {
  const slash = key.indexOf("/", start);
  return slash < 0 ? key.slice(start) : key.slice(start, slash);
}

function decode(key: string, bytes: Uint8Array): RestingOrder {
  // book/<pair>/<b|s>/<price key>/<seq>[/<tie>]
  const sideAt = key.indexOf("/", 5) + 1;
  const side: BookSide = key.charCodeAt(sideAt) === 0x62 /* b */ ? "buy" : "sell";
  const priceAt = key.indexOf("/", sideAt) + 1;
  const priceText = part(key, priceAt);
  const seqAt = priceAt + priceText.length + 1;
  const seqText = part(key, seqAt);
  const tieAt = seqAt + seqText.length + 1;
  const price = BigInt(priceText);
  const r = new BinaryReader(bytes);
  return {
    key: r.string(),
    side,
    subticks: side === "buy" ? MAX_U64 - price : price,
    seq: BigInt(seqText),
    tie: tieAt > key.length ? 0n : BigInt(key.slice(tieAt)),
    owner: r.string(),
    number: r.uint(),
    remaining: r.uvarint(),
  };
}

/** The order book of every clob pair over a store (see the module comment). */
export class OrderBook {
  constructor(private readonly store: KvStore) {}

  /** Adds a resting order (replaces one with the same price and sequence). */
  insert(pairId: number, order: RestingOrder): void {
    this.store.set(bookKey(pairId, order), encodeResting(order));
  }

  /** Removes a resting order; true when it was there. */
  remove(pairId: number, order: BookSlot): boolean {
    const key = bookKey(pairId, order);
    if (!this.store.has(key)) return false;
    this.store.delete(key);
    return true;
  }

  /** Sets the open quantums of a resting order (removes it at zero). */
  setRemaining(pairId: number, order: RestingOrder, remaining: bigint): void {
    if (remaining <= 0n) this.remove(pairId, order);
    else this.insert(pairId, { ...order, remaining });
  }

  /** The resting orders of one side, best first (price, then time). */
  *orders(pairId: number, side: BookSide): Generator<RestingOrder> {
    const prefix = `book/${padKey(pairId, 10)}/${sideLetter(side)}/`;
    for (const [key, value] of this.store.entries(prefix)) yield decode(key, value);
  }

  /** The best resting order of a side, or undefined. */
  best(pairId: number, side: BookSide): RestingOrder | undefined {
    for (const order of this.orders(pairId, side)) return order;
    return undefined;
  }

  /** Levels of one side, best first: price and total open quantums, at most `limit` levels. */
  levels(
    pairId: number,
    side: BookSide,
    limit = Number.POSITIVE_INFINITY,
  ): { subticks: bigint; quantums: bigint }[] {
    const out: { subticks: bigint; quantums: bigint }[] = [];
    for (const order of this.orders(pairId, side)) {
      const last = out.at(-1);
      if (last !== undefined && last.subticks === order.subticks) last.quantums += order.remaining;
      else {
        if (out.length >= limit) break;
        out.push({ subticks: order.subticks, quantums: order.remaining });
      }
    }
    return out;
  }
}
