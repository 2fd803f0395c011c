/**
 * The historical PnL read model: each subaccount's net transfers (USDC in minus out, from the
 * transfer events) and an hourly tick of its equity, net transfers and total PnL (equity minus net
 * transfers), taken at the first block of every UTC hour, as the reference's PnL ticks.
 */
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { subaccountKey } from "./accounts.js";

const HOUR_MS = 3_600_000;

/** One PnL tick (quote quantums). */
export interface PnlTick {
  readonly equity: bigint;
  readonly netTransfers: bigint;
  readonly createdAt: Date;
  readonly blockHeight: bigint;
  readonly blockTime: Date;
}

/** The PnL model (see the module comment). */
export class PnlModel {
  private readonly netTransfers = new Map<string, bigint>();
  private readonly ticks = new Map<string, PnlTick[]>();
  private lastHour: number | undefined;

  /** Applies one event (transfers move net transfers). */
  apply(located: LocatedIndexerEvent): void {
    const e = located.event;
    if (e.kind !== "transfer") return;
    const add = (owner: string, number: number | undefined, delta: bigint) => {
      if (number === undefined) return;
      const key = subaccountKey(owner, number);
      this.netTransfers.set(key, (this.netTransfers.get(key) ?? 0n) + delta);
    };
    add(e.sender.owner, e.sender.number, -e.quantums);
    add(e.recipient.owner, e.recipient.number, e.quantums);
  }

  /**
   * At the end of a block: when it is the first of a new UTC hour, every subaccount of `equities`
   * (key -> equity) gets a tick.
   */
  block(height: bigint, time: Date, equities: () => Iterable<[string, bigint]>): void {
    const hour = Math.floor(time.getTime() / HOUR_MS);
    const first = this.lastHour === undefined;
    const newHour = this.lastHour !== hour;
    this.lastHour = hour;
    if (first || !newHour) return;
    for (const [key, equity] of equities()) {
      const list = this.ticks.get(key) ?? [];
      list.push({
        equity,
        netTransfers: this.netTransfers.get(key) ?? 0n,
        createdAt: new Date(hour * HOUR_MS),
        blockHeight: height,
        blockTime: time,
      });
      this.ticks.set(key, list);
    }
  }

  /** A subaccount's ticks, oldest first. */
  ticksOf(address: string, subaccountNumber: number): readonly PnlTick[] {
    return this.ticks.get(subaccountKey(address, subaccountNumber)) ?? [];
  }
}
