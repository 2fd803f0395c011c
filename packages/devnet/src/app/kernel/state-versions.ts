/**
 * The committed state's recent versions, as a real node's state pruning keeps them (`pruning
 * keep-recent`): a query asked at one of the last versions reads the state as that block left it,
 * and an older one gets the store's "version does not exist".
 *
 * Only the changes are kept: for each block, the value every committed key had before the block
 * changed it. A version is the latest state with the newer blocks' changes undone.
 */
import { CacheStore, type KvStore, type WriteJournal } from "./store.js";

/** The values a block's changes replaced (`null`: the key was absent), and the block's height. */
interface Undo {
  readonly height: bigint;
  readonly before: Map<string, Uint8Array | null>;
}

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
  private open = new Map<string, Uint8Array | null>();
  /** Per kept block after the oldest version, oldest first. */
  private readonly undo: Undo[] = [];
  private latestHeight: bigint | undefined;
  /** Moves on every write, so a cached view is never stale. */
  private stamp = 0;
  private view: { height: bigint; stamp: number; store: KvStore } | undefined;

  /** @param keep - how many versions stay readable, the latest included; 0 keeps every version. */
  constructor(private readonly keep: number) {}

  changed(key: string, old: Uint8Array | undefined): void {
    this.stamp++;
    if (!this.open.has(key)) this.open.set(key, old ?? null);
  }

  /**
   * Folds the writes made since the latest commit into the latest version: the devnet's control
   * operations (a faucet grant, a price set) amend the latest state, as a query at the latest height
   * already reads them. Call it before a block's writes reach the store.
   */
  amendLatest(): void {
    const latest = this.undo.at(-1);
    if (latest !== undefined) {
      for (const [key, value] of this.open) if (!latest.before.has(key)) latest.before.set(key, value);
    }
    this.open = new Map();
    this.stamp++;
  }

  /** Seals the writes since {@link amendLatest} as the change that made version `height`. */
  commit(height: bigint): void {
    if (this.latestHeight !== undefined) this.undo.push({ height, before: this.open });
    this.open = new Map();
    this.latestHeight = height;
    this.stamp++;
    if (this.keep > 0) {
      while (this.undo.length > this.keep - 1) this.undo.shift();
    }
  }

  /** Forgets every version but the current state, which becomes version `height` (a restored snapshot). */
  reset(height: bigint): void {
    this.undo.length = 0;
    this.open = new Map();
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
    const note = (changes: ReadonlyMap<string, Uint8Array | null>): void => {
      for (const [key, value] of changes) if (!before.has(key)) before.set(key, value);
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
