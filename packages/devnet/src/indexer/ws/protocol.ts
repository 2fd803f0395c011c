/**
 * The client side of the protocol (`spec/indexer-api.md` 3.2, 3.4, 3.7): parsing and validating a
 * frame, `subscribe` (id format, snapshot from the feed, rate limit, duplicate and cap checks, then
 * `subscribed`), `unsubscribe`, and the ignored JSON `ping`. Every error text is the reference's.
 *
 * Order of the subscribe checks, as the reference: id format and the feed's `invalid-id`, then the
 * subscribe rate limit, then the initial fetch's failures, then "already subscribed", then the cap.
 * The snapshot is read before the rate limit is counted (the reference asks the market cache
 * first, then fetches); only the cost differs, never the answer.
 */
import { INDEXER_CHANNEL_SUBSCRIPTION_LIMITS } from "@perpx/core/indexer";
import type { ChannelSnapshot, IndexerFeed } from "../feed.js";
import { hasNoId, isChannel, normalizeSubscriptionId } from "./channels.js";
import { CLOSE, type Connection, Subscription, topicKey } from "./connection.js";
import { errorFrame, subscribedFrame, unsubscribedFrame } from "./envelopes.js";
import type { SubscriptionHub } from "./hub.js";

/** What a connection's frames are handled with. */
export interface ProtocolContext {
  readonly feed: IndexerFeed;
  readonly hub: SubscriptionHub;
}

function sendError(connection: Connection, message: string, messageId = connection.messageId): void {
  connection.send(errorFrame(message, connection.id, messageId));
}

/** A frame that is not a valid message: counted by the invalid-message rate limit (3.7). */
function invalid(connection: Connection, message: string): void {
  if (connection.invalidLimiter.exceeded("invalidMessage")) {
    sendError(connection, "Too many invalid messages. Please reconnect and try again.");
    connection.close(CLOSE.rateLimited);
    return;
  }
  sendError(connection, message);
}

/**
 * Handles one text frame from a client. Errors of the message's shape reuse the current
 * `message_id`; a valid `subscribe` or `unsubscribe` takes the next one.
 */
export function handleFrame(context: ProtocolContext, connection: Connection, text: string): void {
  if (!connection.open) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    invalid(connection, "Invalid message: could not parse");
    return;
  }
  if (parsed === null) {
    // The reference reads `parsed.type` of null and its handler throws.
    sendError(connection, "Internal error");
    return;
  }
  const message = parsed as Record<string, unknown>;
  if (!message.type) {
    invalid(connection, "Invalid message: type is required");
    return;
  }
  switch (message.type) {
    case "subscribe":
    case "unsubscribe": {
      const { channel, id } = message;
      if (!channel) {
        sendError(connection, "Invalid subscribe message: channel is required");
        return;
      }
      if (!isChannel(channel)) {
        sendError(connection, `Invalid channel: ${String(channel)}`);
        return;
      }
      if (!hasNoId(channel) && typeof id !== "string") {
        sendError(connection, `Invalid id: ${String(id)}`);
        return;
      }
      connection.messageId += 1;
      if (message.type === "subscribe") {
        subscribe(context, connection, channel, id, Boolean(message.batched));
      } else {
        unsubscribe(context, connection, channel, id);
      }
      return;
    }
    case "ping":
      return;
    default:
      invalid(connection, `Invalid message type: ${String(message.type)}`);
  }
}

function subscribe(
  context: ProtocolContext,
  connection: Connection,
  channel: Subscription["channel"],
  rawId: unknown,
  batched: boolean,
): void {
  const messageId = connection.messageId;
  const invalidId = () =>
    sendError(connection, `Invalid subscription id for channel: (${channel}-${String(rawId)})`, messageId);
  const id = normalizeSubscriptionId(channel, rawId);
  if (id === undefined) {
    invalidId();
    return;
  }
  const subscription = new Subscription(connection, channel, id, batched);
  connection.pending.add(subscription);
  context.hub.addPending(subscription);

  const settle = (snapshot: ChannelSnapshot | undefined) => {
    connection.pending.delete(subscription);
    if (subscription.state === "ended" || !connection.open) {
      context.hub.remove(subscription);
      return;
    }
    // Errors that name the subscription carry the id as the client sent it, as socks does.
    const subject = { channel, id: rawId };
    const refuse = (message: string, named?: typeof subject) => {
      context.hub.remove(subscription);
      connection.send(errorFrame(message, connection.id, messageId, named));
    };
    if (snapshot?.kind === "invalid-id") {
      context.hub.remove(subscription);
      invalidId();
      return;
    }
    if (connection.subscribeLimiter.exceeded(`${channel}${id}`)) {
      refuse(`Too many subscribe attempts for channel ${channel}-${id}. Please  reconnect and try again.`);
      connection.close(CLOSE.rateLimited);
      return;
    }
    if (snapshot === undefined) {
      refuse(`Internal error, could not fetch data for subscription: ${channel}.`, subject);
      return;
    }
    if (snapshot.kind === "refused") {
      refuse(snapshot.message, subject);
      return;
    }
    if (connection.live.has(subscription.key)) {
      refuse(`Invalid subscribe message: already subscribed (${channel}-${id})`, subject);
      return;
    }
    const limit = INDEXER_CHANNEL_SUBSCRIPTION_LIMITS[channel];
    if (connection.count(channel) >= limit) {
      refuse(`Per-connection subscription limit reached for ${channel} (limit=${limit}).`);
      return;
    }
    connection.live.set(subscription.key, subscription);
    connection.send(
      subscribedFrame(connection.id, messageId, channel, id, JSON.stringify(snapshot.contents)),
    );
    context.hub.activate(subscription);
  };

  let answer: ChannelSnapshot | PromiseLike<ChannelSnapshot>;
  try {
    answer = context.feed.snapshot(channel, id);
  } catch {
    settle(undefined);
    return;
  }
  if (isPromiseLike(answer)) {
    answer.then(settle, () => settle(undefined));
  } else {
    settle(answer);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<ChannelSnapshot> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * Ends the connection's subscription to a channel id; answers `unsubscribed` either way (3.3: a
 * no-op when not subscribed), with the id as the client sent it (none when it sent none), as socks
 * does. A subscribe still reading its snapshot is not subscribed yet: socks registers it only once
 * the snapshot is read, so it then goes live all the same (and a later subscribe to the id is
 * `already subscribed`).
 */
function unsubscribe(
  context: ProtocolContext,
  connection: Connection,
  channel: Subscription["channel"],
  rawId: unknown,
): void {
  const id = hasNoId(channel) ? channel : (rawId as string);
  const key = topicKey(channel, id);
  const live = connection.live.get(key);
  if (live !== undefined) {
    connection.live.delete(key);
    context.hub.remove(live);
  }
  connection.send(unsubscribedFrame(connection.id, connection.messageId, channel, rawId));
}

/** Forgets every subscription of a closed connection. */
export function dropConnection(context: ProtocolContext, connection: Connection): void {
  connection.stopTimers();
  for (const subscription of connection.live.values()) context.hub.remove(subscription);
  for (const subscription of connection.pending) context.hub.remove(subscription);
  connection.live.clear();
  connection.pending.clear();
}
