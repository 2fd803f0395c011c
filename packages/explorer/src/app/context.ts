/**
 * What every page works with: the network's configuration, a node client and an indexer client
 * (their browser builds), one indexer WebSocket shared by the pages, and the live chain height.
 */
import type { PerpetualMarketResponseObject } from "@perpx/core/indexer";
import {
  connectIndexerSocket,
  createIndexerClient,
  type IndexerClient,
  type IndexerSocket,
} from "@perpx/indexer-client";
import { createNodeClient, type NodeClient } from "@perpx/node-client";
import type { ExplorerConfig } from "../config.js";

/** The live height as the indexer feed announces it. */
export interface Height {
  readonly height: bigint;
  readonly time: string;
}

/** The explorer's shared state. */
export interface Explorer {
  readonly config: ExplorerConfig;
  readonly node: NodeClient;
  readonly indexer: IndexerClient;
  readonly socket: IndexerSocket;
  /** The last height seen, once the feed gave one. */
  height(): Height | undefined;
  /** Calls `listener` with every new height; returns a function that stops it. */
  onHeight(listener: (height: Height) => void): () => void;
  /** The indexer's markets, read at most once per height. */
  markets(): Promise<Readonly<Record<string, PerpetualMarketResponseObject>>>;
}

/** The connection's state, for the banner. */
export type ConnectionState =
  | { readonly state: "connecting" }
  | { readonly state: "open" }
  | { readonly state: "lost"; readonly attempt: number; readonly cause: string };

/** Connects the clients; `onConnection` follows the WebSocket's state (lost, reconnecting, open). */
export async function connect(
  config: ExplorerConfig,
  onConnection: (state: ConnectionState) => void,
): Promise<Explorer> {
  const node = createNodeClient({
    nodeRpc: config.endpoints.nodeRpc,
    nodeRest: config.endpoints.nodeRest,
    grpc: { url: config.endpoints.nodeRest, protocol: "grpc-web" },
  });
  // The indexer's REST answers may be cached for a second (`max-age=1`, as the real indexer's);
  // a page reloads when the feed says something changed, so it must not read the answer of a
  // moment before: every request revalidates.
  const indexer = createIndexerClient({
    baseUrl: config.endpoints.indexer,
    fetch: (input, init) => globalThis.fetch(input, { ...init, cache: "no-cache" }),
  });
  onConnection({ state: "connecting" });
  // A browser sees no protocol pings: the block-height feed keeps the socket from looking idle.
  const socket = await connectIndexerSocket({
    url: config.endpoints.indexerWs,
    idleTimeoutMs: 20_000,
    reconnect: { initialDelayMs: 250, maxDelayMs: 5_000 },
  });
  let cause = "closed";
  socket.on("disconnect", (event) => {
    cause = event.cause;
    onConnection({ state: "lost", attempt: 0, cause });
  });
  socket.on("reconnecting", ({ attempt }) => onConnection({ state: "lost", attempt: attempt + 1, cause }));
  socket.on("open", () => onConnection({ state: "open" }));
  onConnection({ state: "open" });

  let last: Height | undefined;
  const listeners = new Set<(height: Height) => void>();
  const publish = (height: Height) => {
    if (last !== undefined && height.height <= last.height) return;
    last = height;
    for (const listener of listeners) listener(height);
  };
  const heights = socket.subscribe("v4_block_height");
  heights.on("snapshot", ({ contents }) => publish({ height: BigInt(contents.height), time: contents.time }));
  heights.on("update", ({ contents }) =>
    publish({ height: BigInt(contents.blockHeight), time: contents.time }),
  );

  let markets:
    | { height: bigint | undefined; value: Promise<Readonly<Record<string, PerpetualMarketResponseObject>>> }
    | undefined;
  return {
    config,
    node,
    indexer,
    socket,
    height: () => last,
    onHeight: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    markets: () => {
      const height = last?.height;
      if (markets === undefined || markets.height !== height) {
        const value = indexer.getPerpetualMarkets({}).then((answer) => answer.markets);
        markets = { height, value };
        value.catch(() => {
          if (markets?.value === value) markets = undefined;
        });
      }
      return markets.value;
    },
  };
}
