/**
 * ABCI events as modules emit them, with the SDK's standard types and attribute keys.
 */
import type { AbciEvent, EventAttribute } from "../contract.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";

/** Builds an event; every attribute is indexed (the node indexes all events by default). */
export function event(type: string, attributes: ReadonlyArray<readonly [string, string]>): AbciEvent {
  return { type, attributes: attributes.map(([key, value]) => ({ key, value, index: true })) };
}

/** Collects the events of one execution scope (a tx's ante step, a message, a block hook). */
export class EventManager {
  private readonly list: AbciEvent[] = [];
  private readonly indexed: IndexerEvent[] = [];

  /** Appends one event for the indexer (the block-event stream, `indexer-events.ts`). */
  indexer(e: IndexerEvent): void {
    this.indexed.push(e);
  }

  /** The indexer events so far, in order. */
  get indexerEvents(): readonly IndexerEvent[] {
    return this.indexed;
  }

  /** Appends another scope's events, both the ABCI and the indexer ones. */
  absorb(other: EventManager): void {
    for (const e of other.list) this.list.push(e);
    for (const e of other.indexed) this.indexed.push(e);
  }

  /** Appends one event. */
  emit(e: AbciEvent): void {
    this.list.push(e);
  }

  /** Appends an event built from a type and attribute pairs. */
  emitEvent(type: string, attributes: ReadonlyArray<readonly [string, string]>): void {
    this.list.push(event(type, attributes));
  }

  /** Appends several events. */
  emitAll(events: readonly AbciEvent[]): void {
    for (const e of events) this.list.push(e);
  }

  /** The events so far, in order. */
  get events(): readonly AbciEvent[] {
    return this.list;
  }

  /**
   * Whether emitted events are kept: false for {@link DISCARDED_EVENTS}, so that an emitter may skip
   * building events that nobody will read.
   */
  get recording(): boolean {
    return true;
  }
}

/** An {@link EventManager} that keeps nothing: for a scope whose events are never reported. */
class DiscardedEvents extends EventManager {
  override indexer(): void {}
  override absorb(): void {}
  override emit(): void {}
  override emitEvent(): void {}
  override emitAll(): void {}
  override get recording(): boolean {
    return false;
  }
}

/**
 * The events of CheckTx's messages: CheckTx reports its ante step's events only, as the SDK does,
 * and a check never goes to the indexer, so its messages' events are not kept at all.
 */
export const DISCARDED_EVENTS: EventManager = new DiscardedEvents();

/** Adds an attribute to every event (the SDK's `msg_index`, and `mode` for block events). */
export function withAttribute(events: readonly AbciEvent[], key: string, value: string): AbciEvent[] {
  // Copied by index into arrays of their final length: a block's proposed operations carry
  // thousands of events, and spreading each attribute list took twice as long.
  const out = new Array<AbciEvent>(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as AbciEvent;
    const attributes = e.attributes;
    const n = attributes.length;
    const copy = new Array<EventAttribute>(n + 1);
    for (let j = 0; j < n; j++) copy[j] = attributes[j] as EventAttribute;
    copy[n] = { key, value, index: true };
    out[i] = { type: e.type, attributes: copy };
  }
  return out;
}

/** The module name the SDK derives from a message type URL (second dotted component). */
export function moduleNameOfTypeUrl(typeUrl: string): string {
  const parts = typeUrl.split(".");
  return parts.length > 1 ? (parts[1] as string) : "";
}
