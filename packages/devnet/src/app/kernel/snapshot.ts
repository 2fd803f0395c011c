/**
 * The snapshot format: every bit of state needed to resume after the latest block except the blocks
 * themselves, as deterministic bytes. A header (magic, version, profile, genesis time), then the
 * block count, the clock offset, the app hash, the genesis document, the events queued for the next
 * block and the committed store. Volatile keys (a real node's in-memory state) are not in it.
 */
import { DevnetError } from "../../devnet-error.js";
import type { ChainState, DevnetProfile } from "../contract.js";
import { decodeIndexerEvents, encodeIndexerEvents } from "../indexer-output/indexer-events-codec.js";
import { decodeBlock, readEvents, writeEvents } from "../lib/block-codec.js";
import { BinaryReader, BinaryWriter } from "../lib/codec.js";
import { type ChainCore, queryContext } from "./chain-core.js";
import { RootStore } from "./store.js";
import { volatileKeys } from "./volatile-keys.js";

const SNAPSHOT_MAGIC = "perpx-devnet-snapshot";
const SNAPSHOT_VERSION = 1;

/**
 * Reads a snapshot's header and checks it is a devnet snapshot of this version and of `profile`.
 * Returns the chain's genesis time; `r` is left at the snapshot's body.
 */
export function readSnapshotHeader(r: BinaryReader, profile: DevnetProfile): Date {
  let header: [string, number] | undefined;
  try {
    header = [r.string(), r.uint()];
  } catch {
    // Not even a header: reported below like any other foreign bytes.
  }
  if (header?.[0] !== SNAPSHOT_MAGIC || header[1] !== SNAPSHOT_VERSION) {
    throw new DevnetError("unusable-snapshot", "not a perpx devnet snapshot (or of another version)");
  }
  const written = r.string() as DevnetProfile;
  if (written !== profile) {
    throw new DevnetError("unusable-snapshot", `the state is of profile "${written}", not "${profile}"`);
  }
  return new Date(Number(r.svarint()));
}

/** The snapshot of the chain after its latest block (see the module comment). */
export function writeSnapshot(core: ChainCore): Uint8Array {
  const w = new BinaryWriter();
  w.string(SNAPSHOT_MAGIC).uvarint(SNAPSHOT_VERSION).string(core.config.profile);
  w.svarint(BigInt(core.config.genesisTime.getTime()));
  w.uvarint(core.blocks.count);
  w.svarint(core.timeOffsetMs);
  w.bytes(core.lastAppHash);
  w.string(core.genesisDoc());
  writeEvents(w, core.pendingEvents);
  core.root.writeTo(w);
  // The indexer events queued for the next block (absent from snapshots written before them).
  w.string(encodeIndexerEvents(core.pendingIndexerEvents));
  return w.finish();
}

/**
 * Restores the chain from a snapshot's body (its header already read by
 * {@link readSnapshotHeader}) and the blocks it follows, then lets each module rebuild its
 * in-memory state.
 */
export function restoreSnapshot(core: ChainCore, r: BinaryReader, state: ChainState): void {
  const count = r.uint();
  const skipped = state.skipped ?? 0;
  if (skipped + state.blocks.length !== count) {
    throw new DevnetError(
      "unusable-snapshot",
      `the snapshot follows ${count} blocks, but ${skipped + state.blocks.length} were given (${skipped} skipped)`,
    );
  }
  core.timeOffsetMs = r.svarint();
  core.lastAppHash = r.bytes().slice();
  const genesisDoc = r.string();
  core.genesisDoc = () => genesisDoc;
  core.pendingEvents = readEvents(r);
  core.root = RootStore.readFrom(r, volatileKeys(core.set.modules));
  core.root.track(core.versions);
  core.pendingIndexerEvents = r.done ? [] : decodeIndexerEvents(r.string());
  let height = core.config.initialHeight + BigInt(skipped);
  if (skipped > 0) core.blocks.skip(core.config.initialHeight, skipped);
  for (const chunk of state.blocks) {
    const record = decodeBlock(new BinaryReader(chunk));
    if (record.height !== height) {
      throw new DevnetError(
        "unusable-snapshot",
        `block ${core.blocks.count} of the state is at height ${record.height}, not ${height}`,
      );
    }
    core.blocks.add(record);
    height++;
  }
  if (core.blocks.count === 0) throw new DevnetError("unusable-snapshot", "the state holds no block");
  core.versions.reset(core.blocks.latest().height);
  const ctx = queryContext(core);
  for (const module of core.set.modules) module.afterRestore?.(ctx);
}
