/**
 * secp256k1 signature checks on a worker thread: libsecp256k1's `ecdsaVerify` over SHA-256 of the
 * sign bytes, the curve math the main thread would otherwise run. Requests made in one turn of the
 * event loop go as one message; the worker answers each message once it is through it. Each request
 * has a slot in memory both threads share, which holds its state: the worker writes each verdict
 * there as soon as it has it, and a caller that cannot wait for the message can take a request the
 * worker has not started back (see {@link PendingVerdict.hurry}), so no signature is checked twice.
 * The worker is a small script that loads the same addon file as the main thread.
 *
 * The worker is never terminated from outside: it is asked to stop, and stops between two batches.
 * The addon (node-addon-api with C++ exceptions) aborts the whole process when its thread is torn
 * down while the addon runs: a napi call fails, the error cannot be thrown to JavaScript, and C++
 * terminates (`terminate called after throwing an instance of 'Napi::Error'`). Measured here:
 * `terminate()` during a batch aborted 4 of 600 times, and a process that exited while its workers
 * loaded the addon or checked a batch 14 of 800 times; stopped this way, 0 of 1,200 (and 0 of 300
 * exits with idle workers). A process may also exit with a worker still at work (`process.exit()`
 * during order flow): its `exit` event then holds the worker out of the addon before Node tears
 * the thread down (see {@link WORKER_SOURCE}).
 */
import { createRequire } from "node:module";
import type * as WorkerThreads from "node:worker_threads";

/** The states of a slot (see {@link WORKER_SOURCE}, which has them as literals). */
const FREE = 0;
const QUEUED = 1;
const BUSY = 2;
const TAKEN = 3;
const VALID = 4;
const INVALID = 5;

/** Number of slots: at most this many requests are out at once (more answer false at once). */
const SLOTS = 1024;

/** The longest a hurried request waits for the worker to finish its check (ms). */
const HURRY_WAIT_MS = 2;

/** The word after the slots: set by the main thread when the process exits. */
const EXITING = SLOTS;
/** The next word: set by the worker while it is in the addon (see {@link WORKER_SOURCE}). */
const IN_ADDON = SLOTS + 1;

/** The longest the process's exit waits for a worker to leave the addon (ms); a check takes microseconds. */
const EXIT_WAIT_MS = 1_000;

/**
 * The worker's script (CommonJS): a batch is `[u32 slot][u32 length][sign bytes][33-byte key][64-byte
 * signature]`*. A request whose slot is no longer QUEUED (1) was taken back: skipped. Otherwise the
 * slot is BUSY (2) during the check, then VALID (4) or INVALID (5). A `null` message asks the worker
 * to stop: it closes its port, and with nothing left to do its thread ends.
 *
 * The worker enters the addon (to load it, or for one check) only as `enter()` allows: it marks
 * IN_ADDON first and then reads EXITING, and the exiting process marks EXITING first and then waits
 * for IN_ADDON to clear, so one of the two always sees the other's mark. Past that point the worker
 * never enters the addon again, and its checks answer false.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { hash } = require("node:crypto");
const slots = new Int32Array(workerData.slots);
const enter = () => {
  Atomics.store(slots, ${IN_ADDON}, 1);
  if (Atomics.load(slots, ${EXITING}) === 0) return true;
  leave();
  return false;
};
const leave = () => {
  Atomics.store(slots, ${IN_ADDON}, 0);
  Atomics.notify(slots, ${IN_ADDON});
};
let addon;
if (enter()) {
  try {
    addon = require(workerData.addon);
  } finally {
    leave();
  }
}
parentPort.on("message", (buffer) => {
  if (buffer === null) {
    parentPort.close();
    return;
  }
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let at = 0;
  while (at < bytes.length) {
    const slot = view.getUint32(at);
    const length = view.getUint32(at + 4);
    const signBytes = bytes.subarray(at + 8, at + 8 + length);
    at += 8 + length;
    const key = bytes.subarray(at, at + 33);
    const signature = bytes.subarray(at + 33, at + 97);
    at += 97;
    if (Atomics.compareExchange(slots, slot, 1, 2) !== 1) continue;
    let ok = false;
    if (addon !== undefined && enter()) {
      try {
        ok = addon.ecdsaVerify(signature, hash("sha256", signBytes, "buffer"), key) === true;
      } catch {}
      leave();
    }
    Atomics.store(slots, slot, ok ? 4 : 5);
    Atomics.notify(slots, slot);
  }
  parentPort.postMessage(0);
});
`;

interface Request {
  readonly slot: number;
  readonly key: Uint8Array;
  readonly signBytes: Uint8Array;
  readonly signature: Uint8Array;
  /** Answers the request (a second answer is ignored). */
  readonly settle: (ok: boolean) => void;
}

/** A request to the worker: its verdict, and a way to have it now. */
export interface PendingVerdict {
  /**
   * True when libsecp256k1 accepts the signature; false when it refuses, or when the worker could
   * not answer (it failed or was closed, or the request was hurried before the worker began it).
   * Never rejects.
   */
  readonly verdict: Promise<boolean>;
  /**
   * Settles {@link verdict} now (its callbacks run with the microtasks that follow): with the
   * worker's verdict when it has it or is computing it (waiting for it, at most a few ms); false,
   * and the worker skips the check, when it has not begun it.
   */
  hurry(): void;
}

/** A worker thread checking secp256k1 signatures (see the module comment). */
export interface SignatureWorker {
  /** False once the worker failed or was closed: {@link request} then answers false at once. */
  readonly alive: boolean;
  /**
   * Asks whether libsecp256k1 accepts `signature` (64 bytes r||s) over SHA-256 of `signBytes`
   * under `key` (33 bytes, compressed).
   */
  request(key: Uint8Array, signBytes: Uint8Array, signature: Uint8Array): PendingVerdict;
  /**
   * Stops the worker: pending requests answer false at once, and the worker ends after the batch it
   * is checking, if any. The process stays up until it has.
   * @returns a promise that resolves once the worker's thread has ended
   */
  close(): Promise<void>;
}

/** Packs requests into one transferable buffer (see {@link WORKER_SOURCE}). */
function pack(requests: readonly Request[]): ArrayBuffer {
  let size = 0;
  for (const r of requests) size += 8 + r.signBytes.length + 97;
  const buffer = new ArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let at = 0;
  for (const r of requests) {
    view.setUint32(at, r.slot);
    view.setUint32(at + 4, r.signBytes.length);
    bytes.set(r.signBytes, at + 8);
    at += 8 + r.signBytes.length;
    bytes.set(r.key, at);
    bytes.set(r.signature, at + 33);
    at += 97;
  }
  return buffer;
}

/** The shared words of every worker alive in this process, for {@link holdOutOfAddon}. */
const exitHolds = new Set<Int32Array>();
let listeningForExit = false;

/**
 * Holds every live worker out of the addon for good (see {@link WORKER_SOURCE}): run by the
 * process's `exit` event, before Node tears the workers' threads down. Their checks answer false
 * from then on. Exported for its test.
 */
export function holdOutOfAddon(): void {
  for (const slots of exitHolds) Atomics.store(slots, EXITING, 1);
  const deadline = Date.now() + EXIT_WAIT_MS;
  for (const slots of exitHolds) {
    while (Atomics.load(slots, IN_ADDON) === 1 && Date.now() < deadline) {
      Atomics.wait(slots, IN_ADDON, 1, Math.max(1, deadline - Date.now()));
    }
  }
}

/** Adds a worker's shared words to {@link exitHolds}; the first one starts listening for the exit. */
function holdOnExit(slots: Int32Array): void {
  if (!listeningForExit) process.on("exit", holdOutOfAddon);
  listeningForExit = true;
  exitHolds.add(slots);
}

const answeredFalse: PendingVerdict = { verdict: Promise.resolve(false), hurry: () => {} };

/**
 * Starts a worker that loads the addon at `addonPath` (see `secp256k1AddonPath`). It does not keep
 * the process alive. Node's `worker_threads` is loaded here, on first use: loading it costs about a
 * millisecond, which a devnet start does without.
 */
export function startSignatureWorker(addonPath: string): SignatureWorker {
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  const slots = new Int32Array(new SharedArrayBuffer((SLOTS + 2) * Int32Array.BYTES_PER_ELEMENT));
  let nextSlot = 0;
  let queued: Request[] = [];
  const sent: Request[][] = [];
  let flushScheduled = false;
  let alive = true;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { addon: addonPath, slots: slots.buffer },
  });
  worker.unref();
  holdOnExit(slots);
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", () => {
      exitHolds.delete(slots);
      resolve();
    }),
  );

  /**
   * Answers every pending request false and asks the worker to stop (see the module comment: never
   * `terminate()`), holding the process up until it has.
   */
  const stop = () => {
    if (!alive) return;
    alive = false;
    const pending = [...sent.flat(), ...queued];
    sent.length = 0;
    queued = [];
    for (const request of pending) request.settle(false);
    worker.ref();
    try {
      worker.postMessage(null);
    } catch {
      // The worker has already ended: its exit event is on its way.
    }
  };
  worker.on("message", () => {
    const batch = sent.shift();
    if (batch === undefined) {
      stop();
      return;
    }
    for (const request of batch) {
      const state = Atomics.load(slots, request.slot);
      if (state !== VALID && state !== INVALID && state !== TAKEN) {
        sent.unshift(batch);
        stop();
        return;
      }
      request.settle(state === VALID);
    }
    for (const request of batch) Atomics.store(slots, request.slot, FREE);
  });
  worker.on("error", stop);
  worker.on("messageerror", stop);
  worker.on("exit", stop);

  const flush = () => {
    flushScheduled = false;
    if (!alive || queued.length === 0) return;
    const batch = queued;
    queued = [];
    try {
      const buffer = pack(batch);
      sent.push(batch);
      worker.postMessage(buffer, [buffer]);
    } catch {
      for (const request of batch) request.settle(false);
      stop();
    }
  };

  /** Takes `request` back from the worker, or waits for its verdict (see {@link PendingVerdict.hurry}). */
  const hurry = (request: Request) => {
    let state = Atomics.compareExchange(slots, request.slot, QUEUED, TAKEN);
    if (state === QUEUED) {
      request.settle(false);
      return;
    }
    if (state === BUSY) {
      Atomics.wait(slots, request.slot, BUSY, HURRY_WAIT_MS);
      state = Atomics.load(slots, request.slot);
    }
    request.settle(state === VALID);
  };

  return {
    get alive() {
      return alive;
    },
    request(key, signBytes, signature) {
      const slot = nextSlot;
      if (!alive || key.length !== 33 || signature.length !== 64 || Atomics.load(slots, slot) !== FREE) {
        return answeredFalse;
      }
      nextSlot = (slot + 1) % SLOTS;
      Atomics.store(slots, slot, QUEUED);
      let settled = false;
      let resolve: (ok: boolean) => void = () => {};
      const verdict = new Promise<boolean>((r) => {
        resolve = r;
      });
      const request: Request = {
        slot,
        key,
        signBytes,
        signature,
        settle: (ok) => {
          if (settled) return;
          settled = true;
          resolve(ok);
        },
      };
      queued.push(request);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
      return {
        verdict,
        hurry: () => {
          if (!settled && alive) hurry(request);
        },
      };
    },
    close() {
      stop();
      return exited;
    },
  };
}
