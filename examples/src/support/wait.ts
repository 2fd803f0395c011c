/**
 * Waits for a condition seen over the network (the indexer catching up with a block, a book
 * changing): polls `check` until it returns a value, or fails after `timeoutMs` naming `what`.
 *
 * @example
 * ```ts
 * const order = await waitFor("the order on the indexer", () => findOrder(), 5_000);
 * ```
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
