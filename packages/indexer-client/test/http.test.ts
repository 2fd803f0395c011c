/**
 * The REST client's HTTP behaviour against a local server that answers as the reference does:
 * success, every error body, retries on 429 and 5xx (with Retry-After), no retries on other 4xx
 * or aborts, timeouts, transport failures, bad bodies, and bad input refused before any request.
 */
import { isAbortedError, isInvalidArgumentError, isTimeoutError } from "@perpx/errors";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createIndexerClient,
  getHeight,
  type IndexerValidationError,
  isIndexerHttpError,
  isIndexerNotFoundError,
} from "../src/index.js";
import {
  isComplianceBlockedError,
  isGeoBlockedError,
  isIndexerRateLimitError,
  isIndexerTransportError,
  isIndexerValidationError,
} from "../src/rest.js";
import {
  ADDRESS,
  ADDRESS_HEX,
  closedPort,
  type FixtureServer,
  startFixtureServer,
} from "./support/fixture-server.js";

const HEIGHT = { height: "42", time: "2026-01-01T00:00:00.000Z" };
const FAST_RETRY = { retries: 3, baseDelayMs: 1, maxDelayMs: 2_000 };

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("answers", () => {
  it("returns the parsed body and sends accept and the caller's headers", async () => {
    server.route("/v4/height", { body: HEIGHT });
    const client = createIndexerClient({ baseUrl: `${server.baseUrl}/`, headers: { "x-test": "1" } });
    expect(await client.getHeight()).toEqual(HEIGHT);
    expect(server.requests[0]?.headers.accept).toBe("application/json");
    expect(server.requests[0]?.headers["x-test"]).toBe("1");
  });

  it("uses the injected fetch", async () => {
    server.route("/v4/height", { body: HEIGHT });
    const seen: string[] = [];
    const client = createIndexerClient({
      baseUrl: server.baseUrl,
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    await client.getHeight();
    expect(seen).toEqual([`${server.baseUrl}/v4/height`]);
  });

  it("maps a 400 to IndexerValidationError with the server's entries", async () => {
    const entry = {
      value: "2000",
      msg: "limit must be a positive integer that is not greater than max: 1000",
      param: "limit",
      location: "query",
    };
    server.route("/v4/height", {
      status: 400,
      body: { errors: [entry, { msg: "Only one of ticker or market may be provided" }] },
    });
    const error = (await caught(
      createIndexerClient({ baseUrl: server.baseUrl }).getHeight(),
    )) as IndexerValidationError;
    expect(isIndexerValidationError(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error.url).toBe(`${server.baseUrl}/v4/height`);
    expect(error.entries).toEqual([entry, { msg: "Only one of ticker or market may be provided" }]);
    expect(error.shortMessage).toContain("limit must be a positive integer");
    expect(server.requests).toHaveLength(1);
  });

  it("maps the 403 codes to GeoBlockedError and ComplianceBlockedError, without retrying", async () => {
    server.route("/v4/height", {
      status: 403,
      body: { errors: [{ code: "GEOBLOCKED", msg: "Because you appear to be a resident of ..." }] },
    });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    const geo = await caught(client.getHeight());
    expect(isGeoBlockedError(geo)).toBe(true);
    expect(isComplianceBlockedError(geo)).toBe(false);
    server.route("/v4/height", {
      status: 403,
      body: { errors: [{ code: "COMPLIANCE_BLOCKED", msg: "blocked" }] },
    });
    const blocked = await caught(client.getHeight());
    expect(isComplianceBlockedError(blocked)).toBe(true);
    expect(isIndexerHttpError(blocked) && blocked.status).toBe(403);
    expect(server.requests).toHaveLength(2);
  });

  it("maps a 404 (entity and unknown route) to IndexerNotFoundError, without retrying", async () => {
    server.route("/v4/height", { status: 404, body: { errors: [{ msg: "No blocks found" }] } });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    const missing = await caught(client.getHeight());
    expect(isIndexerNotFoundError(missing)).toBe(true);
    expect(isIndexerHttpError(missing) && missing.body).toEqual({ errors: [{ msg: "No blocks found" }] });
    const route = await caught(client.getHealth());
    expect(isIndexerNotFoundError(route) && route.body).toEqual({ error: "Not Found", errorCode: 404 });
    expect(server.requests).toHaveLength(2);
  });

  it("refuses a 2xx body that is not JSON or not the promised shape", async () => {
    const client = createIndexerClient({ baseUrl: server.baseUrl });
    server.route("/v4/height", { raw: "<html>proxy</html>" });
    expect(await caught(client.getHeight())).toMatchObject({ name: "IndexerDecodeError", code: "DECODE" });
    server.route("/v4/orders", { body: { not: "an array" } });
    const orders = await caught(client.getOrders({ owner: ADDRESS, number: 0 }));
    expect(orders).toMatchObject({ name: "IndexerDecodeError" });
  });
});

describe("retries", () => {
  it("retries a 500 and returns the later success", async () => {
    server.route("/v4/height", (_url, call) =>
      call < 3 ? { status: 500, body: { errors: [{ msg: "Internal Server Error" }] } } : { body: HEIGHT },
    );
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    expect(await client.getHeight()).toEqual(HEIGHT);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after the configured retries with the last error", async () => {
    server.route("/v4/height", { status: 503, body: { errors: [{ msg: "Internal Server Error" }] } });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: { ...FAST_RETRY, retries: 2 } });
    const error = await caught(client.getHeight());
    expect(isIndexerHttpError(error) && error.status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry at all with retry: false", async () => {
    server.route("/v4/height", { status: 500, body: { errors: [{ msg: "Internal Server Error" }] } });
    await caught(createIndexerClient({ baseUrl: server.baseUrl, retry: false }).getHeight());
    expect(server.requests).toHaveLength(1);
  });

  it("waits at least the Retry-After of a 429 (milliseconds) before retrying", async () => {
    server.route("/v4/height", (_url, call) =>
      call === 1
        ? {
            status: 429,
            headers: { "retry-after": "300", "ratelimit-remaining": "0", "ratelimit-limit": "100" },
            body: { errors: [{ msg: "Too many requests" }] },
          }
        : { body: HEIGHT },
    );
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    expect(await client.getHeight()).toEqual(HEIGHT);
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(295);
  });

  it("fails at once with IndexerRateLimitError when Retry-After exceeds maxDelayMs", async () => {
    server.route("/v4/height", {
      status: 429,
      headers: { "retry-after": "60000" },
      body: { errors: [{ msg: "Too many requests" }] },
    });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    const error = await caught(client.getHeight());
    expect(isIndexerRateLimitError(error) && error.retryAfterMs).toBe(60_000);
    expect(server.requests).toHaveLength(1);
  });

  it("reports a 429 that outlasts the retries as IndexerRateLimitError", async () => {
    server.route("/v4/height", {
      status: 429,
      headers: { "retry-after": "1" },
      body: { errors: [{ msg: "Too many requests" }] },
    });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: { ...FAST_RETRY, retries: 1 } });
    const error = await caught(client.getHeight());
    expect(isIndexerRateLimitError(error) && error.retryAfterMs).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it("retries transport failures, then reports IndexerTransportError", async () => {
    const port = await closedPort();
    const tries: number[] = [];
    const client = createIndexerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { ...FAST_RETRY, retries: 2 },
      fetch: (input, init) => {
        tries.push(1);
        return fetch(input, init);
      },
    });
    const error = await caught(client.getHeight());
    expect(isIndexerTransportError(error)).toBe(true);
    expect(tries).toHaveLength(3);
    const once = createIndexerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { retries: 2, retryTransportErrors: false },
    });
    expect(isIndexerTransportError(await caught(once.getHeight()))).toBe(true);
  });
});

describe("time limits", () => {
  it("times out a slow answer with an error isTimeoutError recognises", async () => {
    server.route("/v4/height", { body: HEIGHT, delayMs: 20_000 });
    const client = createIndexerClient({ baseUrl: server.baseUrl, timeoutMs: 200 });
    const error = await caught(client.getHeight());
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ name: "IndexerTimeoutError", timeoutMs: 200 });
  });

  it("lets a call's timeoutMs override the client's", async () => {
    server.route("/v4/height", { body: HEIGHT, delayMs: 20_000 });
    const client = createIndexerClient({ baseUrl: server.baseUrl, timeoutMs: 60_000 });
    expect(await caught(getHeight(client, { timeoutMs: 150 }))).toMatchObject({ timeoutMs: 150 });
  });

  it("counts the waits between retries against the timeout", async () => {
    server.route("/v4/height", { status: 500, body: { errors: [{ msg: "Internal Server Error" }] } });
    const client = createIndexerClient({
      baseUrl: server.baseUrl,
      timeoutMs: 300,
      retry: { retries: 100, baseDelayMs: 5_000, maxDelayMs: 5_000 },
    });
    expect(isTimeoutError(await caught(client.getHeight()))).toBe(true);
  });

  it("aborts through the caller's signal, without retrying", async () => {
    server.route("/v4/height", { body: HEIGHT, delayMs: 20_000 });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: FAST_RETRY });
    const controller = new AbortController();
    const call = client.getHeight({ signal: controller.signal });
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(new Error("user cancelled"));
    const error = await caught(call);
    expect(isAbortedError(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const client = createIndexerClient({ baseUrl: server.baseUrl });
    expect(isAbortedError(await caught(client.getHeight({ signal: AbortSignal.abort() })))).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe("bad input", () => {
  const client = () => createIndexerClient({ baseUrl: server.baseUrl });
  const argumentOf = async (call: () => Promise<unknown>) => {
    const error = await caught(call());
    return isInvalidArgumentError(error) ? error.argument : `not InvalidArgumentError: ${String(error)}`;
  };

  it("fails before any request with an error naming the parameter", async () => {
    expect(await argumentOf(() => client().getFills({ owner: "perpx1nope", number: 0 }))).toBe("owner");
    expect(await argumentOf(() => client().getFills({ owner: ADDRESS, number: 128_001 }))).toBe("number");
    expect(await argumentOf(() => client().getFills({ owner: ADDRESS, number: 0, limit: 1001 }))).toBe(
      "limit",
    );
    expect(await argumentOf(() => client().getFills({ owner: ADDRESS, number: 0, page: 0 }))).toBe("page");
    expect(await argumentOf(() => client().getParentFills({ owner: ADDRESS, number: 128 }))).toBe("number");
    expect(
      await argumentOf(() => client().getFills({ owner: ADDRESS, number: 0, createdBeforeOrAtHeight: -1 })),
    ).toBe("createdBeforeOrAtHeight");
    expect(await argumentOf(() => client().getOrder({ orderId: "12" }))).toBe("orderId");
    expect(
      await argumentOf(() => client().getCandles({ ticker: "BTC-USD", resolution: "2MINS" as "1MIN" })),
    ).toBe("resolution");
    expect(
      await argumentOf(() =>
        client().getOrders({
          owner: ADDRESS,
          number: 0,
          goodTilBlockAfter: 5,
          goodTilBlockTimeAfter: new Date(),
        }),
      ),
    ).toBe("goodTilBlockTimeBeforeOrAt");
    expect(
      await argumentOf(() => client().getOrders({ owner: ADDRESS, number: 0, status: ["NOPE" as "OPEN"] })),
    ).toBe("status");
    for (const offset of [-1, 1.5, Number.NaN, "3" as unknown as number]) {
      expect(await argumentOf(() => client().getAffiliateSnapshot({ offset }))).toBe("offset");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("sends a 0x address as bech32", async () => {
    server.route("/v4/assetPositions", { body: { positions: [] } });
    await client().getAssetPositions({ owner: ADDRESS_HEX, number: 3 });
    expect(server.requests[0]?.query.get("address")).toBe(ADDRESS);
    expect(server.requests[0]?.query.get("subaccountNumber")).toBe("3");
  });

  it("refuses bad client options", () => {
    expect(() => createIndexerClient({ baseUrl: "127.0.0.1:3002" })).toThrow(/baseUrl/);
    expect(() => createIndexerClient({ baseUrl: server.baseUrl, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createIndexerClient({ baseUrl: server.baseUrl, retry: { retries: -1 } })).toThrow(
      /retry\.retries/,
    );
  });
});
