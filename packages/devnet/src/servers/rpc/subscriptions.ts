/**
 * WebSocket subscriptions: `subscribe`, `unsubscribe` and `unsubscribe_all` per client, and the
 * events each committed block publishes (`NewBlock`, `NewBlockHeader`, one `Tx` per tx) to the
 * subscriptions whose query they match.
 */
import { createHash } from "node:crypto";
import type { WebSocket } from "ws";
import type { BlockRecord, ChainApp } from "../../app/contract.js";
import {
  flatEventSubject,
  parseQuery,
  type QueryCondition,
  QuerySyntaxError,
  queryMatches,
} from "../../app/lib/event-query.js";
import {
  blockIdJson,
  blockJson,
  finalizeBlockJson,
  flattenEvents,
  headerJson,
  type Json,
  txResultJson,
} from "../comet-json.js";
import { toBase64, toHexUpper } from "../encoding.js";
import { internal, invalidParam } from "./errors.js";
import { type ParamSpec, type Params, requireString } from "./params.js";

interface Subscription {
  query: string;
  conditions: QueryCondition[];
  id: unknown;
}

/** A connected WebSocket client and its subscriptions, by query. */
export interface WsClient {
  readonly socket: WebSocket;
  readonly subscriptions: Map<string, Subscription>;
}

/** The parameters of the WebSocket-only methods. */
export const SUBSCRIPTION_PARAMS: Readonly<Record<string, ParamSpec>> = {
  subscribe: [["query", "string"]],
  unsubscribe: [["query", "string"]],
  unsubscribe_all: [],
};

function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(bytes).digest());
}

interface Candidate {
  events: Record<string, string[]>;
  data: () => Json;
}

function candidatesOf(app: ChainApp, block: BlockRecord): Candidate[] {
  const height = block.height.toString();
  let blockData: Json | undefined;
  const list: Candidate[] = [
    {
      events: flattenEvents(block.finalizeBlockEvents, { "tm.event": ["NewBlock"] }),
      data: () => {
        blockData ??= {
          type: "tendermint/event/NewBlock",
          value: {
            block: blockJson(app, block),
            block_id: blockIdJson(block.hash),
            result_finalize_block: finalizeBlockJson(app, block),
          },
        };
        return blockData;
      },
    },
    {
      events: flattenEvents(block.finalizeBlockEvents, { "tm.event": ["NewBlockHeader"] }),
      data: () => ({
        type: "tendermint/event/NewBlockHeader",
        value: { header: headerJson(block, app.info) },
      }),
    },
  ];
  block.txs.forEach((tx, index) => {
    const result = block.txResults[index];
    if (result === undefined) return;
    list.push({
      events: flattenEvents(result.events, {
        "tm.event": ["Tx"],
        "tx.hash": [toHexUpper(sha256(tx))],
        "tx.height": [height],
      }),
      data: () => ({
        type: "tendermint/event/Tx",
        value: { TxResult: { height, index, tx: toBase64(tx), result: txResultJson(result) } },
      }),
    });
  });
  return list;
}

/** The WebSocket clients of one server and their subscriptions. */
export interface SubscriptionHub {
  /** Registers a connected socket; it is dropped when it closes or fails. */
  connect(socket: WebSocket): WsClient;
  /** Runs a WebSocket-only method for `client`; `id` is the request id events are sent under. */
  call(client: WsClient, method: string, params: Params, id: unknown): Json;
  /** Sends a committed block's events to the matching subscriptions. */
  publish(block: BlockRecord): void;
  /** Drops every client. */
  close(): void;
}

/** A hub over `app`; each client may hold at most `maxSubscriptions` subscriptions. */
export function createSubscriptionHub(app: ChainApp, maxSubscriptions: number): SubscriptionHub {
  const clients = new Set<WsClient>();
  return {
    connect(socket) {
      const client: WsClient = { socket, subscriptions: new Map() };
      clients.add(client);
      socket.on("close", () => clients.delete(client));
      socket.on("error", () => clients.delete(client));
      return client;
    },
    call(client, method, params, id) {
      if (method === "unsubscribe_all") {
        client.subscriptions.clear();
        return {};
      }
      const query = requireString(params, "query");
      if (method === "unsubscribe") {
        if (!client.subscriptions.delete(query)) throw internal("subscription not found");
        return {};
      }
      let conditions: QueryCondition[];
      try {
        conditions = parseQuery(query);
      } catch (error) {
        if (error instanceof QuerySyntaxError) throw invalidParam("query", error.message);
        throw error;
      }
      if (client.subscriptions.has(query)) throw internal("already subscribed");
      if (client.subscriptions.size >= maxSubscriptions) {
        throw internal(`max_subscriptions_per_client ${maxSubscriptions} reached`);
      }
      client.subscriptions.set(query, { query, conditions, id });
      return {};
    },
    publish(block) {
      if (clients.size === 0) return;
      let candidates: Candidate[] | undefined;
      for (const client of clients) {
        if (client.subscriptions.size === 0 || client.socket.readyState !== 1) continue;
        candidates ??= candidatesOf(app, block);
        for (const sub of client.subscriptions.values()) {
          for (const candidate of candidates) {
            if (!queryMatches(sub.conditions, flatEventSubject(candidate.events))) continue;
            const message = {
              jsonrpc: "2.0",
              id: sub.id,
              result: { query: sub.query, data: candidate.data(), events: candidate.events },
            };
            client.socket.send(JSON.stringify(message));
          }
        }
      }
    },
    close() {
      for (const client of clients) client.socket.terminate();
      clients.clear();
    },
  };
}
