/**
 * The orders read model: every order the indexer has seen, with its status. Short-term orders come
 * from the order stream (BEST_EFFORT_OPENED; BEST_EFFORT_CANCELED when the memclob drops them,
 * CANCELED once their good-til-block has passed), stateful ones from the block events (OPEN, or
 * UNTRIGGERED until a conditional order triggers; CANCELED when removed). Fills in blocks set the
 * filled amount and the status ender gives (see `statusAfterFill`).
 */
import type { OrderStatus } from "@perpx/core/indexer";
import { clob } from "@perpx/proto";
import type { OrderStreamMessage } from "../../app/contract.js";
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { orderIdKey, streamOrderKey } from "./orderbook.js";
import { PruneSchedule } from "./prune-schedule.js";

/** An order as the indexer keeps it. */
export interface OrderRecord {
  readonly key: string;
  /** How many orders the model stored before this one: the records' storage order. */
  readonly rank: number;
  order: clob.Order;
  status: OrderStatus;
  totalFilled: bigint;
  /** Set for stateful orders (the block that stored them). */
  createdAt?: Date;
  createdAtHeight?: bigint;
  updatedAt?: Date;
  updatedAtHeight?: bigint;
  removalReason?: string;
}

/** The subaccount of an order (its key). */
function ownerKey(order: clob.Order): string {
  const sub = order.orderId?.subaccountId;
  return `${sub?.owner ?? ""}/${sub?.number ?? 0}`;
}

const SHORT_TERM = 0;
const LONG_TERM = 64;

/**
 * An order's status after a fill in a block, as ender's `dydx_get_order_status` gives it: FILLED
 * once filled; a long-term order OPEN; else (short-term and conditional) a partly filled IOC order
 * CANCELED at once (the chain fills it in one block only) and a FOK one FILLED; a short-term order
 * canceled off-chain keeps its BEST_EFFORT_CANCELED (or CANCELED); every other order is OPEN.
 */
function statusAfterFill(record: OrderRecord, order: clob.Order, filled: bigint): OrderStatus {
  if (filled >= order.quantums) return "FILLED";
  if ((order.orderId?.orderFlags ?? 0) === LONG_TERM) return "OPEN";
  if (order.timeInForce === clob.Order_TimeInForce.IOC) return "CANCELED";
  if (order.timeInForce === clob.Order_TimeInForce.FILL_OR_KILL) return "FILLED";
  if (record.status === "BEST_EFFORT_CANCELED" || record.status === "CANCELED") return record.status;
  return "OPEN";
}

/** The orders model (see the module comment). */
export class OrdersModel {
  private readonly orders = new Map<string, OrderRecord>();
  private readonly bySubaccount = new Map<string, Set<string>>();
  /** When final orders may go: kept from the first {@link prune} on (none without pruning). */
  private schedule: PruneSchedule<OrderRecord> | undefined;
  /** Orders that were BEST_EFFORT_CANCELED (some may have changed since), for {@link expire}. */
  private readonly canceled = new Set<OrderRecord>();
  /** How many orders were ever stored (the next one's rank). */
  private stored = 0;

  /** Stores or updates the order under `key` (its {@link orderIdKey}). */
  private upsert(order: clob.Order, status: OrderStatus, key = orderIdKey(order.orderId)): OrderRecord {
    let record = this.orders.get(key);
    if (record === undefined) {
      record = { key, rank: this.stored++, order, status, totalFilled: 0n };
      this.orders.set(key, record);
      const owner = ownerKey(order);
      const set = this.bySubaccount.get(owner);
      if (set === undefined) this.bySubaccount.set(owner, new Set([key]));
      else set.add(key);
    } else {
      record.order = order;
      record.status = status;
    }
    return record;
  }

  /**
   * Applies one order stream message; returns the orders it changed. `key` is the message's
   * {@link streamOrderKey} (a caller that has it passes it).
   */
  applyStream(message: OrderStreamMessage, key = streamOrderKey(message)): OrderRecord[] {
    return this.filed(this.streamChanges(message, key));
  }

  /** Files changed orders in the prune schedule, if there is one; returns them. */
  private filed(changed: OrderRecord[]): OrderRecord[] {
    if (this.schedule !== undefined) for (const record of changed) this.schedule.file(record);
    return changed;
  }

  private streamChanges(message: OrderStreamMessage, key: string): OrderRecord[] {
    switch (message.kind) {
      case "place":
      case "replace": {
        const order = message.order;
        const flags = order.orderId?.orderFlags ?? 0;
        const existing = this.orders.get(key);
        if (flags !== SHORT_TERM) return existing === undefined ? [] : [existing];
        if (existing !== undefined && (existing.status === "FILLED" || existing.status === "OPEN")) {
          existing.order = order;
          return [existing];
        }
        const record = this.upsert(order, "BEST_EFFORT_OPENED", key);
        delete record.removalReason;
        return [record];
      }
      case "update": {
        const record = this.orders.get(key);
        if (record === undefined || (message.orderId.orderFlags ?? 0) !== SHORT_TERM) return [];
        if (message.totalFilled > record.totalFilled) record.totalFilled = message.totalFilled;
        return [record];
      }
      case "remove": {
        const record = this.orders.get(key);
        if (record === undefined || (message.orderId.orderFlags ?? 0) !== SHORT_TERM) return [];
        if (message.reason === "fully_filled") return [];
        if (record.status !== "FILLED" && record.status !== "CANCELED") {
          record.status = "BEST_EFFORT_CANCELED";
          this.canceled.add(record);
        }
        record.removalReason = message.reason;
        return [record];
      }
    }
  }

  /** Applies one block event; returns the orders it changed. */
  apply(located: LocatedIndexerEvent): OrderRecord[] {
    return this.filed(this.eventChanges(located));
  }

  private eventChanges(located: LocatedIndexerEvent): OrderRecord[] {
    const e = located.event;
    switch (e.kind) {
      case "stateful_order_placed": {
        const conditional = (e.order.orderId?.orderFlags ?? 0) === 32;
        const record = this.upsert(e.order, conditional ? "UNTRIGGERED" : "OPEN");
        record.createdAt = located.time;
        record.createdAtHeight = located.height;
        this.touch(record, located);
        return [record];
      }
      case "conditional_order_triggered": {
        const record = this.orders.get(orderIdKey(e.order.orderId));
        if (record === undefined) return [];
        record.status = "OPEN";
        this.touch(record, located);
        return [record];
      }
      case "stateful_order_removed": {
        const record = this.orders.get(orderIdKey(e.order.orderId));
        if (record === undefined) return [];
        record.status = e.reason === "fully_filled" ? "FILLED" : "CANCELED";
        record.removalReason = e.reason;
        this.touch(record, located);
        return [record];
      }
      case "order_fill": {
        const changed: OrderRecord[] = [];
        // A liquidation's taker is the proposer's order, not one the subaccount placed.
        const sides = [
          [e.taker, e.takerTotalFilled],
          [e.maker, e.makerTotalFilled],
        ] as const;
        for (const [order, filled] of e.liquidation === true ? sides.slice(1) : sides) {
          const record = this.orders.get(orderIdKey(order.orderId)) ?? this.upsert(order, "OPEN");
          record.totalFilled = filled;
          record.status = statusAfterFill(record, order, filled);
          this.touch(record, located);
          changed.push(record);
        }
        return changed;
      }
      default:
        return [];
    }
  }

  private touch(record: OrderRecord, located: LocatedIndexerEvent): void {
    record.updatedAt = located.time;
    record.updatedAtHeight = located.height;
  }

  /**
   * At a block: short-term orders canceled off-chain whose good-til-block has passed are final
   * (CANCELED). Returns them.
   */
  expire(height: bigint): OrderRecord[] {
    const changed: OrderRecord[] = [];
    for (const record of this.canceled) {
      if (record.status !== "BEST_EFFORT_CANCELED") {
        this.canceled.delete(record);
        continue;
      }
      const gt = record.order.goodTilOneof;
      if (gt.case === "goodTilBlock" && BigInt(gt.value) < height) {
        record.status = "CANCELED";
        this.canceled.delete(record);
        changed.push(record);
      }
    }
    // In the order the orders were stored, as a walk over all of them finds them.
    changed.sort((a, b) => a.rank - b.rank);
    return this.filed(changed);
  }

  /** Forgets final orders (filled or canceled) last changed below `height`. */
  prune(height: bigint): void {
    if (this.schedule === undefined) {
      // The first prune: every final order is filed, from now on each as it changes.
      this.schedule = new PruneSchedule();
      for (const record of this.orders.values()) this.schedule.file(record);
    }
    for (const record of this.schedule.due(height)) {
      // A record may be answered again after it was forgotten, its key since taken by another.
      if (this.orders.get(record.key) !== record) continue;
      this.orders.delete(record.key);
      const owner = ownerKey(record.order);
      const set = this.bySubaccount.get(owner);
      set?.delete(record.key);
      if (set?.size === 0) this.bySubaccount.delete(owner);
    }
  }

  /** An order by its key. */
  byKey(key: string): OrderRecord | undefined {
    return this.orders.get(key);
  }

  /** Every order of a subaccount. */
  ofSubaccount(owner: string): OrderRecord[] {
    return [...(this.bySubaccount.get(owner) ?? [])].map((k) => this.orders.get(k) as OrderRecord);
  }

  /** Every order. */
  all(): IterableIterator<OrderRecord> {
    return this.orders.values();
  }
}
