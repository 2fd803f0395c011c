/**
 * The fills of one market over a sliding time window (the 24-hour volume and trade count of a
 * market's REST body): its fills in arrival order with the sum of their quote values, so that the
 * figures of a window that holds every kept fill (the usual case: the window is trimmed at each
 * block, then read at that block's time) are read without walking the fills.
 */

/** One fill of a market: its block time and quote quantums. */
export interface WindowFill {
  readonly timeMs: number;
  readonly value: bigint;
}

/** A market's fills over a sliding window (see the module comment). */
export class FillWindow {
  private readonly fills: WindowFill[] = [];
  /** The sum of the kept fills' values. */
  private sum = 0n;
  /** Whether the kept fills came in non-decreasing time order (then the oldest is the first). */
  private ordered = true;

  /** Adds a fill. */
  push(fill: WindowFill): void {
    const last = this.fills.at(-1);
    if (last !== undefined && fill.timeMs < last.timeMs) this.ordered = false;
    this.fills.push(fill);
    this.sum += fill.value;
  }

  /** Drops the leading fills at or before `startMs` (up to the first one after it). */
  trim(startMs: number): void {
    let cut = 0;
    while (cut < this.fills.length && (this.fills[cut] as WindowFill).timeMs <= startMs) {
      this.sum -= (this.fills[cut] as WindowFill).value;
      cut++;
    }
    if (cut > 0) this.fills.splice(0, cut);
  }

  /** The count and the summed value of the kept fills after `startMs`. */
  figures(startMs: number): { trades: number; volume: bigint } {
    const first = this.fills[0];
    if (first === undefined || (this.ordered && first.timeMs > startMs))
      return { trades: this.fills.length, volume: this.sum };
    let trades = 0;
    let volume = 0n;
    for (const fill of this.fills) {
      if (fill.timeMs > startMs) {
        trades++;
        volume += fill.value;
      }
    }
    return { trades, volume };
  }
}
