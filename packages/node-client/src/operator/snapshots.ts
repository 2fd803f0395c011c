import { STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { checkParams } from "../messages/validate.js";

/**
 * A node snapshot archive named `<network>_<timestamp>_block-<height>.tar.lz4`.
 *
 * @example
 * ```ts
 * const { network, height }: SnapshotName = parseSnapshotName("mainnet_20250301-120000_block-12960191.tar.lz4")!;
 * [network, height]; // ["mainnet", 12960191n]
 * ```
 */
export interface SnapshotName {
  /** The file name as given. */
  name: string;
  /** The network part, e.g. `mainnet`. */
  network: string;
  /** The timestamp part (it sorts lexicographically). */
  timestamp: string;
  /** The block height of the snapshot. */
  height: bigint;
}

const SNAPSHOT = /^([^_/\\]+)_([^_/\\]+)_block-(\d+)\.tar\.lz4$/;

/**
 * Parses a snapshot file name (a path or URL is accepted; its last segment is used).
 *
 * @param name - the file name, path or URL.
 * @returns the parts, or `undefined` when the name does not follow the pattern.
 *
 * @example
 * ```ts
 * parseSnapshotName("mainnet_20250301-120000_block-12960191.tar.lz4");
 * // { network: "mainnet", timestamp: "20250301-120000", height: 12960191n, ... }
 * ```
 */
export function parseSnapshotName(name: string): SnapshotName | undefined {
  const base = name.split(/[/\\]/).pop() ?? "";
  const match = SNAPSHOT.exec(base);
  if (!match) return undefined;
  return { name, network: match[1]!, timestamp: match[2]!, height: BigInt(match[3]!) };
}

/**
 * Options of {@link newestSnapshot}.
 *
 * @example
 * ```ts
 * const names = ["mainnet_20250301-120000_block-12960191.tar.lz4", "mainnet_20250302-120000_block-13000000.tar.lz4", "testnet_20250303-120000_block-900.tar.lz4"];
 * const options: NewestSnapshotOptions = { network: "mainnet" };
 * newestSnapshot(names, options)?.height; // 13000000n
 * ```
 */
export interface NewestSnapshotOptions {
  /**
   * Only snapshots of this network.
   * @default undefined (any network)
   */
  network?: string;
}

/**
 * Picks the newest snapshot of a listing: the greatest timestamp (they sort lexicographically),
 * then the greatest height. Names that do not follow the pattern are ignored.
 *
 * @param names - file names of a snapshot listing.
 * @param options - `network`: keep only that network's snapshots (any network by default).
 * @returns the newest, or `undefined` when none matches.
 *
 * @example
 * ```ts
 * const names = ["mainnet_20250301-120000_block-12960191.tar.lz4", "mainnet_20250302-120000_block-13000000.tar.lz4", "testnet_20250303-120000_block-900.tar.lz4"];
 * newestSnapshot(names)?.network; // "testnet": the greatest timestamp of any network
 * newestSnapshot(names, { network: "testnet" })?.height; // 900n
 * ```
 */
export function newestSnapshot(
  names: Iterable<string>,
  options: NewestSnapshotOptions = {},
): SnapshotName | undefined {
  checkParams(options, "newestSnapshot", true);
  let best: SnapshotName | undefined;
  for (const name of names) {
    const parsed = parseSnapshotName(name);
    if (!parsed || (options.network !== undefined && parsed.network !== options.network)) continue;
    if (
      !best ||
      parsed.timestamp > best.timestamp ||
      (parsed.timestamp === best.timestamp && parsed.height > best.height)
    ) {
      best = parsed;
    }
  }
  return best;
}

/**
 * Parameters of {@link latestSnapshotHeight}.
 *
 * @example
 * ```ts
 * const params: LatestSnapshotParams = { height: 12_960_191n, intervalBlocks: 2000 };
 * ```
 */
export interface LatestSnapshotParams {
  /** The height to look at or below. */
  height: bigint | number;
  /**
   * The snapshot interval, in blocks.
   * @default 2000 (`STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS` of `@perpx/core`)
   */
  intervalBlocks?: number;
}

/**
 * The height of the latest state-sync snapshot at or below `height` (a multiple of the interval).
 *
 * @param params - see `LatestSnapshotParams`: each field is documented there.
 * @returns the snapshot's height, a multiple of the interval at most `height`; throws
 *   `InvalidArgumentError` for a negative height or an interval that is not a positive integer.
 * @example
 * ```ts
 * latestSnapshotHeight({ height: 12_960_191n }); // 12960000n
 * ```
 */
export function latestSnapshotHeight(params: LatestSnapshotParams): bigint {
  const { height, intervalBlocks = STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS } = params;
  const h = BigInt(height);
  if (h < 0n) throw new InvalidArgumentError("height", "must not be negative");
  if (!Number.isInteger(intervalBlocks) || intervalBlocks <= 0) {
    throw new InvalidArgumentError("intervalBlocks", "must be a positive integer");
  }
  const interval = BigInt(intervalBlocks);
  return (h / interval) * interval;
}

/**
 * What a node that joined by state sync cannot serve: it holds no blocks below its sync height,
 * so none of this works for heights (or transactions) below it.
 *
 * @example
 * ```ts
 * STATE_SYNCED_NODE_CANNOT_SERVE.includes("tx_search"); // true
 * ```
 */
export const STATE_SYNCED_NODE_CANNOT_SERVE = [
  "block",
  "block_results",
  "commit",
  "validators",
  "tx",
  "tx_search",
  "block_search",
  "abci_query at a height",
  "GetTx",
  "GetTxsEvent",
  "GetBlockByHeight",
] as const;

/**
 * True when a node that state-synced at `syncHeight` can serve data of `height` (blocks, txs,
 * historical queries): only at or above its sync height.
 *
 * @param params - the height the node state-synced at and the height asked for.
 * @returns `true` for heights at or above the sync height, `false` below it.
 * @example
 * ```ts
 * canServeHeight({ syncHeight: 12_960_000n, height: 12_000_000n }); // false
 * ```
 */
export function canServeHeight(params: { syncHeight: bigint | number; height: bigint | number }): boolean {
  checkParams(params, "canServeHeight");
  return BigInt(params.height) >= BigInt(params.syncHeight);
}
