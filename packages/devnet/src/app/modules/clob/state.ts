/**
 * The clob module's store layout (slice `clob/`) and its records. Numbers in keys are zero-padded
 * so keys sort numerically.
 *
 * - `pair/<id:10>`: `ClobPair`; `equity_tier_config`, `block_rate_limit_config`, `liquidations_config`
 * - `order/<order key>`: an open order ({@link StoredOrder}): resting short-term and long-term
 *   orders, and conditional orders (triggered or not)
 * - `book/...`: the order book (see `book.ts`)
 * - `done/<order key>`: a short-term order that was filled or cancelled, kept until its
 *   good-til-block passes (replay protection by order id + GTB)
 * - `exp/b/<gtb:20>/<order key>`, `exp/t/<gtbt:20>/<order key>`: expiry index
 * - `trig/<pair:10>/<order key>`: untriggered conditional orders
 * - `seq`: the placement counter of stateful orders; `tie`: the counter of short-term orders (see
 *   {@link nextPriority}); `last_time`: the previous block's time (ms)
 * - `rl/<height:20>/<kind>/<address>`: rate-limit counters
 * - `lev/<owner>/<number:10>/<pair:10>`: leverage (custom initial margin ppm)
 * - `funding/sample/<perpetual:10>`, `funding/last`: funding premium samples and the last payment
 *
 * Short-term orders are volatile ({@link isShortTermKey}): their `order/`, `book/`, `exp/b/` and
 * `done/` keys, the short-term rate-limit counters and `tie` live in memory only, as on a real
 * node. They are outside the app hash and the exported state; a restart drops them.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { BinaryReader, BinaryWriter, decodeU64, encodeU64 } from "../../codec.js";
import { fromBinaryCached } from "../../proto-cache.js";
import type { KvStore } from "../../store.js";
import { padKey } from "../records.js";
import type { BookSide, BookSlot, Priority } from "./book.js";

/** The module name and store slice. */
export const CLOB = "clob";

/** The store key of an order id: `<owner>/<number:10>/<flags:10>/<pair:10>/<client id:10>`. */
export function orderKey(id: clob.OrderId | undefined): string {
  return `${id?.subaccountId?.owner ?? ""}/${padKey(id?.subaccountId?.number ?? 0, 10)}/${padKey(id?.orderFlags ?? 0, 10)}/${padKey(id?.clobPairId ?? 0, 10)}/${padKey(id?.clientId ?? 0, 10)}`;
}

/** The order flags of short-term orders, as an order key writes them. */
const SHORT_TERM_FLAGS = padKey(0, 10);

/**
 * True for the keys of the slice that hold short-term order state (see the module comment): the
 * clob module's `Module.volatileKey`.
 */
export function isShortTermKey(key: string): boolean {
  const parts = key.split("/");
  switch (parts[0]) {
    case "order": // order/<owner>/<number>/<flags>/<pair>/<client id>
      return parts[3] === SHORT_TERM_FLAGS;
    case "book": // book/<pair>/<side>/<price>/<seq>/<tie>: only short-term orders have a tie
      return parts.length === 6;
    case "exp": // exp/b/<gtb>/<order key>: good-til-block is short-term only
      return parts[1] === "b";
    case "rl": // rl/<height>/<kind>/<address>
      return parts[2] === "short";
    case "done":
    case "tie":
      return true;
    default:
      return false;
  }
}

/** An open order as stored. */
export interface StoredOrder extends Priority {
  readonly order: clob.Order;
  /** Block height and tx index of the placement. */
  readonly height: bigint;
  readonly txIndex: number;
  /** Quantums filled so far. */
  readonly filled: bigint;
  /** For conditional orders: whether the trigger fired (the order is then in the book). */
  readonly triggered: boolean;
}

/** The book side of an order. */
export function sideOf(order: clob.Order): BookSide {
  return order.side === clob.Order_Side.BUY ? "buy" : "sell";
}

/** The good-til value of an order (block or unix seconds). */
export function goodTil(order: clob.Order): bigint {
  return BigInt(order.goodTilOneof.value ?? 0);
}

/** Reads an open order. */
export function getOrder(store: KvStore, key: string): StoredOrder | undefined {
  const bytes = store.get(`order/${key}`);
  if (bytes === undefined) return undefined;
  const r = new BinaryReader(bytes);
  return {
    order: fromBinary(clob.OrderSchema, r.bytes()),
    seq: r.uvarint(),
    height: r.uvarint(),
    txIndex: r.uint(),
    filled: r.uvarint(),
    triggered: r.bool(),
    // Stateful orders written before short-term orders had a tie end here.
    tie: r.done ? 0n : r.uvarint(),
  };
}

/** Writes an open order. */
export function setOrder(store: KvStore, key: string, stored: StoredOrder): void {
  store.set(
    `order/${key}`,
    new BinaryWriter(256)
      .bytes(toBinary(clob.OrderSchema, stored.order))
      .uvarint(stored.seq)
      .uvarint(stored.height)
      .uvarint(stored.txIndex)
      .uvarint(stored.filled)
      .bool(stored.triggered)
      .uvarint(stored.tie)
      .finish(),
  );
}

/** The expiry index key of an order. */
export function expiryKey(order: clob.Order, key: string): string {
  const kind = order.goodTilOneof.case === "goodTilBlock" ? "b" : "t";
  return `exp/${kind}/${padKey(goodTil(order), 20)}/${key}`;
}

/**
 * Takes the time priority of a new order. A stateful order takes the next placement sequence (a
 * committed counter). A short-term order must not change committed state, so it takes the last
 * sequence given and the next `tie` (a volatile counter): it ranks after every order placed before
 * it and before the next stateful order.
 */
export function nextPriority(store: KvStore, shortTerm: boolean): Priority {
  const bytes = store.get("seq");
  const seq = bytes === undefined ? 1n : decodeU64(bytes);
  if (!shortTerm) {
    store.set("seq", encodeU64(seq + 1n));
    return { seq, tie: 0n };
  }
  const tieBytes = store.get("tie");
  const tie = tieBytes === undefined ? 1n : decodeU64(tieBytes);
  store.set("tie", encodeU64(tie + 1n));
  return { seq: seq - 1n, tie };
}

/** Where an open order rests in the book (its side, price and time priority). */
export function bookSlot(stored: StoredOrder): BookSlot {
  return { side: sideOf(stored.order), subticks: stored.order.subticks, seq: stored.seq, tie: stored.tie };
}

/** Why a short-term order id is spent until its GTB. */
export type DoneReason = "filled" | "cancelled";

/** Records a spent short-term order id until `gtb` (a cancel or a full fill). */
export function markDone(store: KvStore, key: string, gtb: bigint, reason: DoneReason): void {
  store.set(
    `done/${key}`,
    new BinaryWriter(16)
      .uvarint(gtb)
      .bool(reason === "filled")
      .finish(),
  );
  store.set(`exp/b/${padKey(gtb, 20)}/${key}`, new Uint8Array(0));
}

/** A spent short-term order id, if any. */
export function getDone(store: KvStore, key: string): { gtb: bigint; reason: DoneReason } | undefined {
  const bytes = store.get(`done/${key}`);
  if (bytes === undefined) return undefined;
  const r = new BinaryReader(bytes);
  return { gtb: r.uvarint(), reason: r.bool() ? "filled" : "cancelled" };
}

/** Reads a protobuf record of the slice. */
export function readProto<T>(store: KvStore, key: string, read: (bytes: Uint8Array) => T): T | undefined {
  const bytes = store.get(key);
  return bytes === undefined ? undefined : read(bytes);
}

/** The clob pair of an id. */
export function getPair(store: KvStore, id: number): clob.ClobPair | undefined {
  return readProto(store, `pair/${padKey(id, 10)}`, (b) => fromBinaryCached(clob.ClobPairSchema, b));
}

/** Every clob pair, by id. */
export function allPairs(store: KvStore): clob.ClobPair[] {
  return [...store.entries("pair/")].map(([, b]) => fromBinary(clob.ClobPairSchema, b));
}

/** Writes a clob pair. */
export function setPair(store: KvStore, pair: clob.ClobPair): void {
  store.set(`pair/${padKey(pair.id, 10)}`, toBinary(clob.ClobPairSchema, pair));
}
