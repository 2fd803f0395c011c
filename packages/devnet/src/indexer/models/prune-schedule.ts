/**
 * When the orders model may forget a final order: a filled or canceled order goes once it last
 * changed below the oldest retained height (its `updatedAtHeight`, else its good-til-block; an order
 * with neither stays). The schedule files each final order under that height, so that a prune visits
 * the heights below its bound instead of every order.
 */

import type { OrderStatus } from "@perpx/core/indexer";
import type { clob } from "@perpx/proto";

/** What the schedule reads of an order record (`OrderRecord`). */
export interface Prunable {
  readonly status: OrderStatus;
  readonly order: clob.Order;
  readonly updatedAtHeight?: bigint;
}

/** True for an order in a final state (filled or canceled). */
export function isFinal(record: Prunable): boolean {
  return record.status === "FILLED" || record.status === "CANCELED";
}

/** The height an order last changed at, as a prune reads it (undefined: never pruned). */
export function lastChange(record: Prunable): bigint | undefined {
  if (record.updatedAtHeight !== undefined) return record.updatedAtHeight;
  const gt = record.order.goodTilOneof;
  return gt.case === "goodTilBlock" ? BigInt(gt.value) : undefined;
}

/**
 * The final orders by the height they last changed at. An order is filed again whenever it
 * changes; a filing that no longer holds (the order is not final any more, or last changed at
 * another height) is dropped or moved when its height is visited, so an order may be answered
 * more than once, or after it was forgotten: the caller checks it still holds it.
 */
export class PruneSchedule<R extends Prunable> {
  private readonly byHeight = new Map<bigint, Set<R>>();

  /** Files `record` under the height it last changed at, if it is final. */
  file(record: R): void {
    if (!isFinal(record)) return;
    const last = lastChange(record);
    if (last === undefined) return;
    const filed = this.byHeight.get(last);
    if (filed === undefined) this.byHeight.set(last, new Set([record]));
    else filed.add(record);
  }

  /**
   * The final orders that last changed below `height` (see the class comment), forgotten here;
   * the others filed below it are filed again where they now belong.
   */
  due(height: bigint): R[] {
    const out: R[] = [];
    for (const [at, filed] of this.byHeight) {
      if (at >= height) continue;
      this.byHeight.delete(at);
      for (const record of filed) {
        const last = isFinal(record) ? lastChange(record) : undefined;
        if (last === undefined) continue;
        if (last < height) out.push(record);
        else this.file(record);
      }
    }
    return out;
  }
}
