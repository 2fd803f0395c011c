/**
 * The spliced frames are the JSON the reference builds with one `JSON.stringify` per frame: same
 * keys, same order, same values, for any ids, versions and contents.
 */

import { INDEXER_CHANNELS, type IndexerChannel } from "@perpx/core/indexer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChannelMessage } from "../feed.js";
import {
  batchTails,
  dataHead,
  dataTail,
  encodeMessage,
  errorFrame,
  subscribedFrame,
  unsubscribedFrame,
} from "./envelopes.js";

const channel = fc.constantFrom<IndexerChannel>(...INDEXER_CHANNELS);
const contents = fc.object({ maxDepth: 2 }) as fc.Arbitrary<object>;
const message: fc.Arbitrary<ChannelMessage> = fc.record(
  {
    channel,
    id: fc.string(),
    version: fc.constantFrom("1.0.0", "2.1.0", "3.0.0"),
    contents,
    subaccountNumber: fc.nat(128_000),
  },
  { requiredKeys: ["channel", "id", "version", "contents"] },
);

/** The frame as the reference writes it: one object literal, stringified. */
function reference(type: string, cid: string, messageId: number, m: ChannelMessage, body: unknown) {
  return JSON.stringify({
    type,
    connection_id: cid,
    message_id: messageId,
    ...(m.channel === "v4_markets" ? {} : { id: m.id }),
    channel: m.channel,
    version: m.version,
    contents: body,
    subaccountNumber: m.subaccountNumber,
  });
}

describe("envelopes", () => {
  it("head + message_id + tail of channel_data equals the stringified envelope", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), message, (cid, messageId, m) => {
        const spliced = `${dataHead("channel_data", cid)}${messageId}${dataTail(encodeMessage(m))}`;
        expect(spliced).toBe(reference("channel_data", cid, messageId, m, m.contents));
      }),
    );
  });

  it("a batch of one version and child is one frame with the contents in arrival order", () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        message,
        fc.array(contents, { minLength: 1, maxLength: 5 }),
        (cid, m, bodies) => {
          const run = bodies.map((body) => ({ ...m, contents: body }));
          const [tail, ...rest] = batchTails(run.map(encodeMessage));
          expect(rest).toEqual([]);
          expect(`${dataHead("channel_batch_data", cid)}7${tail}`).toBe(
            reference("channel_batch_data", cid, 7, m, bodies),
          );
        },
      ),
    );
  });

  it("batches split by version and by child subaccount, groups in order of first appearance", () => {
    const base = { channel: "v4_parent_subaccounts" as const, id: "perpx1abc/0", version: "3.0.0" };
    const tails = batchTails(
      [
        { ...base, contents: { n: 1 }, subaccountNumber: 0 },
        { ...base, contents: { n: 2 }, subaccountNumber: 128 },
        { ...base, contents: { n: 3 }, subaccountNumber: 0 },
        { ...base, version: "4.0.0", contents: { n: 4 }, subaccountNumber: 0 },
      ].map(encodeMessage),
    );
    expect(tails.map((tail) => JSON.parse(`{"a":0${tail}`))).toEqual([
      { a: 0, ...base, contents: [{ n: 1 }, { n: 3 }], subaccountNumber: 0 },
      { a: 0, ...base, contents: [{ n: 2 }], subaccountNumber: 128 },
      { a: 0, ...base, version: "4.0.0", contents: [{ n: 4 }], subaccountNumber: 0 },
    ]);
  });

  it("contents that are not JSON are refused by encodeMessage", () => {
    const base = { channel: "v4_trades" as const, id: "BTC-USD", version: "2.1.0" };
    expect(() => encodeMessage({ ...base, contents: { size: 1n } })).toThrow(TypeError);
    expect(() => encodeMessage({ ...base, contents: { toJSON: () => undefined } })).toThrow(
      "channel message contents are not JSON",
    );
  });

  it("subscribed, unsubscribed and error frames keep the reference's keys", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), channel, fc.string(), contents, (cid, n, ch, id, body) => {
        const withId = ch === "v4_markets" ? {} : { id };
        expect(subscribedFrame(cid, n, ch, id, JSON.stringify(body))).toBe(
          JSON.stringify({
            type: "subscribed",
            connection_id: cid,
            message_id: n,
            channel: ch,
            ...withId,
            contents: body,
          }),
        );
        expect(unsubscribedFrame(cid, n, ch, id)).toBe(
          JSON.stringify({ type: "unsubscribed", connection_id: cid, message_id: n, channel: ch, ...withId }),
        );
        expect(errorFrame(id, cid, n, { channel: ch, id })).toBe(
          JSON.stringify({ type: "error", message: id, connection_id: cid, message_id: n, channel: ch, id }),
        );
      }),
    );
  });

  it("an id the client did not send is left out of unsubscribed and error frames", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), channel, (cid, n, ch) => {
        expect(unsubscribedFrame(cid, n, ch, undefined)).toBe(
          JSON.stringify({ type: "unsubscribed", connection_id: cid, message_id: n, channel: ch }),
        );
        expect(errorFrame("m", cid, n, { channel: ch, id: undefined })).toBe(
          JSON.stringify({ type: "error", message: "m", connection_id: cid, message_id: n, channel: ch }),
        );
      }),
    );
  });
});
