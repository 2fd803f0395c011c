/**
 * One order book update written to 100 subscribers: one `JSON.stringify` per subscriber (the
 * envelope differs only in `connection_id` and `message_id`) against one stringify of the shared
 * tail spliced behind each connection's head. Also a busy subaccount update (larger contents), where
 * the difference grows with the contents.
 */
import { randomUUID } from "node:crypto";
import { bench, describe } from "vitest";
import type { ChannelMessage } from "../feed.js";
import { dataHead, dataTail, encodeMessage } from "./envelopes.js";

const SUBSCRIBERS = 100;
const connections = Array.from({ length: SUBSCRIBERS }, () => ({
  id: randomUUID(),
  head: "",
  messageId: 0,
}));
for (const c of connections) c.head = dataHead("channel_data", c.id);

const book: ChannelMessage = {
  channel: "v4_orderbook",
  id: "BTC-USD",
  version: "1.0.0",
  contents: { bids: [["65000.5", "1.25"]] },
};
const subaccount: ChannelMessage = {
  channel: "v4_subaccounts",
  id: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/0",
  version: "3.0.0",
  contents: {
    orders: Array.from({ length: 10 }, (_, i) => ({
      id: randomUUID(),
      subaccountId: randomUUID(),
      clientId: String(i),
      clobPairId: "0",
      side: "BUY",
      size: "0.5",
      totalFilled: "0.1",
      price: "65000",
      status: "OPEN",
      orderFlags: "64",
      ticker: "BTC-USD",
    })),
    blockHeight: "1234",
  },
};

function restringify(message: ChannelMessage): number {
  let bytes = 0;
  for (const c of connections) {
    c.messageId += 1;
    // Buffer.byteLength flattens the string, as ws.send's conversion to bytes does.
    bytes += Buffer.byteLength(
      JSON.stringify({
        type: "channel_data",
        connection_id: c.id,
        message_id: c.messageId,
        id: message.id,
        channel: message.channel,
        version: message.version,
        contents: message.contents,
      }),
    );
  }
  return bytes;
}

function splice(message: ChannelMessage): number {
  let bytes = 0;
  const tail = dataTail(encodeMessage(message));
  for (const c of connections) {
    c.messageId += 1;
    bytes += Buffer.byteLength(`${c.head}${c.messageId}${tail}`);
  }
  return bytes;
}

describe("one order book update to 100 subscribers", () => {
  bench("JSON.stringify per subscriber", () => {
    restringify(book);
  });
  bench("one stringify, spliced per subscriber", () => {
    splice(book);
  });
});

describe("one subaccount update with 10 orders to 100 subscribers", () => {
  bench("JSON.stringify per subscriber", () => {
    restringify(subaccount);
  });
  bench("one stringify, spliced per subscriber", () => {
    splice(subaccount);
  });
});
