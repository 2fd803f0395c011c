import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it } from "vitest";
import { secp256k1AddonPath } from "./crypto.js";
import { sha256 } from "./sha256.js";
import { startSignatureWorker } from "./signature-worker.js";

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
            worker.verify(key, signBytes, signature),
            worker.verify(key, signBytes, tampered),
            worker.verify(other, signBytes, signature),
            worker.verify(key, sha256(`other ${i}`), signature),
          ];
        }),
      );
      expect(answers).toEqual(cases.flatMap(() => [true, false, false, false]));
      expect(worker.alive).toBe(true);
    } finally {
      worker.close();
    }
  });

  it("close answers pending requests false, and later ones at once", async () => {
    const worker = startSignatureWorker(addon as string);
    const { signBytes, signature } = signed("pending");
    const pending = worker.verify(key, signBytes, signature);
    worker.close();
    expect(await pending).toBe(false);
    expect(worker.alive).toBe(false);
    expect(await worker.verify(key, signBytes, signature)).toBe(false);
  });

  it("a worker that cannot load its addon fails: every request answers false", async () => {
    const worker = startSignatureWorker("/nonexistent/secp256k1/bindings.js");
    const { signBytes, signature } = signed("no addon");
    expect(await worker.verify(key, signBytes, signature)).toBe(false);
    await expect.poll(() => worker.alive).toBe(false);
  });
});
