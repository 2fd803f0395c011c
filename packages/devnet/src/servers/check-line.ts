/**
 * The node's one line of CheckTx, which every transport that broadcasts shares: CometBFT RPC's
 * `check_tx` and three broadcasts, and `cosmos.tx.v1beta1.Service/BroadcastTx` over gRPC, gRPC-web
 * and REST. As in CometBFT's mempool, a tx is checked after every tx that arrived before it, by
 * whichever transport (see {@link CheckQueue}).
 *
 * When the application can ready a tx (`ChainApp.prepareTx`) and the optional libsecp256k1 addon
 * is installed, its signature is first checked on a worker thread (started on the first broadcast),
 * which spares CheckTx the curve math; CheckTx answers exactly as it would without.
 */
import type { ChainApp, TxResult } from "../app/contract.js";
import { forgetNativeVerdicts, secp256k1AddonPath } from "../app/lib/crypto.js";
import {
  type PendingVerdict,
  type SignatureWorker,
  startSignatureWorker,
} from "../app/lib/signature-worker.js";
import { CheckQueue } from "./check-queue.js";

/** The shared line of CheckTx (see the module comment). */
export interface CheckLine {
  /**
   * CheckTx of `tx` in its turn: the result at once when nothing waits before it, else the promise
   * of it. What CheckTx throws is thrown (or rejected with) as it is.
   */
  check(tx: Uint8Array): TxResult | Promise<TxResult>;
  /**
   * Puts `tx` in line and reports nothing of its CheckTx (an async broadcast): it is checked in its
   * turn, at the earliest on the next turn of the event loop.
   */
  enqueue(tx: Uint8Array): void;
  /**
   * Stops the signature worker, if one runs: txs waiting for a verdict are checked in line, and no
   * worker starts after this.
   * @returns a promise that resolves once the worker's thread has ended
   */
  close(): Promise<void>;
}

/** Options of {@link createCheckLine}. */
export interface CheckLineOptions {
  /**
   * Check signatures on a worker thread when the addon is installed (see the module comment); a
   * line without one checks every tx in line, at once when nothing waits. @default true
   */
  signatureWorker?: boolean;
}

/**
 * A line of CheckTx over `app` (see the module comment).
 *
 * @param app - the chain application whose `checkTx` the line calls.
 * @param options - whether signatures may be checked on a worker thread.
 * @returns the line; its owner closes it when the node stops.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const line = createCheckLine(devnet.app, { signatureWorker: false });
 * const result = await line.check(Uint8Array.of(1, 2, 3)); // bytes that are not a tx
 * result.code; // 2
 * await line.close();
 * await devnet.stop();
 * ```
 */
export function createCheckLine(app: ChainApp, options: CheckLineOptions = {}): CheckLine {
  /** The signature worker: undefined until the first broadcast, null when there is none to use. */
  let worker: SignatureWorker | null | undefined = options.signatureWorker === false ? null : undefined;

  // A tx is readied only to spare CheckTx the curve math: when the main thread would otherwise wait
  // idle for a verdict, the verdict is hurried (taken back from the worker if it has not begun it,
  // and then CheckTx verifies inline; the worker never checks it too).
  const queue = new CheckQueue((tx: Uint8Array): TxResult => app.checkTx(tx), { checkWhenIdle: true });

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

  return {
    check(tx) {
      const prepared = prepare(tx);
      return queue.submit(tx, prepared?.ready, prepared?.hurry);
    },
    enqueue(tx) {
      const prepared = prepare(tx);
      const ready = prepared?.ready ?? new Promise<void>((resolve) => setImmediate(resolve));
      // With a readying promise the submission always answers a promise, in line from now.
      Promise.resolve(queue.submit(tx, ready, prepared?.hurry)).catch(() => {
        // An async broadcast reports nothing about CheckTx.
      });
    },
    async close() {
      // Txs waiting for a verdict are checked inline now; no worker starts after this.
      const stopped = worker?.close();
      worker = null;
      forgetNativeVerdicts();
      await stopped;
    },
  };
}
