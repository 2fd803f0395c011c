/**
 * A small typed event emitter (no `node:events`, so it runs in browsers): `on` returns the function
 * that removes the listener, and `listenerCount` lets tests prove nothing is left attached.
 */

/** A map from event name to its listener's argument. */
export type EventMap = { [event: string]: unknown };

/**
 * Typed listeners keyed by event name.
 *
 * @example
 * ```ts
 * const events = new Emitter<{ tick: number }>();
 * const off = events.on("tick", (n) => n);
 * events.emit("tick", 1);
 * off();
 * ```
 */
export class Emitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();

  /**
   * Adds a listener.
   *
   * @param event - the event name.
   * @param listener - called with the event's value.
   * @returns the function that removes this listener.
   */
  on<E extends keyof Events>(event: E, listener: (value: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (value: never) => void);
    return () => this.off(event, listener);
  }

  /**
   * Removes a listener added with {@link Emitter.on}.
   *
   * @param event - the event name.
   * @param listener - the listener.
   */
  off<E extends keyof Events>(event: E, listener: (value: Events[E]) => void): void {
    const set = this.listeners.get(event);
    set?.delete(listener as (value: never) => void);
    if (set?.size === 0) this.listeners.delete(event);
  }

  /**
   * The number of listeners, of one event or of all.
   *
   * @param event - the event name; all events when absent.
   */
  listenerCount(event?: keyof Events): number {
    if (event !== undefined) return this.listeners.get(event)?.size ?? 0;
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  /** Calls every listener of `event` with `value`. */
  protected emit<E extends keyof Events>(event: E, value: Events[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    // A Set iterates safely while listeners remove themselves (removed ones are skipped).
    for (const listener of set) (listener as (value: Events[E]) => void)(value);
  }

  /** Removes every listener. */
  protected removeAllListeners(): void {
    this.listeners.clear();
  }
}
