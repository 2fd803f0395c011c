/**
 * secp256k1 signature checks on a worker thread: libsecp256k1's `ecdsaVerify` over SHA-256 of the
 * sign bytes, the curve math the main thread would otherwise run. Requests made in one turn of the
 * event loop go as one message; the worker answers each message with one array of verdicts, in
 * order. The worker is a small script that loads the same addon file as the main thread.
 */
import { createRequire } from "node:module";
import type * as WorkerThreads from "node:worker_threads";

/** The worker's script (CommonJS): a batch is `[u32 length][sign bytes][33-byte key][64-byte signature]`*. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { hash } = require("node:crypto");
const addon = require(workerData.addon);
parentPort.on("message", (buffer) => {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  const verdicts = [];
  let at = 0;
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const signBytes = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    const key = bytes.subarray(at, at + 33);
    const signature = bytes.subarray(at + 33, at + 97);
    at += 97;
    let ok = false;
    try {
      ok = addon.ecdsaVerify(signature, hash("sha256", signBytes, "buffer"), key) === true;
    } catch {}
    verdicts.push(ok ? 1 : 0);
  }
  const out = Uint8Array.from(verdicts);
  parentPort.postMessage(out, [out.buffer]);
});
`;

interface Request {
  readonly key: Uint8Array;
  readonly signBytes: Uint8Array;
  readonly signature: Uint8Array;
  readonly resolve: (ok: boolean) => void;
}

/** A worker thread checking secp256k1 signatures (see the module comment). */
export interface SignatureWorker {
  /** False once the worker failed or was closed: {@link verify} then answers false at once. */
  readonly alive: boolean;
  /**
   * True when libsecp256k1 accepts `signature` (64 bytes r||s) over SHA-256 of `signBytes` under
   * `key` (33 bytes, compressed); false when it refuses, or when the worker could not answer (it
   * failed or was closed). Never rejects.
   */
  verify(key: Uint8Array, signBytes: Uint8Array, signature: Uint8Array): Promise<boolean>;
  /** Ends the worker; pending requests answer false. */
  close(): void;
}

/** Packs requests into one transferable buffer (see {@link WORKER_SOURCE}). */
function pack(requests: readonly Request[]): ArrayBuffer {
  let size = 0;
  for (const r of requests) size += 4 + r.signBytes.length + 97;
  const buffer = new ArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let at = 0;
  for (const r of requests) {
    view.setUint32(at, r.signBytes.length);
    bytes.set(r.signBytes, at + 4);
    at += 4 + r.signBytes.length;
    bytes.set(r.key, at);
    bytes.set(r.signature, at + 33);
    at += 97;
  }
  return buffer;
}

/**
 * Starts a worker that loads the addon at `addonPath` (see `secp256k1AddonPath`). It does not keep
 * the process alive. Node's `worker_threads` is loaded here, on first use: loading it costs about a
 * millisecond, which a devnet start does without.
 */
export function startSignatureWorker(addonPath: string): SignatureWorker {
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  let queued: Request[] = [];
  const sent: Request[][] = [];
  let flushScheduled = false;
  let alive = true;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { addon: addonPath } });
  worker.unref();

  const fail = () => {
    if (!alive) return;
    alive = false;
    const pending = [...sent.flat(), ...queued];
    sent.length = 0;
    queued = [];
    for (const request of pending) request.resolve(false);
    void worker.terminate().catch(() => undefined);
  };
  worker.on("message", (verdicts: Uint8Array) => {
    const batch = sent.shift();
    if (batch === undefined || !(verdicts instanceof Uint8Array) || verdicts.length !== batch.length) {
      if (batch !== undefined) sent.unshift(batch);
      fail();
      return;
    }
    for (const [i, request] of batch.entries()) request.resolve(verdicts[i] === 1);
  });
  worker.on("error", fail);
  worker.on("messageerror", fail);
  worker.on("exit", fail);

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
      for (const request of batch) request.resolve(false);
      fail();
    }
  };

  return {
    get alive() {
      return alive;
    },
    verify(key, signBytes, signature) {
      if (!alive || key.length !== 33 || signature.length !== 64) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        queued.push({ key, signBytes, signature, resolve });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },
    close: fail,
  };
}
