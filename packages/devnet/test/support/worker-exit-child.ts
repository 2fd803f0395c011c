/**
 * A child process for `signature-worker-exit.test.ts`: starts 16 signature workers on the addon at
 * argv[2], hands each 600 checks, and calls `process.exit(0)` after argv[3] milliseconds, while
 * they load the addon or check. A worker torn down inside the addon aborts the process instead.
 */
import { startSignatureWorker } from "../../src/app/lib/signature-worker.js";

const [, , addon, delay] = process.argv;
const key = new Uint8Array(33).fill(1);
key[0] = 2;
const signature = new Uint8Array(64).fill(1);
for (let w = 0; w < 16; w++) {
  const worker = startSignatureWorker(addon as string);
  for (let i = 0; i < 600; i++) worker.request(key, new Uint8Array(64 + (i % 50)), signature);
}
setTimeout(() => process.exit(0), Number(delay));
