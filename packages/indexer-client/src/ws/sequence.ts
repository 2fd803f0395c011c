/**
 * `message_id` bookkeeping for one connection (`spec/indexer-api.md` 3.4). Every id the server
 * hands out is eventually sent once: data messages in order, but a `subscribed` (or the error a
 * subscribe raised) carries the id reserved when the subscribe arrived, so it may come after data
 * with higher ids. The tracker keeps the ids not yet seen below the highest one ("holes"); a hole is
 * excused while a subscribe or unsubscribe is outstanding (one hole each), and more holes than
 * that is a gap: a message was lost.
 */

/** What one message's id means. */
export type SequenceVerdict =
  /** Expected (or a reserved id arriving late). */
  | "ok"
  /** A data id already seen: the message is a replay and is dropped. */
  | "duplicate"
  /** Ids are missing that no outstanding request explains. */
  | "gap"
  /** A data message with an id below the highest data id seen, filling no reserved hole. */
  | "reorder";

/** The per-connection `message_id` tracker. */
export class MessageSequence {
  /** Every id below this one has been seen. */
  private floor = 0;
  /** The highest id seen. */
  private highest = -1;
  /** Ids seen above `floor`. */
  private readonly seen = new Set<number>();
  /** The highest id a data message carried. */
  private highestData = -1;

  /** Starts over at the `connected` message (id 0). */
  reset(): void {
    this.floor = 0;
    this.highest = -1;
    this.seen.clear();
    this.highestData = -1;
  }

  /** True when `id` was already recorded on this connection. */
  has(id: number): boolean {
    return id < this.floor || this.seen.has(id);
  }

  /** The ids missing below the highest seen. */
  holes(): number {
    return this.highest + 1 - this.floor - this.seen.size;
  }

  /**
   * Records one message.
   *
   * @param id - its `message_id`.
   * @param kind - `data` for channel data, `reply` for `subscribed`/`unsubscribed`/`connected`,
   *   `error` for an error message (validation errors reuse an id already seen: never a duplicate).
   * @param outstanding - subscribes and unsubscribes sent and not yet answered.
   */
  record(id: number, kind: "data" | "reply" | "error", outstanding: number): SequenceVerdict {
    const known = id < this.floor || this.seen.has(id);
    if (known) return kind === "data" ? "duplicate" : "ok";
    if (kind === "data") {
      if (id < this.highestData) {
        this.mark(id);
        return "reorder";
      }
      this.highestData = id;
    }
    this.mark(id);
    return this.holes() > outstanding ? "gap" : "ok";
  }

  private mark(id: number): void {
    if (id > this.highest) this.highest = id;
    if (id === this.floor) {
      this.floor++;
      if (this.seen.size !== 0) while (this.seen.delete(this.floor)) this.floor++;
    } else {
      this.seen.add(id);
    }
  }
}
