import { InvalidArgumentError } from "@perpx/errors";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import type { CallOptions } from "../transport/call.js";
import type { LatestBlock } from "./chain.js";

/**
 * Parameters of {@link watchBlocks}; `timeoutMs` and `signal` bound the wait for the subscription.
 * @example
 * ```ts
 * const params: WatchBlocksParams = { onBlock: (block) => console.log(block.height) };
 * ```
 */
export interface WatchBlocksParams extends CallOptions {
  /** Called with each new block, in order; what it throws goes to `onError` and the watch goes on. */
  onBlock: (block: LatestBlock) => void;
  /** Called with what `onBlock` threw, and once with the error that ends the subscription. */
  onError?: (error: unknown) => void;
}

interface HeaderEvent {
  value?: { header?: { height?: string; time?: string; chain_id?: string } };
}

function blockOf(data: unknown): LatestBlock {
  const header = (data as HeaderEvent).value?.header;
  const time = header?.time === undefined ? Number.NaN : Date.parse(header.time);
  if (!header?.height || !/^\d+$/.test(header.height) || Number.isNaN(time)) {
    throw new QueryError({
      path: "tm.event='NewBlockHeader'",
      transport: "rpc",
      log: "a header event without height or time",
    });
  }
  return { height: BigInt(header.height), time: new Date(time), chainId: header.chain_id ?? "" };
}

/**
 * Streams new blocks over a WebSocket RPC (`nodeRpc: "ws://..."`); `client.close()` also stops it.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `onBlock` and `onError` (`WatchBlocksParams`).
 * @returns once the node accepted the subscription, the function that stops it.
 * @throws {InvalidArgumentError} when the client's RPC is not a WebSocket.
 * @throws {TransportError} when the socket cannot be opened.
 * @throws `TimeoutError` / `AbortedError` past `timeoutMs` / on `signal`: nothing is left subscribed.
 * @example
 * ```ts
 * const client = createNodeClient({ nodeRpc: (process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657").replace(/^http/, "ws") });
 * const height = await new Promise<bigint>((resolve) => {
 *   void watchBlocks(client, { onBlock: (block) => resolve(block.height) });
 * });
 * height > 0n; // true
 * client.close(); // ends the subscription and the socket
 * ```
 */
export async function watchBlocks(client: NodeConnection, params: WatchBlocksParams): Promise<() => void> {
  const socket = client.rpc?.webSocket;
  if (!socket) {
    throw new InvalidArgumentError("nodeRpc", "watching blocks needs a ws:// or wss:// nodeRpc address");
  }
  if (typeof params?.onBlock !== "function") {
    throw new InvalidArgumentError("onBlock", "must be a function");
  }
  const onError = params.onError ?? (() => {});
  let failed = false;
  let stop: () => void = () => {};
  stop = await socket.subscribe({
    query: "tm.event='NewBlockHeader'",
    timeoutMs: params.timeoutMs ?? client.timeoutMs,
    ...(params.signal === undefined ? {} : { signal: params.signal }),
    onEvent: (data) => {
      if (failed) return;
      let block: LatestBlock;
      try {
        block = blockOf(data);
      } catch (error) {
        failed = true;
        stop();
        onError(error);
        return;
      }
      try {
        params.onBlock(block);
      } catch (thrown) {
        onError(thrown);
      }
    },
    onError: (error) => {
      if (failed) return;
      failed = true;
      onError(error);
    },
  });
  return () => {
    failed = true;
    stop();
  };
}
