import { performance } from "node:perf_hooks";

/**
 * What a lane's time is: `wall`, elapsed time (a call that waits on a socket or a server); `cpu`,
 * the process's CPU time (user + system), for calls that only compute: on a busy machine a batch's
 * elapsed time also counts the slices the scheduler gave other processes, which land on either lane
 * at random, while its CPU time does not.
 */
export type Clock = "wall" | "cpu";

const now: Record<Clock, () => number> = {
  wall: () => performance.now(),
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
};

/**
 * A lane of in-process calls: `batch` calls of `body` one after the other (each awaited when it
 * returns a promise), reporting milliseconds per call on `clock` (`wall` by default).
 */
export function perCall(batch: number, body: () => unknown, clock: Clock = "wall"): () => Promise<number> {
  const read = now[clock];
  return async () => {
    const start = read();
    for (let i = 0; i < batch; i++) {
      const result = body();
      if (result instanceof Promise) await result;
    }
    return (read() - start) / batch;
  };
}
