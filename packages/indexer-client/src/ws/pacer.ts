/**
 * Subscribe pacing under the server's rate rule (`spec/indexer-api.md` 3.7): a third subscribe to
 * the same channel and id within one second closes the connection with 1008. The pacer lets at
 * most `perKey` subscribes to a key start in any `windowMs` (the server's second plus a margin for
 * the time the earlier ones took to arrive), and says how long the next one waits.
 */

/** Pacing of subscribe messages per channel and id. */
export class SubscribePacer {
  private readonly sent = new Map<string, number[]>();

  /**
   * @param perKey - subscribes allowed per key per window (the server closes on the third).
   * @param windowMs - the window.
   */
  constructor(
    private readonly perKey = 2,
    private readonly windowMs = 1_250,
  ) {}

  /** Milliseconds until a subscribe to `key` may be sent (0: now). */
  waitMs(key: string, now: number): number {
    const times = this.recent(key, now);
    if (times.length < this.perKey) return 0;
    return (times[0] as number) + this.windowMs - now + 1;
  }

  /** Records a subscribe sent to `key` at `now`. */
  record(key: string, now: number): void {
    const times = this.recent(key, now);
    times.push(now);
    this.sent.set(key, times);
  }

  /** Forgets everything (a new connection starts with a fresh server-side window). */
  clear(): void {
    this.sent.clear();
  }

  private recent(key: string, now: number): number[] {
    const times = (this.sent.get(key) ?? []).filter((time) => now - time < this.windowMs);
    if (times.length) this.sent.set(key, times);
    else this.sent.delete(key);
    return times;
  }
}
