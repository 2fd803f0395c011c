/** Shared by hygiene tests: which environment variables a piece of code reads. */

/**
 * Runs `body` with `process.env` behind a recording proxy; returns the names it read (in order,
 * with repeats). The real environment is restored however `body` ends.
 */
export async function envReadsOf(body: () => unknown): Promise<string[]> {
  const reads: string[] = [];
  const realEnv = process.env;
  process.env = new Proxy(realEnv, {
    get(target, key, receiver) {
      if (typeof key === "string") reads.push(key);
      return Reflect.get(target, key, receiver);
    },
  });
  try {
    await body();
  } finally {
    process.env = realEnv;
  }
  return reads;
}
