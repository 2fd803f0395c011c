/**
 * Opening an indexer connection: options checked first, the WebSocket constructor loaded on first
 * use, and the promise settled at the server's `connected`.
 */
import { loadWebSocket } from "#ws-platform";
import { IndexerSocket, MAX_FRAME_BYTES } from "./connection.js";
import { checkSocketOptions, type IndexerSocketOptions } from "./options.js";

/**
 * Connects to an indexer's WebSocket and resolves once the server says `connected`.
 *
 * @param options - the URL, an optional `WebSocket` constructor, heartbeat and reconnect policy.
 * @returns the connection.
 * @throws {InvalidArgumentError} for a bad option, before anything is opened.
 * @throws {WebSocketClosedError} when the first connection fails.
 * @throws {TimeoutError} when it takes longer than `connectTimeoutMs`.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const heights = socket.subscribe("v4_block_height");
 * BigInt((await heights.ready()).height) > 0n; // true
 * await socket.close();
 * socket.closed; // true
 * ```
 */
export async function connectIndexerSocket(options: IndexerSocketOptions): Promise<IndexerSocket> {
  checkSocketOptions(options);
  const Socket = options.WebSocket ?? (await loadWebSocket(options.maxFrameBytes ?? MAX_FRAME_BYTES));
  const socket = new IndexerSocket(options, Socket);
  await socket.start();
  return socket;
}
