import { describe, expect, it } from "vitest";
import { DISCARDED_EVENTS, EventManager } from "./events.js";

describe("event managers", () => {
  it("an event manager keeps what is emitted; the discarding one keeps nothing and says so", () => {
    const emitAll = (events: EventManager) => {
      events.emitEvent("a", [["k", "v"]]);
      events.emit({ type: "b", attributes: [] });
      events.emitAll([{ type: "c", attributes: [] }]);
      events.indexer({ kind: "oracle_price" } as never);
      const other = new EventManager();
      other.emitEvent("d", []);
      events.absorb(other);
    };
    const kept = new EventManager();
    emitAll(kept);
    expect(kept.recording).toBe(true);
    expect(kept.events.map((e) => e.type)).toEqual(["a", "b", "c", "d"]);
    expect(kept.indexerEvents).toHaveLength(1);
    emitAll(DISCARDED_EVENTS);
    expect(DISCARDED_EVENTS.recording).toBe(false);
    expect(DISCARDED_EVENTS.events).toEqual([]);
    expect(DISCARDED_EVENTS.indexerEvents).toEqual([]);
  });
});
