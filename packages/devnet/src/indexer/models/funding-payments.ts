/**
 * The funding payments read model: at every funding tick (a funding event of phase `payment`),
 * one payment per subaccount per perpetual it holds a position in, as the reference's roundtable
 * computes them from the positions at that height: the position's signed size, the perpetual's new
 * funding index, the rate and oracle price of the tick, and the payment `(previous index − new
 * index) × size` (what the chain settles into the subaccount's USDC). They appear on the
 * reference's cadence: its `update-funding-payments` task runs every minute and writes the
 * payments of every tick since its last run; the devnet runs it on block time, after the first
 * block at least {@link FUNDING_PAYMENTS_INTERVAL_MS} after its last run.
 */
import type { FundingRateEvent, LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { fundingSettlementPpm } from "../../app/modules/subaccounts/margin.js";
import { type SubaccountRecord, subaccountKey } from "./accounts.js";

/** One funding payment of one position. */
export interface FundingPaymentRecord {
  readonly address: string;
  readonly subaccountNumber: number;
  readonly perpetualId: number;
  /** The position's signed size in base quantums. */
  readonly quantums: bigint;
  /** The perpetual's funding index after the tick (1e-6 quote quantums per base quantum). */
  readonly fundingIndex: bigint;
  /** The tick's rate, ppm per 8 hours. */
  readonly ratePpm: bigint;
  readonly oracleSubticks: bigint;
  /** What the position received (negative: paid), in millionths of a quote quantum. */
  readonly paymentPpm: bigint;
  readonly createdAt: Date;
  readonly createdAtHeight: bigint;
}

/** How often the reference's `update-funding-payments` task runs (roundtable's default). */
export const FUNDING_PAYMENTS_INTERVAL_MS = 60_000;

interface Tick {
  readonly previousIndex: bigint;
  readonly event: FundingRateEvent;
  readonly time: Date;
  readonly height: bigint;
}

/** The funding payments model (see the module comment). */
export class FundingPaymentsModel {
  private readonly index = new Map<number, bigint>();
  private pending: Tick[] = [];
  /** Payments of ticks the task has not run over yet, in order. */
  private unpublished: FundingPaymentRecord[] = [];
  private nextRunMs: number | undefined;
  private readonly payments = new Map<string, FundingPaymentRecord[]>();

  /**
   * Applies one event (funding events move the indices, a fork's genesis index too; payments are
   * settled at block end).
   */
  apply(located: LocatedIndexerEvent): void {
    const e = located.event;
    if (e.kind !== "funding") return;
    const previousIndex = this.index.get(e.perpetualId) ?? 0n;
    this.index.set(e.perpetualId, e.fundingIndex);
    if (e.phase === "payment")
      this.pending.push({ previousIndex, event: e, time: located.time, height: located.height });
  }

  /**
   * At the end of a block at `nowMs`: the block's ticks pay every position of the subaccounts as
   * they stand; when the task is due, the payments not shown yet appear.
   */
  block(subaccounts: Iterable<SubaccountRecord>, nowMs: number): void {
    this.payTicks(subaccounts);
    if (this.nextRunMs !== undefined && nowMs < this.nextRunMs) return;
    this.nextRunMs = nowMs + FUNDING_PAYMENTS_INTERVAL_MS;
    for (const payment of this.unpublished) {
      const key = subaccountKey(payment.address, payment.subaccountNumber);
      const list = this.payments.get(key);
      if (list === undefined) this.payments.set(key, [payment]);
      else list.push(payment);
    }
    this.unpublished = [];
  }

  private payTicks(subaccounts: Iterable<SubaccountRecord>): void {
    if (this.pending.length === 0) return;
    const ticks = new Map(this.pending.map((t) => [t.event.perpetualId, t]));
    this.pending = [];
    for (const record of subaccounts) {
      const made: FundingPaymentRecord[] = [];
      for (const [perpetualId, position] of [...record.positions].sort((a, b) => a[0] - b[0])) {
        const tick = ticks.get(perpetualId);
        if (tick === undefined || position.quantums === 0n) continue;
        made.push({
          address: record.address,
          subaccountNumber: record.subaccountNumber,
          perpetualId,
          quantums: position.quantums,
          fundingIndex: tick.event.fundingIndex,
          ratePpm: tick.event.ratePpm,
          oracleSubticks: tick.event.oracleSubticks,
          paymentPpm: fundingSettlementPpm(position.quantums, tick.previousIndex, tick.event.fundingIndex),
          createdAt: tick.time,
          createdAtHeight: tick.height,
        });
      }
      this.unpublished.push(...made);
    }
  }

  /** Forgets the payments of blocks below `height`. */
  prune(height: bigint): void {
    this.unpublished = this.unpublished.filter((p) => p.createdAtHeight >= height);
    for (const [key, list] of this.payments) {
      let cut = 0;
      while (cut < list.length && (list[cut] as FundingPaymentRecord).createdAtHeight < height) cut++;
      if (cut === list.length) this.payments.delete(key);
      else if (cut > 0) list.splice(0, cut);
    }
  }

  /** A subaccount's funding payments, oldest first (within a tick, by perpetual id). */
  paymentsOf(address: string, subaccountNumber: number): readonly FundingPaymentRecord[] {
    return this.payments.get(subaccountKey(address, subaccountNumber)) ?? [];
  }
}
