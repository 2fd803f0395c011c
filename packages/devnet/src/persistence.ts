/**
 * `--state DIR` on disk. Two files, so that persisting a block costs the same at any chain length:
 *
 * - {@link STATE_FILE}: the application's snapshot (everything but the blocks) and the number N of
 *   blocks it follows, rewritten after every block through a temp file, fsync and rename;
 * - {@link BLOCK_LOG_FILE}: an append-only log with one framed record per block (length, checksum,
 *   the block's bytes).
 *
 * A block is persisted by appending (and fsyncing) its record first, then replacing the snapshot.
 * So whenever the process dies, the snapshot names N blocks and the log holds at least N valid
 * records: loading takes the first N and truncates whatever follows (a torn record, or the record
 * of a block whose snapshot was never written). Fewer than N valid records is corruption.
 */

import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
} from "node:fs";
import { join } from "node:path";
import { errorGuard, PerpxError, type PerpxErrorOptions } from "@perpx/errors";
import type { BlockArchive, ChainState, PersistentChainApp } from "./app/contract.js";
import { BinaryReader, BinaryWriter, bytesEqual, concatList, utf8 } from "./app/lib/codec.js";
import { removeAtomicTemps, writeFileAtomic } from "./atomic-file.js";
import { DevnetError } from "./devnet-error.js";
import {
  decodeRecords,
  encodeRecord,
  RECORD_HEADER_BYTES,
  readAllAt,
  readRecordAt,
  scanRecords,
  writeAllAt,
} from "./record-file.js";
import { TLS_FILES } from "./servers/tls.js";
import { lockStateDirectory, type StateLock } from "./state-lock.js";

/**
 * The snapshot file in the state directory: the chain's state except its blocks, and how many
 * blocks of {@link BLOCK_LOG_FILE} it follows.
 *
 * @example
 * ```ts
 * import { existsSync, mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * const devnet = await startDevnet({ ports: "free", stateDir });
 * await devnet.stop();
 * existsSync(join(stateDir, STATE_FILE)); // true
 * ```
 */
export const STATE_FILE = "state.bin";

/**
 * The append-only block log in the state directory: one framed record (length, checksum, bytes)
 * per block, from the first height on.
 *
 * @example
 * ```ts
 * import { existsSync, mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * const devnet = await startDevnet({ ports: "free", stateDir, blockTimeMs: 0 });
 * devnet.mine(2);
 * await devnet.stop();
 * existsSync(join(stateDir, BLOCK_LOG_FILE)); // true
 * ```
 */
export const BLOCK_LOG_FILE = "blocks.log";

const STATE_MAGIC = "perpx-devnet-state";
/** 1: one file holding the snapshot and every block (rewritten each block). 2: snapshot + block log. */
const STATE_VERSION = 2;
/** The first bytes of a block log (its format changes with {@link STATE_VERSION}). */
const LOG_HEADER = utf8("perpx-devnet-blocks\n");

/**
 * The state directory cannot be resumed from: a file is not a devnet state, was written by an
 * older format, or is corrupt. `file` names it; deleting the state directory starts a new chain.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * writeFileSync(join(stateDir, STATE_FILE), "not a devnet state");
 * try {
 *   await startDevnet({ ports: "free", stateDir });
 * } catch (error) {
 *   isDevnetStateError(error) && error.file; // join(stateDir, STATE_FILE)
 * }
 * ```
 */
export class DevnetStateError extends PerpxError {
  override name = "DevnetStateError";
  /** The path of the file that cannot be used. */
  readonly file: string;

  /**
   * @param file - the path of the unusable file.
   * @param problem - what is wrong with it.
   * @param options - cause and details.
   */
  constructor(file: string, problem: string, options: PerpxErrorOptions = {}) {
    super("DEVNET", `Cannot resume from ${file}: ${problem}`, options);
    this.file = file;
  }
}

/**
 * True when `value` is a {@link DevnetStateError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * writeFileSync(join(stateDir, STATE_FILE), "not json");
 * const error = await startDevnet({ ports: "free", stateDir }).catch((e: unknown) => e);
 * isDevnetStateError(error) && error.file; // join(stateDir, STATE_FILE)
 * ```
 */
export const isDevnetStateError = errorGuard<DevnetStateError>("DevnetStateError");

export { decodeRecords, encodeRecord } from "./record-file.js";

/** The snapshot file: magic, version, then one record holding N (uvarint) and the app's snapshot. */
function encodeStateFile(blockCount: number, snapshot: Uint8Array): Uint8Array {
  const head = new BinaryWriter(64).string(STATE_MAGIC).uvarint(STATE_VERSION).finish();
  const body = new BinaryWriter(snapshot.length + 16).uvarint(blockCount).raw(snapshot).finish();
  return concatList([head, encodeRecord(body)]);
}

function decodeStateFile(path: string, bytes: Uint8Array): { blockCount: number; snapshot: Uint8Array } {
  const r = new BinaryReader(bytes);
  let version: number;
  try {
    if (r.string() !== STATE_MAGIC) throw new RangeError("bad magic");
    version = r.uint();
  } catch {
    throw new DevnetStateError(path, "it is not a perpx devnet state file");
  }
  if (version === 1) {
    throw new DevnetStateError(
      path,
      "it was written by an older devnet (state format 1, one file holding every block); delete the state directory to start a new chain",
    );
  }
  if (version !== STATE_VERSION) {
    throw new DevnetStateError(
      path,
      `it is in state format ${version}; this devnet reads format ${STATE_VERSION}`,
    );
  }
  const rest = r.view(r.position, bytes.length);
  const { records, end } = decodeRecords(rest, 1);
  const body = records[0];
  if (body === undefined || end !== rest.length) {
    throw new DevnetStateError(path, "the snapshot is truncated or fails its checksum");
  }
  const br = new BinaryReader(body);
  const blockCount = br.uint();
  return { blockCount, snapshot: br.view(br.position, body.length) };
}

/** The file's bytes as a plain `Uint8Array` (no `Buffer` semantics leak into the chain), if it exists. */
function readIfExists(path: string): Uint8Array | undefined {
  try {
    const buffer = readFileSync(path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Without a snapshot, a block log holding blocks past the genesis block is a chain whose
 * {@link STATE_FILE} was deleted or lost: starting a new chain would cut that log, so it is refused.
 * A log of at most the genesis block is what a run killed before its first snapshot leaves (nothing
 * was served yet): a new chain replaces it.
 */
function refuseOrphanLog(statePath: string, logPath: string): void {
  const log = openLog(logPath);
  if (log === undefined) return;
  let count: number;
  try {
    if (!log.headed || scanRecords(log.fd, LOG_HEADER.length, log.size, 2).payloadStarts.length < 2) return;
    count = scanRecords(log.fd, LOG_HEADER.length, log.size).payloadStarts.length;
  } finally {
    closeSync(log.fd);
  }
  throw new DevnetStateError(
    statePath,
    `it is missing, but ${logPath} holds ${count} blocks of a chain; starting a new chain would cut that log`,
    {
      details: `restore ${statePath} (from a backup of the state directory), or delete ${logPath} (or the whole state directory) to start a new chain`,
    },
  );
}

/** Opens the block log for reading and writing, with its size and whether it starts with the log header. */
function openLog(path: string): { fd: number; size: number; headed: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const head = new Uint8Array(LOG_HEADER.length);
    if (size < head.length) return { fd, size, headed: false };
    readAllAt(fd, head, 0);
    return { fd, size, headed: bytesEqual(head, LOG_HEADER) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Options of {@link StateDirectory.open}.
 *
 * @example
 * ```ts
 * const store = StateDirectory.open(".devnet", { keepRecent: 1000 });
 * ```
 */
export interface StateDirectoryOptions {
  /**
   * How many of the latest blocks {@link StateDirectory.resumed} holds (the application's pruning
   * window); the others stay on disk, read through {@link StateDirectory.readBlock}. 0: every
   * block. @default 0
   */
  keepRecent?: number;
}

/**
 * A state directory open for a run: what it resumes from, the writer of every block after, and the
 * reader of any block of the log (the application's {@link BlockArchive}). `open` takes the
 * directory's lock, removes temp files a killed run left, reads the snapshot and checks the first N
 * records of the log, and truncates the log after them; without a snapshot it starts a new, empty
 * log.
 */
export class StateDirectory implements BlockArchive {
  private closed = false;
  #resumed: ChainState | undefined;

  private constructor(
    /** The directory. */
    readonly dir: string,
    resumed: ChainState | undefined,
    private readonly fd: number,
    /** Byte offset after the last valid record of the log. */
    private end: number,
    /** The byte offset of each record's payload in the log (one number per block). */
    private readonly payloadStarts: number[],
    private readonly lock: StateLock,
  ) {
    this.#resumed = resumed;
  }

  /** The state to resume from (undefined for a new chain), until {@link forgetResumed}. */
  get resumed(): ChainState | undefined {
    return this.#resumed;
  }

  /** Drops the reference to the resumed state once the application holds it (it may be large). */
  forgetResumed(): void {
    this.#resumed = undefined;
  }

  /** Number of records (blocks) in the log. */
  private get count(): number {
    return this.payloadStarts.length;
  }

  /**
   * Opens (creating it when needed) a state directory.
   *
   * @throws {DevnetStateError} when the snapshot or the log cannot be used.
   */
  static open(dir: string, options: StateDirectoryOptions = {}): StateDirectory {
    const keepRecent = options.keepRecent ?? 0;
    if (!Number.isSafeInteger(keepRecent) || keepRecent < 0) {
      throw new DevnetError("out-of-range", `keepRecent must be a non-negative integer, got ${keepRecent}`);
    }
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
      throw new DevnetStateError(dir, "it is not a directory (a file is in the way)", { cause: error });
    }
    const lock = lockStateDirectory(dir);
    try {
      return StateDirectory.openLocked(dir, lock, keepRecent);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static openLocked(dir: string, lock: StateLock, keepRecent: number): StateDirectory {
    removeAtomicTemps(dir, [STATE_FILE, BLOCK_LOG_FILE, TLS_FILES.cert, TLS_FILES.key]);
    const statePath = join(dir, STATE_FILE);
    const logPath = join(dir, BLOCK_LOG_FILE);
    const stateBytes = readIfExists(statePath);
    if (stateBytes === undefined) {
      refuseOrphanLog(statePath, logPath);
      writeFileAtomic(logPath, LOG_HEADER);
      return new StateDirectory(dir, undefined, openSync(logPath, "r+"), LOG_HEADER.length, [], lock);
    }
    const { blockCount, snapshot } = decodeStateFile(statePath, stateBytes);
    const corrupt = (problem: string) =>
      new DevnetStateError(
        logPath,
        `${problem}, but ${STATE_FILE} follows ${blockCount} blocks; the state is corrupt (delete the state directory to start a new chain)`,
      );
    const log = openLog(logPath);
    if (log === undefined) throw corrupt("the block log is missing");
    const { fd } = log;
    try {
      if (!log.headed) throw corrupt("it is not a block log");
      const { payloadStarts, end } = scanRecords(fd, LOG_HEADER.length, log.size, blockCount);
      if (payloadStarts.length < blockCount) throw corrupt(`it holds ${payloadStarts.length} valid blocks`);
      if (end < log.size) {
        ftruncateSync(fd, end);
        fdatasyncSync(fd);
      }
      // Only the blocks to keep in memory are read; the others stay in the log (see readBlock).
      const keep = keepRecent === 0 ? blockCount : Math.min(blockCount, keepRecent);
      const blocks = payloadStarts.slice(blockCount - keep).map((start, i) => {
        const payload = readRecordAt(fd, start);
        if (payload === undefined) throw corrupt(`block ${blockCount - keep + i} changed while it was read`);
        return payload;
      });
      const resumed: ChainState = { snapshot: snapshot.slice(), blocks, skipped: blockCount - keep };
      return new StateDirectory(dir, resumed, fd, end, payloadStarts, lock);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Persists `app` after its latest block: appends (and fsyncs) every block not yet in the log,
   * then atomically replaces the snapshot. Its cost does not depend on the chain's length.
   */
  persist(app: Pick<PersistentChainApp, "info" | "latestBlock" | "exportBlock" | "exportSnapshot">): void {
    if (this.closed) throw new DevnetError("unavailable", `the state directory ${this.dir} is closed`);
    const first = app.info.initialHeight;
    const blockCount = Number(app.latestBlock().height - first) + 1;
    if (blockCount < this.count) {
      throw new DevnetError(
        "unusable-snapshot",
        `the chain has ${blockCount} blocks, but the block log already holds ${this.count}`,
      );
    }
    if (blockCount > this.count) {
      const records: Uint8Array[] = [];
      for (let height = first + BigInt(this.count); height < first + BigInt(blockCount); height++) {
        const block = app.exportBlock(height);
        if (block === undefined)
          throw new DevnetError("no-block", `the chain has no block at height ${height}`);
        records.push(encodeRecord(block));
      }
      const bytes = concatList(records);
      // Written at the known end: whatever a failed earlier append left there is overwritten.
      writeAllAt(this.fd, bytes, this.end);
      fdatasyncSync(this.fd);
      for (const record of records) {
        this.payloadStarts.push(this.end + RECORD_HEADER_BYTES);
        this.end += record.length;
      }
    }
    writeFileAtomic(join(this.dir, STATE_FILE), encodeStateFile(blockCount, app.exportSnapshot()));
  }

  /**
   * The bytes of the log's `index`-th block (0: the chain's first), read from disk and checked
   * against their checksum; undefined past the last persisted block.
   *
   * @throws {DevnetStateError} when the record no longer matches its checksum.
   */
  readBlock(index: number): Uint8Array | undefined {
    if (this.closed) throw new DevnetError("unavailable", `the state directory ${this.dir} is closed`);
    const start = this.payloadStarts[index];
    if (start === undefined) return undefined;
    const payload = readRecordAt(this.fd, start);
    if (payload === undefined) {
      throw new DevnetStateError(join(this.dir, BLOCK_LOG_FILE), `block ${index} fails its checksum`);
    }
    return payload;
  }

  /** Closes the block log and releases the directory's lock; `persist` is refused afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } finally {
      this.lock.release();
    }
  }
}
