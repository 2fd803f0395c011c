import { Worker } from "node:worker_threads";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it, vi } from "vitest";
import { secp256k1AddonPath } from "./crypto.js";
import { sha256 } from "./sha256.js";
import { holdOutOfAddon, startSignatureWorker } from "./signature-worker.js";

const secret = sha256("signature worker test key");
const key = secp256k1.getPublicKey(secret, true);
const signed = (text: string) => {
  const signBytes = sha256(text);
  return { signBytes, signature: secp256k1.sign(sha256(signBytes), secret, { prehash: false }) };
};

const addon = secp256k1AddonPath();

describe.runIf(addon !== undefined)("signature worker", () => {
  it("answers a batch in order: valid true, tampered or foreign false", async () => {
    const worker = startSignatureWorker(addon as string);
    try {
      const cases = Array.from({ length: 20 }, (_, i) => signed(`message ${i}`));
      const other = secp256k1.getPublicKey(sha256("another key"), true);
      const answers = await Promise.all(
        cases.flatMap(({ signBytes, signature }, i) => {
          const tampered = signature.slice();
          tampered[i] = (tampered[i] as number) ^ 1;
          return [
            worker.request(key, signBytes, signature).verdict,
            worker.request(key, signBytes, tampered).verdict,
            worker.request(other, signBytes, signature).verdict,
            worker.request(key, sha256(`other ${i}`), signature).verdict,
          ];
        }),
      );
      expect(answers).toEqual(cases.flatMap(() => [true, false, false, false]));
      expect(worker.alive).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it("a hurried request answers the worker's verdict, or false when the worker had not begun it", async () => {
    const worker = startSignatureWorker(addon as string);
    try {
      const cases = Array.from({ length: 40 }, (_, i) => signed(`hurried ${i}`));
      const pending = cases.map(({ signBytes, signature }, i) => {
        const request = worker.request(key, signBytes, i % 3 === 0 ? signature.map((b) => b ^ 1) : signature);
        return { request, hurried: i % 2 === 0 };
      });
      // Hurried at once (taken back), then after the worker had a turn (taken, awaited or read).
      pending[0]?.request.hurry();
      await new Promise((resolve) => setImmediate(resolve));
      for (const { request, hurried } of pending) if (hurried) request.hurry();
      const answers = await Promise.all(pending.map(({ request }) => request.verdict));
      answers.forEach((answer, i) => {
        if (i % 3 === 0 || i === 0) expect(answer).toBe(false);
        else if (i % 2 === 1) expect(answer).toBe(true);
      });
      // Taken-back requests are skipped, not answered twice: the worker keeps answering.
      const { signBytes, signature } = signed("after hurries");
      expect(await worker.request(key, signBytes, signature).verdict).toBe(true);
      expect(worker.alive).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it("close answers pending requests false, and later ones at once", async () => {
    const worker = startSignatureWorker(addon as string);
    const { signBytes, signature } = signed("pending");
    const pending = worker.request(key, signBytes, signature).verdict;
    const closed = worker.close();
    expect(await pending).toBe(false);
    await closed;
    expect(worker.alive).toBe(false);
    expect(await worker.request(key, signBytes, signature).verdict).toBe(false);
  });

  it("close stops the worker between batches, never by terminate(), and resolves once it has ended", async () => {
    // terminate() tears the thread down wherever it is, inside the addon too, which aborts the
    // process now and then (see the module comment).
    const terminate = vi.spyOn(Worker.prototype, "terminate");
    const worker = startSignatureWorker(addon as string);
    try {
      const first = signed("loaded");
      expect(await worker.request(key, first.signBytes, first.signature).verdict).toBe(true);
      const batch = Array.from({ length: 200 }, (_, i) => {
        const { signBytes, signature } = signed(`batch ${i}`);
        return worker.request(key, signBytes, signature).verdict;
      });
      await new Promise((resolve) => setImmediate(resolve));
      await worker.close();
      expect(await Promise.all(batch)).toEqual(batch.map(() => false));
      expect(terminate).not.toHaveBeenCalled();
    } finally {
      terminate.mockRestore();
    }
  });

  it("once the process's exit holds it out of the addon, a worker answers every check false", async () => {
    const worker = startSignatureWorker(addon as string);
    try {
      const before = signed("before the exit");
      expect(await worker.request(key, before.signBytes, before.signature).verdict).toBe(true);
      holdOutOfAddon();
      const after = Array.from({ length: 5 }, (_, i) => {
        const { signBytes, signature } = signed(`after the exit ${i}`);
        return worker.request(key, signBytes, signature).verdict;
      });
      expect(await Promise.all(after)).toEqual([false, false, false, false, false]);
      expect(worker.alive).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it("a worker that cannot load its addon fails: every request answers false", async () => {
    const worker = startSignatureWorker("/nonexistent/secp256k1/bindings.js");
    const { signBytes, signature } = signed("no addon");
    expect(await worker.request(key, signBytes, signature).verdict).toBe(false);
    await expect.poll(() => worker.alive).toBe(false);
  });
});
