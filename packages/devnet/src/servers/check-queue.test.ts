import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckQueue } from "./check-queue.js";

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tx = (n: number) => Uint8Array.of(n);

describe("CheckQueue", () => {
  it("checks at once, returning the result or throwing, when nothing waits and nothing readies the tx", () => {
    const queue = new CheckQueue((t: Uint8Array) => {
      if (t[0] === 0) throw new Error("boom");
      return t[0];
    });
    expect(queue.submit(tx(7), undefined)).toBe(7);
    expect(() => queue.submit(tx(0), undefined)).toThrow("boom");
  });

  it("a throwing check rejects that tx only, in its turn", async () => {
    const checked: number[] = [];
    const queue = new CheckQueue((t: Uint8Array) => {
      checked.push(t[0] as number);
      if (t[0] === 2) throw new Error("two");
      return t[0];
    });
    const first = deferred();
    const a = queue.submit(tx(1), first.promise);
    const b = queue.submit(tx(2), undefined);
    const c = queue.submit(tx(3), Promise.reject(new Error("a failed readying counts as ready")));
    expect(checked).toEqual([]);
    first.resolve();
    await expect(a).resolves.toBe(1);
    await expect(b).rejects.toThrow("two");
    await expect(c).resolves.toBe(3);
    expect(checked).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });

  it("with checkWhenIdle, the head still waiting once the loop has polled is checked without it, in order", async () => {
    const checked: number[] = [];
    const queue = new CheckQueue(
      (t: Uint8Array) => {
        checked.push(t[0] as number);
        return t[0];
      },
      { checkWhenIdle: true },
    );
    const never = new Promise<void>(() => {});
    const later = deferred();
    const results = [
      queue.submit(tx(1), never),
      queue.submit(tx(2), later.promise),
      queue.submit(tx(3), never),
    ];
    expect(checked).toEqual([]);
    // One turn of the loop: the head is checked, not yet the next (it gets a turn of its own).
    await new Promise((resolve) => setImmediate(resolve));
    expect(checked).toEqual([1]);
    later.resolve();
    await results[1];
    expect(checked).toEqual([1, 2]);
    expect(await Promise.all(results)).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });

  it("with checkWhenIdle, a waiting head with a hurry is hurried first, and checked a turn later if still waiting", async () => {
    const checked: number[] = [];
    const hurried: number[] = [];
    const queue = new CheckQueue(
      (t: Uint8Array) => {
        checked.push(t[0] as number);
        return t[0];
      },
      { checkWhenIdle: true },
    );
    const first = deferred();
    const results = [
      queue.submit(tx(1), first.promise, () => {
        hurried.push(1);
        first.resolve();
      }),
      queue.submit(tx(2), new Promise<void>(() => {}), () => hurried.push(2)),
    ];
    // One turn: the head is hurried, gets ready and is checked; the next is hurried in the turn after.
    await new Promise((resolve) => setImmediate(resolve));
    expect(hurried).toEqual([1]);
    expect(checked).toEqual([1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(hurried).toEqual([1, 2]);
    expect(checked).toEqual([1]);
    // Its hurry did not ready it: it is checked one turn later all the same.
    expect(await Promise.all(results)).toEqual([1, 2]);
    expect(checked).toEqual([1, 2]);
  });

  it("property: txs are checked in arrival order, each after it is ready, whatever order they get ready in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
        fc.infiniteStream(fc.nat()),
        async (readied, picks) => {
          const checked: number[] = [];
          const readyNow = new Set<number>();
          const queue = new CheckQueue((t: Uint8Array) => {
            const n = t[0] as number;
            expect(readyNow.has(n)).toBe(true);
            checked.push(n);
            return n;
          });
          const gates = new Map<number, () => void>();
          const results = readied.map((needsGate, n) => {
            if (!needsGate) {
              readyNow.add(n);
              return queue.submit(tx(n), undefined);
            }
            const gate = deferred();
            gates.set(n, () => {
              readyNow.add(n);
              gate.resolve();
            });
            return queue.submit(tx(n), gate.promise);
          });
          const open = [...gates.keys()];
          const it = picks[Symbol.iterator]();
          while (open.length > 0) {
            const [n] = open.splice((it.next().value as number) % open.length, 1);
            gates.get(n as number)?.();
            await Promise.resolve();
          }
          expect(await Promise.all(results)).toEqual(readied.map((_, n) => n));
          expect(checked).toEqual(readied.map((_, n) => n));
        },
      ),
    );
  });
});
