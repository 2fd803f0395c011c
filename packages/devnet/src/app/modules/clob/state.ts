/**
 * The clob module's store layout (slice `clob/`) and its records; every key of the slice is built
 * here. Numbers in keys are zero-padded so keys sort numerically.
 *
 * Committed state (in the app hash and the exported state):
 * - `pair/<id:10>`: `ClobPair`; `equity_tier_config`, `block_rate_limit_config`, `liquidations_config`
 * - `order/<order key>` of a stateful order ({@link StoredOrder}): long-term and conditional
 *   orders (triggered or not), with their fill amount
 * - `exp/t/<gtbt:20>/<order key>`: expiry index of stateful orders
 * - `trig/<pair:10>/<order key>`: untriggered conditional orders
 * - `seq`: the placement counter of stateful orders; `last_time`: the previous block's time (ms)
 * - `lev/<owner>/<number:10>/<pair:10>`: leverage (custom initial margin ppm)
 * - `fill/<order key>`: the filled amount of a short-term order, recorded by the proposed operations
 *   and pruned after its good-til-block (`fillprune/<gtb:20>/<order key>`)
 * - `trade/<pair:10>`: the lowest and highest traded price of the block being delivered (for the
 *   conditional order triggers; written by the proposed operations, deleted at the block's end)
 *
 * The memclob, a real node's in-memory order book ({@link isMemclobKey}): kept beside the committed
 * state, outside the app hash and the exported state, so a restart drops it (stateful orders are
 * put back into the book from state, see `memclob.ts`):
 * - `book/...`: the order book of every pair, short-term and stateful orders (see `book.ts`)
 * - `order/<order key>` of a short-term order, `txb/<order key>`: its signed placement tx
 * - `done/<order key>`: a tombstone (a cancel, or a full fill) until its good-til-block
 * - `exp/b/<gtb:20>/<order key>`: expiry index of short-term orders and tombstones
 * - `tie`: the time-priority counter of short-term orders (see {@link nextPriority})
 * - `ops/<n:20>`: the operations queue (`OperationRaw` bytes) of the next block, `ops_n` its
 *   counter, `opsin/<order key>`: short-term placements already in it
 * - `new/<seq:20>`: stateful orders stored by the block being committed, to put into the book
 *   after it commits
 * - `stream/<n:20>`: off-chain order stream messages not yet handed to listeners; `stream_n`: the
 *   number of messages written since the node started (kept across drains: see `stream.ts`)
 */
import { fromBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { KvStore } from "../../kernel/store.js";
import { BinaryReader, BinaryWriter, bytesEqual, decodeU64, encodeU64 } from "../../lib/codec.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import { ProtoWriter } from "../../lib/proto-writer.js";
import { wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import { padKey } from "../records.js";
import type { BookSide, BookSlot, Priority } from "./book.js";
import { writeOrder } from "./order-codec.js";
import { ORDER_FLAGS } from "./validate.js";

/** The module name and store slice. */
export const CLOB = "clob";

/** The store key of an order id: `<owner>/<number:10>/<flags:10>/<pair:10>/<client id:10>`. */
export function orderKey(id: clob.OrderId | undefined): string {
  return `${id?.subaccountId?.owner ?? ""}/${padKey(id?.subaccountId?.number ?? 0, 10)}/${padKey(id?.orderFlags ?? 0, 10)}/${padKey(id?.clobPairId ?? 0, 10)}/${padKey(id?.clientId ?? 0, 10)}`;
}

/** The order flags of short-term orders, as an order key writes them. */
const SHORT_TERM_FLAGS = padKey(ORDER_FLAGS.shortTerm, 10);

/** Keys of the slice (see the module comment). */
export const keys = {
  order: (key: string) => `order/${key}`,
  orderPrefix: "order/",
  /** Open orders of one subaccount. */
  subaccountOrders: (owner: string, number: number) => `order/${owner}/${padKey(number, 10)}/`,
  done: (key: string) => `done/${key}`,
  txBytes: (key: string) => `txb/${key}`,
  blockExpiry: (gtb: bigint, key: string) => `exp/b/${padKey(gtb, 20)}/${key}`,
  /** Block-expiry keys up to (excluding) `height`. */
  blockExpiryEnd: (height: bigint) => `exp/b/${padKey(height, 20)}`,
  blockExpiryPrefix: "exp/b/",
  timeExpiry: (seconds: bigint, key: string) => `exp/t/${padKey(seconds, 20)}/${key}`,
  timeExpiryEnd: (seconds: bigint) => `exp/t/${padKey(seconds, 20)}`,
  timeExpiryPrefix: "exp/t/",
  trigger: (pairId: number, key: string) => `trig/${padKey(pairId, 10)}/${key}`,
  triggerPrefix: "trig/",
  pair: (id: number) => `pair/${padKey(id, 10)}`,
  pairPrefix: "pair/",
  leverage: (owner: string, number: number, pairId: number) =>
    `lev/${owner}/${padKey(number, 10)}/${padKey(pairId, 10)}`,
  leveragePrefix: (owner: string, number: number) => `lev/${owner}/${padKey(number, 10)}/`,
  lastTime: "last_time",
  seq: "seq",
  tie: "tie",
  operation: (n: bigint) => `ops/${padKey(n, 20)}`,
  operationsPrefix: "ops/",
  operationCounter: "ops_n",
  queuedPlacement: (key: string) => `opsin/${key}`,
  queuedPlacementPrefix: "opsin/",
  newOrder: (seq: bigint) => `new/${padKey(seq, 20)}`,
  newOrderPrefix: "new/",
  fillAmount: (key: string) => `fill/${key}`,
  fillPrune: (gtb: bigint, key: string) => `fillprune/${padKey(gtb, 20)}/${key}`,
  /** Fill-amount prune keys up to (excluding) `height`. */
  fillPruneEnd: (height: bigint) => `fillprune/${padKey(height, 20)}`,
  fillPrunePrefix: "fillprune/",
  tradePrices: (pairId: number) => `trade/${padKey(pairId, 10)}`,
  tradePricesPrefix: "trade/",
  stream: (n: bigint) => `stream/${padKey(n, 20)}`,
  streamPrefix: "stream/",
  streamCounter: "stream_n",
  equityTierConfig: "equity_tier_config",
  blockRateLimitConfig: "block_rate_limit_config",
  liquidationsConfig: "liquidations_config",
} as const;

/** The order key a key of the slice ends with (`exp/b/<gtb>/<order key>`, `trig/<pair>/<order key>`). */
export function orderKeyAfter(storeKey: string, parts: number): string {
  let start = 0;
  for (let i = 0; i < parts; i++) {
    const slash = storeKey.indexOf("/", start);
    if (slash < 0) return "";
    start = slash + 1;
  }
  return storeKey.slice(start);
}

/** True for an order key of a short-term order (`<owner>/<number>/<flags>/...`: its flags). */
export function isShortTermOrderKey(key: string): boolean {
  const first = key.indexOf("/");
  const second = first < 0 ? -1 : key.indexOf("/", first + 1);
  if (second < 0 || !key.startsWith(SHORT_TERM_FLAGS, second + 1)) return false;
  const end = second + 1 + SHORT_TERM_FLAGS.length;
  return end === key.length || key.charCodeAt(end) === 0x2f; // "/"
}

/** `key.split("/")[index]`, without splitting the whole key. */
function segment(key: string, index: number): string | undefined {
  let start = 0;
  for (let i = 0; i < index; i++) {
    const slash = key.indexOf("/", start);
    if (slash < 0) return undefined;
    start = slash + 1;
  }
  const end = key.indexOf("/", start);
  return end < 0 ? key.slice(start) : key.slice(start, end);
}

/**
 * True for the keys of the slice that make up the memclob (see the module comment): the clob
 * module's `Module.volatileKey`.
 */
export function isMemclobKey(key: string): boolean {
  const slash = key.indexOf("/");
  switch (slash < 0 ? key : key.slice(0, slash)) {
    case "order": // order/<owner>/<number>/<flags>/<pair>/<client id>
      return segment(key, 3) === SHORT_TERM_FLAGS;
    case "exp": // exp/b/<gtb>/<order key>: good-til-block is short-term only
      return segment(key, 1) === "b";
    case "book":
    case "done":
    case "tie":
    case "txb":
    case "ops":
    case "ops_n":
    case "opsin":
    case "new":
    case "stream":
    case "stream_n":
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

/**
 * The open orders last written, by order key, with their bytes: a read that finds those very bytes
 * under the key takes the record as it was written instead of decoding it again (a maker is written
 * when it rests and read when it is matched). The bytes decide, so a write a failed step dropped or
 * another store holds is decoded; the oldest entries go past {@link WRITTEN_ORDERS}. Orders are
 * never changed in place, so a record is shared safely.
 */
const writtenOrders = new Map<string, { readonly bytes: Uint8Array; readonly stored: StoredOrder }>();

/** Open orders {@link writtenOrders} keeps at most. */
const WRITTEN_ORDERS = 4096;

/** Reads an open order. */
export function getOrder(store: KvStore, key: string): StoredOrder | undefined {
  const bytes = store.get(keys.order(key));
  if (bytes === undefined) return undefined;
  const written = writtenOrders.get(key);
  if (written !== undefined && bytesEqual(written.bytes, bytes)) return written.stored;
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

/**
 * The bytes of an open order: the order (length-prefixed), its sequence, height, tx index and fill
 * amount (varints), whether it triggered (a byte), its tie (a varint), as a `BinaryWriter` writes
 * them; written in one pass (every number is below 2^64).
 */
function encodeStoredOrder(stored: StoredOrder): Uint8Array {
  return ProtoWriter.encode((w) =>
    w
      .lengthPrefixed((m) => writeOrder(m, stored.order))
      .varint64(stored.seq)
      .varint64(stored.height)
      .varint(stored.txIndex)
      .varint64(stored.filled)
      .varint(stored.triggered ? 1 : 0)
      .varint64(stored.tie),
  );
}

/** Writes an open order. */
export function setOrder(store: KvStore, key: string, stored: StoredOrder): void {
  const bytes = encodeStoredOrder(stored);
  store.set(keys.order(key), bytes);
  writtenOrders.delete(key);
  if (writtenOrders.size >= WRITTEN_ORDERS) writtenOrders.delete(writtenOrders.keys().next().value as string);
  // The fields of a decoded record, in its order.
  const { order, seq, height, txIndex, filled, triggered, tie } = stored;
  writtenOrders.set(key, { bytes, stored: { order, seq, height, txIndex, filled, triggered, tie } });
}

/** The expiry index key of an order. */
export function expiryKey(order: clob.Order, key: string): string {
  return order.goodTilOneof.case === "goodTilBlock"
    ? keys.blockExpiry(goodTil(order), key)
    : keys.timeExpiry(goodTil(order), key);
}

/**
 * Takes the time priority of a new order. A stateful order takes the next placement sequence (a
 * committed counter). A short-term order must not change committed state, so it takes the last
 * sequence given and the next `tie` (a volatile counter): it ranks after every order placed before
 * it and before the next stateful order.
 */
export function nextPriority(store: KvStore, shortTerm: boolean): Priority {
  const bytes = store.get(keys.seq);
  const seq = bytes === undefined ? 1n : decodeU64(bytes);
  if (!shortTerm) {
    store.set(keys.seq, encodeU64(seq + 1n));
    return { seq, tie: 0n };
  }
  const tieBytes = store.get(keys.tie);
  const tie = tieBytes === undefined ? 1n : decodeU64(tieBytes);
  store.set(keys.tie, encodeU64(tie + 1n));
  return { seq: seq - 1n, tie };
}

/** Where an open order rests in the book (its side, price and time priority). */
export function bookSlot(stored: StoredOrder): BookSlot {
  return { side: sideOf(stored.order), subticks: stored.order.subticks, seq: stored.seq, tie: stored.tie };
}

/** Why a short-term order id is spent until its GTB. */
export type DoneReason = "filled" | "cancelled" | "partly-filled";

const DONE_CODES: readonly DoneReason[] = ["cancelled", "filled", "partly-filled"];

/**
 * Records a spent short-term order id until `gtb`: a cancel (a tombstone), a full fill, or an
 * immediate-or-cancel order that filled `filled` base quantums and left (its fill amount, as the
 * chain keeps it in state until the order's good-til-block).
 */
export function markDone(store: KvStore, key: string, gtb: bigint, reason: DoneReason, filled = 0n): void {
  store.set(
    keys.done(key),
    new BinaryWriter(24).uvarint(gtb).uvarint(DONE_CODES.indexOf(reason)).uvarint(filled).finish(),
  );
  store.set(keys.blockExpiry(gtb, key), new Uint8Array(0));
}

/** A spent short-term order id, if any. */
export function getDone(
  store: KvStore,
  key: string,
): { gtb: bigint; reason: DoneReason; filled: bigint } | undefined {
  const bytes = store.get(keys.done(key));
  if (bytes === undefined) return undefined;
  const r = new BinaryReader(bytes);
  const gtb = r.uvarint();
  const reason = DONE_CODES[r.uint()] ?? "cancelled";
  return { gtb, reason, filled: r.uvarint() };
}

/** The filled amount of a short-term order as the committed fills recorded it (0 when none). */
export function getFillAmount(store: KvStore, key: string): bigint {
  const bytes = store.get(keys.fillAmount(key));
  return bytes === undefined ? 0n : decodeU64(bytes);
}

/** Records the filled amount of a short-term order until its good-til-block passes. */
export function setFillAmount(store: KvStore, key: string, filled: bigint, gtb: bigint): void {
  if (!store.has(keys.fillAmount(key))) store.set(keys.fillPrune(gtb, key), new Uint8Array(0));
  store.set(keys.fillAmount(key), encodeU64(filled));
}

/** Widens the block's traded price range of a pair with one fill's price. */
export function recordTradePrice(store: KvStore, pairId: number, subticks: bigint): void {
  const bytes = store.get(keys.tradePrices(pairId));
  let [min, max] = [subticks, subticks];
  if (bytes !== undefined) {
    const r = new BinaryReader(bytes);
    const [lo, hi] = [r.uvarint(), r.uvarint()];
    if (lo < min) min = lo;
    if (hi > max) max = hi;
  }
  store.set(keys.tradePrices(pairId), new BinaryWriter(24).uvarint(min).uvarint(max).finish());
}

/** The block's lowest and highest traded prices of a pair, if it traded. */
export function tradePrices(store: KvStore, pairId: number): [bigint, bigint] | undefined {
  const bytes = store.get(keys.tradePrices(pairId));
  if (bytes === undefined) return undefined;
  const r = new BinaryReader(bytes);
  return [r.uvarint(), r.uvarint()];
}

/** Reads a protobuf record of the slice. */
export function readProto<T>(store: KvStore, key: string, read: (bytes: Uint8Array) => T): T | undefined {
  const bytes = store.get(key);
  return bytes === undefined ? undefined : read(bytes);
}

/** The clob pair of an id. */
export function getPair(store: KvStore, id: number): clob.ClobPair | undefined {
  return readProto(store, keys.pair(id), (b) => wireDecodeCached(wire.perpx_clob_v1_ClobPair, b));
}

/** Every clob pair, by id. */
export function allPairs(store: KvStore): clob.ClobPair[] {
  // Decoded once per distinct record (frozen): end block reads every pair in every block.
  return [...store.entries(keys.pairPrefix)].map(([, b]) => wireDecodeCached(wire.perpx_clob_v1_ClobPair, b));
}

/** Writes a clob pair. */
export function setPair(store: KvStore, pair: clob.ClobPair): void {
  store.set(keys.pair(pair.id), wireEncode(wire.perpx_clob_v1_ClobPair, pair));
}
