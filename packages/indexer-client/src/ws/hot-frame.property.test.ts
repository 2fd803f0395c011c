import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readOrderbookFrame } from "./hot-frame.js";

/** Any JSON string's content, escapes and control characters included. */
const text = fc.string({ unit: "binary", maxLength: 12 });
const decimal = fc
  .tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 999 }))
  .map(([whole, cents]) => (cents === 0 ? String(whole) : `${whole}.${cents}`));
const level = fc.tuple(fc.oneof(decimal, text), fc.oneof(decimal, text));

/** Frames in the server's layout, with arbitrary strings where the server puts strings. */
const serverFrame = fc
  .record({
    connectionId: fc.oneof(fc.uuid(), text),
    messageId: fc.oneof(fc.nat(), fc.constant(0), fc.integer({ min: 0, max: 10 ** 15 - 1 })),
    id: fc.oneof(fc.constantFrom("BTC-USD", "ETH-USD"), text),
    version: fc.oneof(fc.constant("1.0.0"), text),
    bids: fc.option(fc.array(level, { maxLength: 4 }), { nil: undefined }),
    asks: fc.option(fc.array(level, { maxLength: 4 }), { nil: undefined }),
    asksFirst: fc.boolean(),
  })
  .map(({ connectionId, messageId, id, version, bids, asks, asksFirst }) => {
    const contents: Record<string, unknown> = {};
    if (asksFirst && asks) contents.asks = asks;
    if (bids) contents.bids = bids;
    if (!asksFirst && asks) contents.asks = asks;
    return JSON.stringify({
      type: "channel_data",
      connection_id: connectionId,
      message_id: messageId,
      id,
      channel: "v4_orderbook",
      version,
      contents,
    });
  });

/** A server frame, damaged: a character dropped, replaced or inserted somewhere. */
const damaged = fc
  .tuple(serverFrame, fc.nat(), fc.constantFrom("drop", "replace", "insert"), fc.string({ maxLength: 2 }))
  .map(([raw, at, how, what]) => {
    const i = at % raw.length;
    if (how === "drop") return raw.slice(0, i) + raw.slice(i + 1);
    if (how === "replace") return raw.slice(0, i) + what + raw.slice(i + 1);
    return raw.slice(0, i) + what + raw.slice(i);
  });

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return "invalid JSON";
  }
}

describe("readOrderbookFrame", () => {
  it("reads every frame in the server's plain layout to what JSON.parse gives", () => {
    fc.assert(
      fc.property(serverFrame, (raw) => {
        const frame = readOrderbookFrame(raw);
        // JSON.stringify escapes quotes, backslashes and control characters: escapes go to JSON.parse.
        if (raw.includes("\\")) return;
        expect(frame).toEqual(JSON.parse(raw));
      }),
      { numRuns: 2_000 },
    );
  });

  it("answers JSON.parse's value or undefined for any text, never something else", () => {
    fc.assert(
      fc.property(fc.oneof(serverFrame, damaged, fc.string()), (raw) => {
        const frame = readOrderbookFrame(raw);
        if (frame !== undefined) expect(frame).toEqual(parsed(raw));
      }),
      { numRuns: 5_000 },
    );
  });

  it("leaves other layouts to JSON.parse", () => {
    const plain =
      '{"type":"channel_data","connection_id":"c","message_id":1,"id":"BTC-USD","channel":"v4_orderbook","version":"1.0.0","contents":{"bids":[["1","2"]]}}';
    expect(readOrderbookFrame(plain)?.message_id).toBe(1);
    for (const other of [
      plain.replace('"message_id":1', '"message_id":01'),
      plain.replace('"message_id":1', '"message_id":1e0'),
      plain.replace('"message_id":1', '"message_id":1234567890123456'),
      plain.replace("v4_orderbook", "v4_trades"),
      plain.replace('["1","2"]', '["1","2","3"]'),
      plain.replace('{"bids":[["1","2"]]}', '{"bids":[],"bids":[]}'),
      plain.replace(',"id"', ', "id"'),
      `${plain} `,
    ]) {
      expect(readOrderbookFrame(other), other).toBeUndefined();
    }
  });
});
