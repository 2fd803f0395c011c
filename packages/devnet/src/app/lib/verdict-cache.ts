/**
 * A bounded memo of positive signature verdicts: "this signature over these sign bytes verifies
 * under this key". Verification is a pure function of those bytes, so a verdict found again for the
 * very same bytes is the answer verification would give; anything else is not in the memo.
 */
import { bytesEqual, bytesKey } from "./codec.js";

interface Verdict {
  readonly algo: string;
  readonly key: Uint8Array;
  readonly signBytes: Uint8Array;
}

/**
 * Positive verdicts by their exact (algorithm, key, sign bytes, signature), at most `capacity`
 * (the oldest dropped first). The bytes are copied in: later changes to the caller's arrays do not
 * reach the memo.
 */
export class VerdictCache {
  private readonly entries = new Map<string, Verdict>();

  constructor(readonly capacity: number) {}

  /** Records that `signature` over `signBytes` verifies under `key` (of algorithm `algo`). */
  add(algo: string, key: Uint8Array, signBytes: Uint8Array, signature: Uint8Array): void {
    const id = bytesKey(signature);
    this.entries.delete(id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { algo, key: key.slice(), signBytes: signBytes.slice() });
  }

  /** True when exactly these four were recorded by {@link add} (and not dropped since). */
  has(algo: string, key: Uint8Array, signBytes: Uint8Array, signature: Uint8Array): boolean {
    const entry = this.entries.get(bytesKey(signature));
    return (
      entry !== undefined &&
      entry.algo === algo &&
      bytesEqual(entry.key, key) &&
      bytesEqual(entry.signBytes, signBytes)
    );
  }

  /** Number of verdicts held. */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every verdict. */
  clear(): void {
    this.entries.clear();
  }
}
