/**
 * The server's JSON frames (`spec/indexer-api.md` 3.3), written as text with the reference's key
 * order. Data messages are built in two parts so that one `JSON.stringify` of the contents serves
 * every subscriber: a per-connection head (`type`, `connection_id`, `message_id`) and a tail shared by
 * all connections (`id`, `channel`, `version`, `contents`, `subaccountNumber`), spliced together.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import type { ChannelMessage } from "../feed.js";

/** `{"type":"connected",...}`: the first frame of every connection. */
export function connectedFrame(connectionId: string): string {
  return `{"type":"connected","connection_id":"${connectionId}","message_id":0}`;
}

/**
 * Where an error came from, when it names a subscription (initial fetch failures, already
 * subscribed): the channel and the `id` exactly as the client sent it (`undefined` when it sent
 * none, as for `v4_markets`; socks echoes the raw id, never the normalized one).
 */
export interface ErrorSubject {
  readonly channel: IndexerChannel;
  readonly id: unknown;
}

/**
 * `{"type":"error","message":...}`, with `channel` and `id` when the error names a subscription
 * (`id` left out when the client sent none, as `JSON.stringify` drops socks' `undefined`).
 */
export function errorFrame(
  message: string,
  connectionId: string,
  messageId: number,
  subject?: ErrorSubject,
): string {
  return JSON.stringify({
    type: "error",
    message,
    connection_id: connectionId,
    message_id: messageId,
    ...(subject === undefined ? {} : { channel: subject.channel, id: subject.id }),
  });
}

/** `{"type":"subscribed",...}` around contents already serialized (`id` omitted for v4_markets). */
export function subscribedFrame(
  connectionId: string,
  messageId: number,
  channel: IndexerChannel,
  id: string,
  contentsJson: string,
): string {
  const idPart = channel === "v4_markets" ? "" : `,"id":${JSON.stringify(id)}`;
  return `{"type":"subscribed","connection_id":"${connectionId}","message_id":${messageId},"channel":"${channel}"${idPart},"contents":${contentsJson}}`;
}

/**
 * `{"type":"unsubscribed",...}` with the `id` as the client sent it: omitted for v4_markets, and
 * when the client sent none (a `v4_block_height` unsubscribe without an id), as socks answers.
 */
export function unsubscribedFrame(
  connectionId: string,
  messageId: number,
  channel: IndexerChannel,
  id: unknown,
): string {
  const idJson = channel === "v4_markets" ? undefined : JSON.stringify(id);
  const idPart = idJson === undefined ? "" : `,"id":${idJson}`;
  return `{"type":"unsubscribed","connection_id":"${connectionId}","message_id":${messageId},"channel":"${channel}"${idPart}}`;
}

/** The two data frame types. */
export type DataFrameType = "channel_data" | "channel_batch_data";

/** The per-connection start of a data frame, up to and including `"message_id":`. */
export function dataHead(type: DataFrameType, connectionId: string): string {
  return `{"type":"${type}","connection_id":"${connectionId}","message_id":`;
}

function tailOf(
  channel: IndexerChannel,
  id: string,
  version: string,
  contentsJson: string,
  subaccountNumber: number | undefined,
): string {
  const idPart = channel === "v4_markets" ? "" : `,"id":${JSON.stringify(id)}`;
  const child = subaccountNumber === undefined ? "" : `,"subaccountNumber":${subaccountNumber}`;
  return `${idPart},"channel":"${channel}","version":${JSON.stringify(version)},"contents":${contentsJson}${child}}`;
}

/** A channel message with its contents serialized (once, whatever the number of subscribers). */
export interface EncodedMessage {
  readonly message: ChannelMessage;
  readonly contentsJson: string;
}

/**
 * Serializes a message's contents.
 *
 * @throws TypeError when the contents are not JSON-serializable (a bigint, a cycle).
 */
export function encodeMessage(message: ChannelMessage): EncodedMessage {
  const contentsJson = JSON.stringify(message.contents);
  if (typeof contentsJson !== "string") throw new TypeError("channel message contents are not JSON");
  return { message, contentsJson };
}

/**
 * The shared end of a `channel_data` frame for one message; a frame is
 * `dataHead(...) + messageId + tail`.
 */
export function dataTail({ message, contentsJson }: EncodedMessage): string {
  return tailOf(message.channel, message.id, message.version, contentsJson, message.subaccountNumber);
}

/**
 * The shared ends of the `channel_batch_data` frames for a run of messages of one channel id:
 * one frame per (version, child subaccountNumber) group, groups in order of first appearance,
 * contents in arrival order (3.6).
 */
export function batchTails(run: readonly EncodedMessage[]): string[] {
  const groups = new Map<string, EncodedMessage[]>();
  for (const encoded of run) {
    const key = `${encoded.message.version}\u0000${encoded.message.subaccountNumber ?? ""}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [encoded]);
    else group.push(encoded);
  }
  const tails: string[] = [];
  for (const group of groups.values()) {
    const { message } = group[0] as EncodedMessage;
    const contents = `[${group.map((e) => e.contentsJson).join(",")}]`;
    tails.push(tailOf(message.channel, message.id, message.version, contents, message.subaccountNumber));
  }
  return tails;
}
