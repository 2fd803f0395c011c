/**
 * A small typed event emitter (no `node:events`, so it runs in browsers): `on` returns the function
 * that removes the listener, and `listenerCount` lets tests prove nothing is left attached.
 * Listener lists are replaced, never mutated, when a listener is added or removed, so `emit` walks a
 * plain array (the hot path of every update) and a listener may remove itself while it runs.
 */

/** A map from event name to its listener's argument. */
export type EventMap = { [event: string]: unknown };

type Listener = (value: never) => void;

/**
 * Typed listeners keyed by event name.
 *
 * @example
 * ```ts
 * class Ticker extends Emitter<{ tick: number }> {
 *   tick(n: number): void {
 *     this.emit("tick", n);
 *   }
 * }
 * const ticker = new Ticker();
 * const seen: number[] = [];
 * const off = ticker.on("tick", (n) => seen.push(n));
 * ticker.tick(1);
 * off();
 * ticker.tick(2);
 * seen; // [1]
 * ticker.listenerCount(); // 0
 * ```
 */
export class Emitter<Events extends EventMap> {
  private listeners = new Map<keyof Events, readonly Listener[]>();

  /**
   * Adds a listener.
   *
   * @param event - the event name.
   * @param listener - called with the event's value.
   * @returns the function that removes this listener.
   */
  on<E extends keyof Events>(event: E, listener: (value: Events[E]) => void): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener]);
    return () => this.off(event, listener);
  }

  /**
   * Removes a listener added with `on`.
   *
   * @param event - the event name.
   * @param listener - the listener.
   */
  off<E extends keyof Events>(event: E, listener: (value: Events[E]) => void): void {
    const list = this.listeners.get(event);
    if (!list) return;
    const index = list.indexOf(listener as Listener);
    if (index === -1) return;
    if (list.length === 1) this.listeners.delete(event);
    else this.listeners.set(event, [...list.slice(0, index), ...list.slice(index + 1)]);
  }

  /**
   * The number of listeners, of one event or of all.
   *
   * @param event - the event name; all events when absent.
   * @returns the count.
   */
  listenerCount(event?: keyof Events): number {
    if (event !== undefined) return this.listeners.get(event)?.length ?? 0;
    let count = 0;
    for (const list of this.listeners.values()) count += list.length;
    return count;
  }

  /** Calls every listener of `event` with `value`. */
  protected emit<E extends keyof Events>(event: E, value: Events[E]): void {
    const list = this.listeners.get(event);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) (list[i] as (value: Events[E]) => void)(value);
  }

  /**
   * Calls every listener of `event` with `value`, the ones after a listener that throws included.
   *
   * @returns what the first listener that threw threw (as `{ thrown }`), or undefined.
   */
  protected emitGuarded<E extends keyof Events>(event: E, value: Events[E]): { thrown: unknown } | undefined {
    const list = this.listeners.get(event);
    if (list === undefined) return undefined;
    let failure: { thrown: unknown } | undefined;
    for (let i = 0; i < list.length; i++) {
      try {
        (list[i] as (value: Events[E]) => void)(value);
      } catch (thrown) {
        failure ??= { thrown };
      }
    }
    return failure;
  }

  /** Removes every listener. */
  protected removeAllListeners(): void {
    this.listeners = new Map();
  }
}
