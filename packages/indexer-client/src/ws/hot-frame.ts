/**
 * A direct reader for the busiest frame the indexer sends: a `v4_orderbook` `channel_data` update,
 * written by the server as
 * `{"type":"channel_data","connection_id":"…","message_id":N,"id":"…","channel":"v4_orderbook","version":"…","contents":{"bids":[["p","s"],…],"asks":[…]}}`.
 *
 * It reads that exact layout with string searches instead of a general JSON parse, and answers
 * `undefined` for anything else (another field order, whitespace, an escape, a control character,
 * a number that is not a plain integer, a repeated side, a level that is not two strings), which
 * then goes to `JSON.parse`. What it accepts it reads to the value `JSON.parse` gives (a property
 * test holds the two equal).
 */
import type { Frame } from "./frame.js";

const HEAD = '{"type":"channel_data","connection_id":"';
const MESSAGE_ID = '","message_id":';
const ID = ',"id":"';
const CHANNEL = '","channel":"v4_orderbook","version":"';
const CONTENTS = '","contents":{';
/** 2^53 has 16 digits: up to 15 digits is always a safe integer. */
const MAX_ID_DIGITS = 15;

type Level = [string, string];

/**
 * The end of the quoted text starting at `from` (the index of its closing quote), or -1 when the
 * text ends first or holds what a JSON string may not hold raw (a control character) or what
 * this reader leaves to `JSON.parse` (a backslash: an escape).
 */
function closingQuote(raw: string, from: number): number {
  for (let i = from; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 34 /* " */) return i;
    if (code < 32 || code === 92 /* \\ */) return -1;
  }
  return -1;
}

/**
 * Reads `[["p","s"],…]` starting at `at` (the `[`); answers the levels and the index after the
 * closing `]`, or undefined.
 */
function readLevels(raw: string, at: number): { levels: Level[]; next: number } | undefined {
  if (raw.charCodeAt(at) !== 91 /* [ */) return undefined;
  let i = at + 1;
  const levels: Level[] = [];
  if (raw.charCodeAt(i) === 93 /* ] */) return { levels, next: i + 1 };
  for (;;) {
    if (raw.charCodeAt(i) !== 91 || raw.charCodeAt(i + 1) !== 34 /* " */) return undefined;
    const priceEnd = closingQuote(raw, i + 2);
    if (priceEnd < 0 || raw.charCodeAt(priceEnd + 1) !== 44 /* , */) return undefined;
    if (raw.charCodeAt(priceEnd + 2) !== 34) return undefined;
    const sizeEnd = closingQuote(raw, priceEnd + 3);
    if (sizeEnd < 0 || raw.charCodeAt(sizeEnd + 1) !== 93) return undefined;
    levels.push([raw.slice(i + 2, priceEnd), raw.slice(priceEnd + 3, sizeEnd)]);
    i = sizeEnd + 2;
    const next = raw.charCodeAt(i);
    if (next === 93) return { levels, next: i + 1 };
    if (next !== 44) return undefined;
    i++;
  }
}

/**
 * Reads a `v4_orderbook` update frame in the server's layout, or answers `undefined` (the caller
 * then parses the text as JSON).
 */
export function readOrderbookFrame(raw: string): Frame | undefined {
  if (!raw.startsWith(HEAD)) return undefined;
  const connectionEnd = closingQuote(raw, HEAD.length);
  if (connectionEnd < 0 || !raw.startsWith(MESSAGE_ID, connectionEnd)) return undefined;
  let i = connectionEnd + MESSAGE_ID.length;
  const digitsStart = i;
  let messageId = 0;
  for (let code = raw.charCodeAt(i); code >= 48 && code <= 57; code = raw.charCodeAt(++i)) {
    messageId = messageId * 10 + (code - 48);
  }
  const digits = i - digitsStart;
  if (digits === 0 || digits > MAX_ID_DIGITS) return undefined;
  if (digits > 1 && raw.charCodeAt(digitsStart) === 48 /* a leading 0 */) return undefined;
  if (!raw.startsWith(ID, i)) return undefined;
  const idStart = i + ID.length;
  const idEnd = closingQuote(raw, idStart);
  if (idEnd < 0 || !raw.startsWith(CHANNEL, idEnd)) return undefined;
  const versionStart = idEnd + CHANNEL.length;
  const versionEnd = closingQuote(raw, versionStart);
  if (versionEnd < 0 || !raw.startsWith(CONTENTS, versionEnd)) return undefined;
  i = versionEnd + CONTENTS.length;
  const contents: { bids?: Level[]; asks?: Level[] } = {};
  if (raw.charCodeAt(i) !== 125 /* } */) {
    for (;;) {
      const side = raw.startsWith('"bids":', i) ? "bids" : raw.startsWith('"asks":', i) ? "asks" : undefined;
      if (side === undefined || contents[side] !== undefined) return undefined;
      const read = readLevels(raw, i + 7);
      if (read === undefined) return undefined;
      contents[side] = read.levels;
      i = read.next;
      const next = raw.charCodeAt(i);
      if (next === 125) break;
      if (next !== 44) return undefined;
      i++;
    }
  }
  if (i + 2 !== raw.length || raw.charCodeAt(i + 1) !== 125) return undefined;
  return {
    type: "channel_data",
    connection_id: raw.slice(HEAD.length, connectionEnd),
    message_id: messageId,
    id: raw.slice(idStart, idEnd),
    channel: "v4_orderbook",
    version: raw.slice(versionStart, versionEnd),
    contents,
  };
}
