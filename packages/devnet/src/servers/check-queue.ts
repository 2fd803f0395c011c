/**
 * CheckTx in arrival order: each tx is checked after every tx that arrived before it, and after
 * what readies it (its signature checked on another thread) has settled, or, when readying only
 * spares work, once the thread would otherwise sit idle (see {@link CheckQueueOptions}).
 */

/** The outcome of one check: its result, or what it threw. */
type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

interface Entry<T> {
  readonly tx: Uint8Array;
  ready: boolean;
  /** Asks the readying to settle now; dropped once called. */
  hurry: (() => void) | undefined;
  readonly settle: (outcome: Outcome<T>) => void;
}

/** Options of a {@link CheckQueue}. */
export interface CheckQueueOptions {
  /**
   * True when readying a tx only spares the check work (the check answers the same without it):
   * then the tx at the head of the line that is still not ready once the event loop has polled
   * (every later tx waits behind it, so the thread has nothing else to do) is checked at once,
   * rather than left idle; when the tx came with a `hurry`, that is called first, and the tx waits
   * for its readying one turn of the loop more. @default false
   */
  readonly checkWhenIdle?: boolean;
}

/** A first-in first-out line of checks (see the module comment). */
export class CheckQueue<T> {
  private readonly line: Entry<T>[] = [];
  private head = 0;
  private idleCheckScheduled = false;

  /** @param check - the check itself (CheckTx); what it throws goes to the tx's caller. */
  constructor(
    private readonly check: (tx: Uint8Array) => T,
    private readonly options: CheckQueueOptions = {},
  ) {}

  /** Number of txs waiting for their check. */
  get waiting(): number {
    return this.line.length - this.head;
  }

  /**
   * Checks `tx` in its turn. With nothing waiting and nothing to wait for (`ready` undefined), the
   * check runs now and its result (or throw) is returned as is; otherwise the promise of it.
   * `ready` must not reject (a rejection counts as settled). `hurry`, when given, asks `ready` to
   * settle now, or with the microtasks that follow (see the options).
   */
  submit(tx: Uint8Array, ready: Promise<void> | undefined, hurry?: () => void): T | Promise<T> {
    if (ready === undefined && this.waiting === 0) return this.check(tx);
    return new Promise<T>((resolve, reject) => {
      const entry: Entry<T> = {
        tx,
        ready: ready === undefined,
        hurry,
        settle: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)),
      };
      this.compact();
      this.line.push(entry);
      if (ready !== undefined) {
        const mark = () => {
          entry.ready = true;
          this.pump();
        };
        ready.then(mark, mark);
        this.scheduleIdleCheck();
      }
    });
  }

  /** After the loop's next poll, checks the head of the line if it still waits (see the options). */
  private scheduleIdleCheck(): void {
    if (this.options.checkWhenIdle !== true || this.idleCheckScheduled) return;
    this.idleCheckScheduled = true;
    setImmediate(() => {
      this.idleCheckScheduled = false;
      const entry = this.line[this.head];
      if (entry === undefined || entry.ready) return;
      const hurry = entry.hurry;
      if (hurry !== undefined) {
        entry.hurry = undefined;
        hurry();
        this.scheduleIdleCheck();
        return;
      }
      entry.ready = true;
      this.pump();
    });
  }

  /** Checks the txs at the head of the line that are ready, in order. */
  private pump(): void {
    while (this.head < this.line.length) {
      const entry = this.line[this.head] as Entry<T>;
      if (!entry.ready) {
        this.scheduleIdleCheck();
        return;
      }
      this.head++;
      let outcome: Outcome<T>;
      try {
        outcome = { ok: true, value: this.check(entry.tx) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      entry.settle(outcome);
    }
    this.line.length = 0;
    this.head = 0;
  }

  /** Drops the checked entries from the front of the line (when it never empties). */
  private compact(): void {
    if (this.head < 1024) return;
    this.line.splice(0, this.head);
    this.head = 0;
  }
}
