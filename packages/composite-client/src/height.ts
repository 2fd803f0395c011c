import { checkDelayMs, type LongTimeout, setLongTimeout } from "@perpx/core";
import type { NodeClient } from "@perpx/node-client";
import { watchBlocks } from "@perpx/node-client/queries";

/**
 * The chain height, kept live in the background: a block subscription when the node client has a
 * WebSocket RPC (polled while the subscription is down, and subscribed again once the node
 * answers), else a poll of the latest block. Reading it makes no network call.
 *
 * @example
 * ```ts
 * const height = await startHeightTracker({ node, pollIntervalMs: 500 });
 * height.current() > 0n; // true
 * height.stop();
 * ```
 */
export interface HeightTracker {
  /** The latest height seen. */
  current(): bigint;
  /** The latest block seen: its height and time. */
  latest(): { height: bigint; time: Date };
  /** Records a block seen elsewhere (the indexer's `v4_block_height` feed); older ones are ignored. */
  observe(block: { height: bigint; time: Date }): void;
  /** Resolves once a height above `height` is seen. */
  waitAbove(height: bigint): Promise<bigint>;
  /** Stops the subscription or the poll. */
  stop(): void;
}

/**
 * Options of {@link startHeightTracker}.
 *
 * @example
 * ```ts
 * const options: HeightTrackerOptions = { node, pollIntervalMs: 250 };
 * ```
 */
export interface HeightTrackerOptions {
  /** The node client to follow. */
  node: NodeClient;
  /**
   * How often to poll when there is no block subscription, ms.
   * @default 500
   */
  pollIntervalMs?: number;
  /**
   * Skips a poll while it answers true (a live feed reports the blocks instead).
   * @default never skipped
   */
  skipPoll?: () => boolean;
}

/**
 * Starts following the chain height; resolves once the first height is known.
 *
 * @param options - the node client and the poll interval (see `HeightTrackerOptions`).
 * @returns resolves with the tracker once it knows a height.
 * @throws {InvalidArgumentError} naming `pollIntervalMs` unless it is a positive number.
 * @throws {TransportError | QueryError} when the node does not answer the first query.
 *
 * @example
 * ```ts
 * const height = await startHeightTracker({ node });
 * ```
 */
export async function startHeightTracker(options: HeightTrackerOptions): Promise<HeightTracker> {
  const { node } = options;
  const intervalMs = checkDelayMs(options.pollIntervalMs ?? 500, "pollIntervalMs");
  const first = await node.getLatestBlock();
  let height = first.height;
  let time = first.time;
  const waiters = new Set<{ above: bigint; resolve: (h: bigint) => void }>();
  const seen = (block: { height: bigint; time: Date }) => {
    if (block.height <= height) return;
    height = block.height;
    time = block.time;
    for (const waiter of waiters) {
      if (height > waiter.above) {
        waiters.delete(waiter);
        waiter.resolve(height);
      }
    }
  };
  let running = true;
  let timer: LongTimeout | undefined;
  let unsubscribe: (() => void) | undefined;
  // The block subscription, when the node client has a WebSocket RPC; while it is down (the node
  // dropped the socket, or restarted), the poll keeps the height and subscribes again once the node
  // answers.
  const subscribe = async () => {
    let failed = false;
    const stop = await watchBlocks(node, {
      onBlock: seen,
      onError: () => {
        failed = true;
        unsubscribe = undefined;
        if (running && timer === undefined) timer = setLongTimeout(poll, intervalMs);
      },
    });
    if (running && !failed) unsubscribe = stop;
    else stop();
  };
  const poll = async () => {
    try {
      if (!options.skipPoll?.()) seen(await node.getLatestBlock());
      if (node.rpc?.webSocket && unsubscribe === undefined && running) await subscribe();
    } catch {
      // A missed poll is retried at the next tick; the last height stays valid meanwhile.
    }
    timer = running && unsubscribe === undefined ? setLongTimeout(poll, intervalMs) : undefined;
  };
  if (node.rpc?.webSocket) await subscribe();
  else timer = setLongTimeout(poll, intervalMs);
  const stop = () => {
    running = false;
    timer?.clear();
    unsubscribe?.();
  };
  return {
    current: () => height,
    latest: () => ({ height, time }),
    observe: seen,
    waitAbove: (above) =>
      height > above ? Promise.resolve(height) : new Promise((resolve) => waiters.add({ above, resolve })),
    stop,
  };
}
