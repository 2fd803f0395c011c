/**
 * Broadcast methods: `check_tx`, `broadcast_tx_sync`, `broadcast_tx_async` and
 * `broadcast_tx_commit`, which waits (up to a timeout) for the tx to be committed.
 *
 * CheckTx runs in arrival order across the four (see {@link CheckQueue}). When the application can
 * ready a tx (`ChainApp.prepareTx`) and the optional libsecp256k1 addon is installed, its signature
 * is checked first on a worker thread (started on the first broadcast), which spares CheckTx the
 * curve math; CheckTx answers exactly as it would without.
 */
import type { BlockRecord, ChainApp, TxResult } from "../../app/contract.js";
import { forgetNativeVerdicts, secp256k1AddonPath } from "../../app/lib/crypto.js";
import { sha256 } from "../../app/lib/sha256.js";
import {
  type PendingVerdict,
  type SignatureWorker,
  startSignatureWorker,
} from "../../app/lib/signature-worker.js";
import { txResultJson } from "../comet-json.js";
import { toBase64, toHexUpper } from "../encoding.js";
import { CheckQueue } from "./check-queue.js";
import { internal } from "./errors.js";
import { type MethodTable, requireBytes } from "./params.js";

interface CommitWaiter {
  hash: Uint8Array;
  resolve: (height: bigint | undefined) => void;
}

/** The broadcast methods, and the hooks their commit waits need. */
export interface Broadcaster {
  readonly methods: MethodTable;
  /** Wakes the `broadcast_tx_commit` calls whose tx is now committed. */
  onBlock(block: BlockRecord): void;
  /**
   * Ends every pending commit wait (as a timeout) and the signature worker.
   * @returns a promise that resolves once the worker's thread has ended
   */
  close(): Promise<void>;
}

/** `value`, or what `then` makes of it once it settles. */
function andThen<T, U>(value: T | Promise<T>, then: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** The broadcast methods over `app`; `broadcast_tx_commit` waits up to `commitTimeoutMs`. */
export function createBroadcaster(app: ChainApp, commitTimeoutMs: number): Broadcaster {
  const waiters = new Set<CommitWaiter>();
  /** The signature worker: undefined until the first broadcast, null when there is none to use. */
  let worker: SignatureWorker | null | undefined;

  // A tx is readied only to spare CheckTx the curve math: when the main thread would otherwise wait
  // idle for a verdict, the verdict is hurried (taken back from the worker if it has not begun it,
  // and then CheckTx verifies inline; the worker never checks it too).
  const queue = new CheckQueue(
    (tx: Uint8Array): TxResult => {
      try {
        return app.checkTx(tx);
      } catch (error) {
        throw internal(error instanceof Error ? error.message : String(error));
      }
    },
    { checkWhenIdle: true },
  );

  /**
   * Starts checking the signature of `tx` on the worker: what readies it and how to hurry that, or
   * undefined when there is nothing to wait for.
   */
  const prepare = (tx: Uint8Array): { ready: Promise<void>; hurry: () => void } | undefined => {
    if (app.prepareTx === undefined) return undefined;
    if (worker === undefined) {
      const addon = secp256k1AddonPath();
      try {
        worker = addon === undefined ? null : startSignatureWorker(addon);
      } catch {
        worker = null;
      }
    }
    const running = worker;
    if (running === null || !running.alive) return undefined;
    let pending: PendingVerdict | undefined;
    try {
      const ready = app.prepareTx(tx, (key, signBytes, signature) => {
        pending = running.request(key, signBytes, signature);
        return pending.verdict;
      });
      return ready === undefined ? undefined : { ready, hurry: () => pending?.hurry() };
    } catch {
      return undefined;
    }
  };

  const checkTx = (tx: Uint8Array): TxResult | Promise<TxResult> => {
    const prepared = prepare(tx);
    return queue.submit(tx, prepared?.ready, prepared?.hurry);
  };

  /** Waits for `hash` to be committed: its height, or undefined on timeout, close or `cancel`. */
  const commitWait = (hash: Uint8Array): { height: Promise<bigint | undefined>; cancel(): void } => {
    let waiter: CommitWaiter | undefined;
    const height = new Promise<bigint | undefined>((resolve) => {
      const registered: CommitWaiter = {
        hash,
        resolve: (h) => {
          clearTimeout(timer);
          waiters.delete(registered);
          resolve(h);
        },
      };
      const timer = setTimeout(() => registered.resolve(undefined), commitTimeoutMs);
      waiters.add(registered);
      waiter = registered;
    });
    return { height, cancel: () => waiter?.resolve(undefined) };
  };

  const methods: MethodTable = {
    check_tx: {
      params: [["tx", "bytes"]],
      run: (p) => andThen(checkTx(requireBytes(p, "tx")), txResultJson),
    },
    broadcast_tx_sync: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        return andThen(checkTx(tx), (result) => ({
          code: result.code,
          data: toBase64(result.data),
          log: result.log,
          codespace: result.codespace,
          hash: toHexUpper(sha256(tx)),
        }));
      },
    },
    broadcast_tx_async: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        // Checked after this answer, in its turn (at the earliest on the next turn of the loop).
        const prepared = prepare(tx);
        const ready = prepared?.ready ?? new Promise<void>((resolve) => setImmediate(resolve));
        Promise.resolve(queue.submit(tx, ready, prepared?.hurry)).catch(() => {
          // An async broadcast reports nothing about CheckTx.
        });
        return { code: 0, data: "", log: "", codespace: "", hash: toHexUpper(sha256(tx)) };
      },
    },
    broadcast_tx_commit: {
      params: [["tx", "bytes"]],
      run: async (p) => {
        const tx = requireBytes(p, "tx");
        const hash = sha256(tx);
        // The wait starts before CheckTx: a block committed as soon as it is queued is not missed.
        const inclusion = commitWait(hash);
        try {
          const check = await checkTx(tx);
          if (check.code !== 0) {
            return { check_tx: txResultJson(check), tx_result: {}, hash: toHexUpper(hash), height: "0" };
          }
          const height = await inclusion.height;
          const indexed = app.tx(hash);
          if (height === undefined || indexed === undefined) {
            throw internal("timed out waiting for tx to be included in a block");
          }
          return {
            check_tx: txResultJson(check),
            tx_result: txResultJson(indexed.result),
            hash: toHexUpper(hash),
            height: indexed.height.toString(),
          };
        } finally {
          inclusion.cancel();
        }
      },
    },
  };

  return {
    methods,
    onBlock(block) {
      for (const waiter of [...waiters]) {
        if (app.tx(waiter.hash) !== undefined) waiter.resolve(block.height);
      }
    },
    async close() {
      for (const waiter of [...waiters]) waiter.resolve(undefined);
      // Txs waiting for a verdict are checked inline now; no worker starts after this.
      const stopped = worker?.close();
      worker = null;
      forgetNativeVerdicts();
      await stopped;
    },
  };
}
