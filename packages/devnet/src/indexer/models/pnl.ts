/**
 * The historical PnL read model: each subaccount's net transfers (USDC in minus out, from the
 * transfer events) and an hourly tick of its equity, net transfers and total PnL (equity minus net
 * transfers), taken at the first block of every UTC hour, as the reference's PnL ticks: only for the
 * subaccounts that sent or received a transfer by then, as roundtable's `create-pnl-ticks` selects
 * them (`SubaccountTable.getSubaccountsWithTransfers`; the `pnl` table's `update_pnl.sql` likewise
 * covers only subaccounts with a transfer), so a subaccount funded at genesis that never moved
 * collateral has no tick. A tick also
 * keeps the net transfers since the subaccount's previous tick (since genesis for its first), which
 * is what roundtable's `create-pnl-ticks` stores as a tick's `netTransfers` (`/v4/historical-pnl`);
 * the newer `pnl` table (`/v4/pnl`) carries the running total.
 */
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { subaccountKey } from "./accounts.js";

const HOUR_MS = 3_600_000;

/** One PnL tick (quote quantums). */
export interface PnlTick {
  readonly equity: bigint;
  /** Net transfers since genesis (the `pnl` table's `netTransfers`; `totalPnl` is equity less this). */
  readonly netTransfers: bigint;
  /** Net transfers since the subaccount's previous tick (the `pnl_ticks` table's `netTransfers`). */
  readonly transfersSinceLastTick: bigint;
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
    // A subaccount with a transfer (of any amount) gets ticks from then on.
    add(e.sender.owner, e.sender.number, -e.quantums);
    add(e.recipient.owner, e.recipient.number, e.quantums);
  }

  /**
   * At the end of a block: when it is the first of a new UTC hour, every subaccount of `equities`
   * (key -> equity) that has had a transfer gets a tick.
   */
  block(height: bigint, time: Date, equities: () => Iterable<[string, bigint]>): void {
    const hour = Math.floor(time.getTime() / HOUR_MS);
    const first = this.lastHour === undefined;
    const newHour = this.lastHour !== hour;
    this.lastHour = hour;
    if (first || !newHour) return;
    for (const [key, equity] of equities()) {
      const netTransfers = this.netTransfers.get(key);
      if (netTransfers === undefined) continue;
      const list = this.ticks.get(key) ?? [];
      const previous = list.at(-1)?.netTransfers ?? 0n;
      list.push({
        equity,
        netTransfers,
        transfersSinceLastTick: netTransfers - previous,
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
