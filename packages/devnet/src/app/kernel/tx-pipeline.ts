/**
 * The way in for txs before a block: CheckTx against the pending state (the committed state plus
 * the ante effects of queued txs: sequences, nonces, fees), the mempool of accepted txs in arrival
 * order, simulation, and re-checking the queue when the committed state moves outside a block.
 *
 * The pending state writes the modules' volatile keys (the clob's memclob) straight through to the
 * committed store (see {@link PendingStore}): a short-term order that CheckTx placed is the node's,
 * across blocks; such a tx is never queued (its policy's `enterBlock` is false).
 */

import type { SimulateResult, TxResult } from "../contract.js";
import { bytesKey } from "../lib/codec.js";
import { sdkErrors } from "../lib/errors.js";
import { EventManager } from "../lib/events.js";
import { CarriedTxs } from "./carried-txs.js";
import { type ChainCore, latestInfo } from "./chain-core.js";
import { createGasMeter } from "./gas.js";
import { type Context, createContext } from "./module.js";
import { CacheStore, PendingStore } from "./store.js";
import { moduleSlices } from "./store-views.js";
import { type DecodedTx, decodeTx } from "./tx.js";
import { TxCache } from "./tx-cache.js";
import { decodeTxBytes, MAX_TX_BYTES, mempoolRefusal, runTx, txPolicyOf } from "./tx-exec.js";
import { volatileKeys } from "./volatile-keys.js";

/** CheckTx, the mempool and simulation (see the module comment). */
export class TxPipeline {
  private pending: CacheStore;
  private mempool: DecodedTx[] = [];
  /**
   * CometBFT's mempool cache, by hash key: a tx CheckTx accepted stays in it (queued, committed with
   * code 0, or a short-term order in the memclob) until evicted, and the same bytes are refused
   * before CheckTx; a tx CheckTx refused, that failed in its block, or that a recheck dropped,
   * leaves it (it may be sent again).
   */
  private readonly cache = new TxCache();
  /** Signatures verified by CheckTx since the last block (see `AnteDeps.verified`). */
  readonly verified = new Set<string>();
  /**
   * The short-term txs CheckTx accepted since the last block, decoded, by their bytes: the block's
   * proposed operations carry them again (see {@link decodeCarried}). Decoding depends on the bytes
   * alone, so the block reuses these instead of decoding the same bytes a second time.
   */
  private readonly checkedShortTerm = new CarriedTxs();
  /** The slices {@link pendingReads} hands out, and the pending state they read. */
  private reads: { readonly kv: CacheStore; readonly access: Pick<Context, "store"> } | undefined;

  constructor(private readonly core: ChainCore) {
    this.pending = this.fresh();
  }

  private fresh(): CacheStore {
    return new PendingStore(this.core.root, volatileKeys(this.core.set.modules));
  }

  /**
   * CheckTx as CometBFT's mempool runs it: a tx over `max_tx_bytes`, or one in the cache, is refused
   * before CheckTx (a result with `mempoolError`); otherwise it is decoded and checked, and an
   * accepted tx joins the mempool (a short-term order: the memclob).
   */
  checkTx(bytes: Uint8Array): TxResult {
    if (bytes.length > MAX_TX_BYTES) {
      return mempoolRefusal(
        sdkErrors.txTooLarge,
        `Tx too large. Max size is ${MAX_TX_BYTES}, but got ${bytes.length}`,
      );
    }
    const decoded = decodeTxBytes(this.core, bytes);
    if (!("msgs" in decoded)) return decoded;
    const hash = decoded.hashKey;
    // As CometBFT: pushed before CheckTx (a key already there is refused, and becomes the most
    // recent), removed again when CheckTx refuses the tx.
    if (!this.cache.push(hash))
      return mempoolRefusal(sdkErrors.txInMempoolCache, "tx already exists in cache");
    const result = runTx(this.core, "check", decoded, this.pending, latestInfo(this.core), this.verified);
    if (result.code === 0) {
      // A short-term order's tx lives in the memclob only: never queued, never in a block.
      if (txPolicyOf(this.core, decoded).enterBlock) this.mempool.push(decoded);
      else this.checkedShortTerm.add(decoded);
    } else this.cache.remove(hash);
    return result;
  }

  /** Whether the tx of SHA-256 `hash` is in the mempool cache (a look-up; its place is unchanged). */
  inCache(hash: Uint8Array): boolean {
    return this.cache.has(bytesKey(hash));
  }

  /**
   * Decodes a signed tx that the block's proposed operations carry: the one CheckTx decoded from
   * the same bytes since the last block, or a fresh decoding.
   */
  decodeCarried(bytes: Uint8Array): DecodedTx {
    return this.checkedShortTerm.get(bytes) ?? decodeTx(bytes, this.core.set.router);
  }

  /**
   * The pending state's module slices, for reads ahead of a CheckTx (see `ChainApp.prepareTx`):
   * what a {@link checkContext} reads, without building a context (block info, gas meter, events)
   * for each tx. Kept while the pending state is.
   */
  pendingReads(): Pick<Context, "store"> {
    const kv = this.pending;
    if (this.reads?.kv !== kv) this.reads = { kv, access: { store: moduleSlices(kv) } };
    return this.reads.access;
  }

  /** A context over the pending state at the latest block, in CheckTx mode (after-commit work). */
  checkContext(): Context {
    return createContext({
      mode: "check",
      block: latestInfo(this.core),
      gasMeter: createGasMeter(undefined),
      gasConfig: this.core.gasConfig,
      events: new EventManager(),
      kv: this.pending,
    });
  }

  /** Number of txs queued for the next block. */
  pendingCount(): number {
    return this.mempool.length;
  }

  /** Simulates a tx (signature checks skipped) against the pending state. */
  simulate(bytes: Uint8Array): SimulateResult {
    const decoded = decodeTxBytes(this.core, bytes);
    if (!("msgs" in decoded)) return { ok: false, result: decoded };
    const result = runTx(
      this.core,
      "simulate",
      decoded,
      new CacheStore(this.pending),
      latestInfo(this.core),
      this.verified,
    );
    return result.code === 0
      ? { ok: true, gasWanted: result.gasWanted, gasUsed: result.gasUsed, result }
      : { ok: false, result };
  }

  /** The queued txs, in order: the next block's txs. */
  queued(): readonly DecodedTx[] {
    return this.mempool;
  }

  /**
   * After a commit of a block whose results are `txResults` (its last txs are the queued ones): a
   * tx that failed in it leaves the cache (a committed tx with code 0 stays); the queue is empty and
   * CheckTx starts over on the committed state.
   */
  committed(txResults: readonly TxResult[]): void {
    const first = txResults.length - this.mempool.length;
    for (let i = 0; i < this.mempool.length; i++) {
      const tx = this.mempool[i] as DecodedTx;
      if (txResults[first + i]?.code === 0) this.cache.push(tx.hashKey);
      else this.cache.remove(tx.hashKey);
    }
    this.mempool = [];
    this.verified.clear();
    this.checkedShortTerm.clear();
    this.pending = this.fresh();
  }

  /**
   * After the committed state moved outside a block (a control operation): the pending state starts
   * over and each queued tx is checked again on it, in order; the ones that fail now are dropped
   * (from the cache too: they may be sent again).
   */
  recheck(): void {
    this.pending = this.fresh();
    const queued = this.mempool;
    this.mempool = [];
    for (const tx of queued) {
      const result = runTx(this.core, "check", tx, this.pending, latestInfo(this.core), this.verified, true);
      if (result.code === 0) this.mempool.push(tx);
      else this.cache.remove(tx.hashKey);
    }
  }

  /** Drops the pending state (the committed state was replaced). */
  reset(): void {
    this.pending = this.fresh();
  }
}
