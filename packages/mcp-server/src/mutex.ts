/**
 * Keyed async mutexes for one process: `run(key, task)` runs `task` once every earlier task of the
 * same key has settled, so tasks of one key never overlap; tasks of other keys run freely. A key's
 * entry is dropped once its queue is empty.
 *
 * @example
 * ```ts
 * const locks = createKeyedMutex();
 * const order: number[] = [];
 * await Promise.all([
 *   locks.run("perpx1a", async () => { await new Promise((r) => setTimeout(r, 5)); order.push(1); }),
 *   locks.run("perpx1a", async () => { order.push(2); }),
 * ]);
 * order; // [1, 2]
 * ```
 */
export interface KeyedMutex {
  /** Runs `task` alone among the tasks of `key`, answering what it answers. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/**
 * A {@link KeyedMutex}.
 *
 * @returns the mutexes, none held.
 *
 * @example
 * ```ts
 * const locks = createKeyedMutex();
 * await locks.run("perpx1a", async () => 7); // 7
 * ```
 */
export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const before = tails.get(key) ?? Promise.resolve();
      const result = before.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
