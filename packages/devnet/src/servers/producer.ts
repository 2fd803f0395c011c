/**
 * Block production: a block every `blockTimeMs` (a timer that re-arms after each block, so a slow
 * block never overlaps the next) and on demand (`mine`). Block times come from the wall clock; the
 * application shifts them by any time advanced through its control and keeps them increasing.
 */

import type { BlockRecord, ChainApp } from "../app/contract.js";
import { DevnetError } from "../devnet-error.js";

/**
 * Options of {@link BlockProducer}.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const producer = new BlockProducer(app, { blockTimeMs: 0, onError: (error) => console.error(error) });
 * const before = app.latestBlock().height;
 * producer.mine(2);
 * app.latestBlock().height - before; // 2n
 * await devnet.stop();
 * ```
 */
export interface BlockProducerOptions {
  /** Milliseconds between blocks; 0 produces blocks only on demand. @default 1000 */
  blockTimeMs?: number;
  /** Called when producing a block throws (the producer keeps going). */
  onError?: (error: unknown) => void;
  /** The clock. @default Date.now */
  now?: () => number;
}

/**
 * Produces the blocks of a chain application.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const producer = new BlockProducer(app, { blockTimeMs: 100 });
 * const before = app.latestBlock().height;
 * producer.start();
 * producer.mine(5);
 * app.latestBlock().height - before >= 5n; // true
 * producer.setBlockTimeMs(0); // on demand only
 * producer.stop();
 * await devnet.stop();
 * ```
 */
export class BlockProducer {
  readonly #app: ChainApp;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  #blockTimeMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  /**
   * @param app - the chain application.
   * @param options - block time, error handler and clock.
   */
  constructor(app: ChainApp, options: BlockProducerOptions = {}) {
    this.#app = app;
    this.#blockTimeMs = validateBlockTime(options.blockTimeMs ?? 1000);
    this.#onError = options.onError ?? (() => undefined);
    this.#now = options.now ?? Date.now;
  }

  /** Milliseconds between blocks (0: on demand only). */
  get blockTimeMs(): number {
    return this.#blockTimeMs;
  }

  /** Whether the interval is running. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * The wall time the next block would be requested at.
   *
   * @returns unix milliseconds, from the clock the producer was given.
   */
  now(): number {
    return this.#now();
  }

  /** Starts producing blocks on the interval. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#arm();
  }

  /** Stops the interval (blocks can still be mined on demand). */
  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Changes the interval; takes effect at once (the next block comes `ms` from now).
   * @param ms - milliseconds between blocks, 0 for on demand only.
   */
  setBlockTimeMs(ms: number): void {
    this.#blockTimeMs = validateBlockTime(ms);
    if (this.#running) {
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#arm();
    }
  }

  /**
   * Produces `count` blocks now, one after the other.
   * @param count - how many blocks.
   * @returns the blocks produced.
   */
  mine(count = 1): BlockRecord[] {
    if (!Number.isSafeInteger(count) || count < 1)
      throw new DevnetError("invalid-argument", `count must be a positive integer, got ${count}`);
    const blocks: BlockRecord[] = [];
    for (let i = 0; i < count; i++) blocks.push(this.#produce());
    return blocks;
  }

  #produce(): BlockRecord {
    return this.#app.produceBlock(new Date(this.#now()));
  }

  #arm(): void {
    this.#timer = undefined;
    if (!this.#running || this.#blockTimeMs === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.#produce();
      } catch (error) {
        this.#onError(error);
      }
      this.#arm();
    }, this.#blockTimeMs);
  }
}

/**
 * The longest block time, in ms (24.8 days): the longest a Node.js timer waits. A longer delay
 * would fire after 1 ms (Node's `TimeoutOverflowWarning`), a block every millisecond.
 */
export const MAX_BLOCK_TIME_MS = 2_147_483_647;

/**
 * Checks a block time: an integer from 0 (on demand only) to {@link MAX_BLOCK_TIME_MS}.
 *
 * @param ms - milliseconds between blocks.
 * @param name - the option's name, for the error.
 * @returns `ms`.
 * @throws {DevnetError} `invalid-argument` naming the option and the value otherwise.
 */
export function validateBlockTime(ms: number, name = "blockTimeMs"): number {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_BLOCK_TIME_MS)
    throw new DevnetError(
      "invalid-argument",
      `${name} must be an integer from 0 to ${MAX_BLOCK_TIME_MS}, got ${ms}`,
    );
  return ms;
}
