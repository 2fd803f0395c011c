/**
 * The committed state's recent versions, as a real node's state pruning keeps them (`pruning
 * keep-recent`): a query asked at one of the last versions reads the state as that block left it,
 * and an older one gets the store's "version does not exist".
 *
 * Only the changes are kept: for each block, the value every committed key had before the block
 * changed it. A version is the latest state with the newer blocks' changes undone.
 */
import { CacheStore, type KvStore, type WriteJournal } from "./store.js";

/**
 * Writes of committed keys in order: each key with the value it replaced (`null`: the key was
 * absent). A key's first write holds the value it had before them all; later ones add nothing.
 * Kept as lists (a root store's write is one push each) and sorted out when a version is read.
 */
interface Changes {
  readonly keys: string[];
  readonly olds: (Uint8Array | null)[];
}

/** The changes a block made, and the block's height. */
interface Undo {
  readonly height: bigint;
  readonly before: Changes;
}

const noChanges = (): Changes => ({ keys: [], olds: [] });

/** Each key's first entry of `changes`, in order. */
function firstOfEach(changes: Changes): Map<string, Uint8Array | null> {
  const first = new Map<string, Uint8Array | null>();
  changes.keys.forEach((key, i) => {
    if (!first.has(key)) first.set(key, changes.olds[i] as Uint8Array | null);
  });
  return first;
}

/**
 * Length at which the open changes drop their repeated keys (a key written again and again between
 * blocks, by control operations): a block writes each key once and stays below it.
 */
const COMPACT_AT = 1 << 16;

/**
 * The undo log of the latest versions (see the module comment). The root store reports every write
 * of a committed key to {@link changed}; a block's writes go between {@link amendLatest} and
 * {@link commit}.
 *
 * @example
 * ```ts
 * const versions = new StateVersions(100);
 * const root = new RootStore();
 * root.track(versions);
 * root.set("k", new Uint8Array([1]));
 * versions.commit(1n);
 * versions.amendLatest();
 * root.set("k", new Uint8Array([2]));
 * versions.commit(2n);
 * versions.at(root, 1n)?.get("k")?.[0]; // 1
 * ```
 */
export class StateVersions implements WriteJournal {
  /** The values replaced since the latest version. */
  private open = noChanges();
  /** Length of {@link open} at which its repeated keys are dropped. */
  private compactAt: number;
  /** Per kept block after the oldest version, oldest first. */
  private readonly undo: Undo[] = [];
  private latestHeight: bigint | undefined;
  /** Moves on every write, so a cached view is never stale. */
  private stamp = 0;
  private view: { height: bigint; stamp: number; store: KvStore } | undefined;

  /**
   * @param keep - how many versions stay readable, the latest included; 0 keeps every version.
   * @param compactFrom - length of the open changes at which their repeated keys are dropped
   *   (tests lower it).
   */
  constructor(
    private readonly keep: number,
    private readonly compactFrom = COMPACT_AT,
  ) {
    this.compactAt = compactFrom;
  }

  changed(key: string, old: Uint8Array | undefined): void {
    this.stamp++;
    const open = this.open;
    open.keys.push(key);
    open.olds.push(old ?? null);
    if (open.keys.length >= this.compactAt) {
      const first = firstOfEach(open);
      this.open = { keys: [...first.keys()], olds: [...first.values()] };
      this.compactAt = Math.max(this.compactFrom, 2 * first.size);
    }
  }

  /**
   * Folds the writes made since the latest commit into the latest version: the devnet's control
   * operations (a faucet grant, a price set) amend the latest state, as a query at the latest height
   * already reads them. Call it before a block's writes reach the store.
   */
  amendLatest(): void {
    const latest = this.undo.at(-1);
    // After the latest block's own changes: a key it changed keeps the value it had before it.
    if (latest !== undefined) {
      this.open.keys.forEach((key, i) => {
        latest.before.keys.push(key);
        latest.before.olds.push(this.open.olds[i] as Uint8Array | null);
      });
    }
    this.open = noChanges();
    this.compactAt = this.compactFrom;
    this.stamp++;
  }

  /** Seals the writes since {@link amendLatest} as the change that made version `height`. */
  commit(height: bigint): void {
    if (this.latestHeight !== undefined) this.undo.push({ height, before: this.open });
    this.open = noChanges();
    this.compactAt = this.compactFrom;
    this.latestHeight = height;
    this.stamp++;
    if (this.keep > 0) {
      while (this.undo.length > this.keep - 1) this.undo.shift();
    }
  }

  /** Forgets every version but the current state, which becomes version `height` (a restored snapshot). */
  reset(height: bigint): void {
    this.undo.length = 0;
    this.open = noChanges();
    this.compactAt = this.compactFrom;
    this.latestHeight = height;
    this.stamp++;
    this.view = undefined;
  }

  /** The oldest version still readable (undefined before the first commit). */
  oldest(): bigint | undefined {
    const first = this.undo[0];
    return first === undefined ? this.latestHeight : first.height - 1n;
  }

  /**
   * The state as version `height` left it, over `root` (the current state), for reading only;
   * undefined when that version is not kept. Volatile keys (a node's memory) are the current ones.
   *
   * @param root - the current committed state this journal tracks.
   * @param height - the version; at most the latest.
   * @returns a read-only view, or undefined for a version pruned or never made.
   */
  at(root: KvStore, height: bigint): KvStore | undefined {
    const oldest = this.oldest();
    const latest = this.latestHeight;
    if (oldest === undefined || latest === undefined || height < oldest || height > latest) return undefined;
    // Writes since the latest commit amend the latest version (see amendLatest).
    if (height === latest) return root;
    if (this.view?.height === height && this.view.stamp === this.stamp) return this.view.store;
    const before = new Map<string, Uint8Array | null>();
    const note = (changes: Changes): void => {
      changes.keys.forEach((key, i) => {
        if (!before.has(key)) before.set(key, changes.olds[i] as Uint8Array | null);
      });
    };
    // The first change after `height` to touch a key holds the value the key had at `height`;
    // the amendments of the latest version come after every block.
    for (const change of this.undo) if (change.height > height) note(change.before);
    note(this.open);
    const store = new CacheStore(root);
    for (const [key, value] of before) {
      if (value === null) store.delete(key);
      else store.set(key, value);
    }
    this.view = { height, stamp: this.stamp, store };
    return store;
  }
}
