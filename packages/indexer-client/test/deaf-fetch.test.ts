/**
 * `timeoutMs` and `signal` bound a call whatever the injected `fetch` does with the request's
 * `AbortSignal`: a fetch that never looks at it (a wrapper, a polyfill, a table of canned answers
 * whose route is slow) must not make a call outlive its budget or its caller's abort.
 */
import { isAbortedError, isTimeoutError } from "@perpx/errors";
import { expect, it, vi } from "vitest";
import { createIndexerClient, createStaticFetch } from "../src/index.js";
import { activeResources, expectNoTimerLeak } from "./support/leaks.js";

// A hang guard: a call that outlives its budget hangs, and should fail sooner than the suite's bound.
vi.setConfig({ testTimeout: 30_000 });

const HEIGHT = { height: "1", time: "2026-01-01T00:00:00.000Z" };

/** A fetch that never answers and never looks at the request's signal. */
const deaf: typeof fetch = () => new Promise<Response>(() => {});

/** A call's outcome: its value, or the name of what it threw. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

it("timeoutMs ends a call whose fetch ignores the signal and never answers", async () => {
  const baseline = activeResources();
  const client = createIndexerClient({ baseUrl: "http://indexer.test", retry: false, fetch: deaf });
  const { error } = (await outcome(client.getHeight({ timeoutMs: 50 }))) as { error: unknown };
  expect(isTimeoutError(error)).toBe(true);
  expect(error).toMatchObject({ name: "IndexerTimeoutError", timeoutMs: 50 });
  expectNoTimerLeak(baseline);
});

it("the caller's abort ends a call whose fetch ignores the signal", async () => {
  const client = createIndexerClient({ baseUrl: "http://indexer.test", retry: false, fetch: deaf });
  const controller = new AbortController();
  const call = outcome(client.getHeight({ signal: controller.signal, timeoutMs: 600_000 }));
  controller.abort(new Error("user cancelled"));
  const { error } = (await call) as { error: unknown };
  expect(isAbortedError(error)).toBe(true);
});

it("a body that never ends is bounded too (the fetch answers headers, then its body stalls)", async () => {
  const stalled: typeof fetch = async () =>
    ({
      ok: true,
      status: 200,
      headers: new Headers(),
      text: () => new Promise<string>(() => {}),
    }) as Response;
  const client = createIndexerClient({ baseUrl: "http://indexer.test", retry: false, fetch: stalled });
  const { error } = (await outcome(client.getHeight({ timeoutMs: 50 }))) as { error: unknown };
  expect(error).toMatchObject({ name: "IndexerTimeoutError" });
});

it("createStaticFetch honours the signal while a route is answering", async () => {
  let answer: (() => void) | undefined;
  const client = createIndexerClient({
    baseUrl: "http://indexer.test",
    retry: false,
    fetch: createStaticFetch({
      "/v4/height": () =>
        new Promise<Response>((resolve) => {
          answer = () => resolve(Response.json(HEIGHT));
        }),
    }),
  });
  const controller = new AbortController();
  const call = outcome(client.getHeight({ signal: controller.signal }));
  await expect.poll(() => answer).toBeDefined();
  controller.abort();
  const settled = (await call) as { error: unknown };
  answer?.(); // the route answers late: the call has ended already
  expect(isAbortedError(settled.error)).toBe(true);
});
