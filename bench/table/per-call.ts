import { performance } from "node:perf_hooks";

/**
 * A lane of in-process calls: `batch` calls of `body` one after the other (each awaited when it
 * returns a promise), reporting milliseconds per call.
 */
export function perCall(batch: number, body: () => unknown): () => Promise<number> {
  return async () => {
    const start = performance.now();
    for (let i = 0; i < batch; i++) {
      const result = body();
      if (result instanceof Promise) await result;
    }
    return (performance.now() - start) / batch;
  };
}
