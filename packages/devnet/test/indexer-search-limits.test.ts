/**
 * Two comlink behaviours over the indexer's REST port: `GET /v4/trader/search` (an address through
 * its subaccount 0, or a username; the reference's 404 and 400 bodies; the swagger's
 * `TraderSearchResponse` shape) and the rate limits' `RateLimit-*` headers and 429 answer, by
 * route bucket and client IP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  signerAddresses,
  startFundedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let bob: string;

beforeAll(async () => {
  // Bob only has subaccount 1: no subaccount 0, so no username.
  chain = await startFundedChain([1_000_000_000n, { quantums: 1_000_000_000n, number: 1 }]);
  [alice, bob] = signerAddresses(chain);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

type Body = Record<string, unknown>;

/** GET with headers: status, JSON body, headers. */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${chain.devnet.endpoints.indexer}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Body, headers: response.headers };
}

describe("GET /v4/trader/search", () => {
  it("finds a trader by address or by username, with the swagger's TraderSearchResponse shape", async () => {
    await placeShortTerm(chain, 0, { clientId: 1, side: "buy", subticks: 6_000_000_000n });
    const [order] = (await getIndexer(chain, `/v4/orders?address=${alice}&subaccountNumber=0`))
      .body as Body[];
    const { referralCode } = (await getIndexer(chain, `/v4/affiliates/metadata?address=${alice}`))
      .body as Body;
    const expected = {
      result: {
        address: alice,
        subaccountNumber: 0,
        subaccountId: order?.subaccountId,
        username: referralCode,
      },
    };
    const byAddress = await get(`/v4/trader/search?searchParam=${alice}`);
    expect([byAddress.status, byAddress.body]).toEqual([200, expected]);
    expect(byAddress.headers.get("cache-control")).toBe("public, max-age=10");
    const byName = await get(`/v4/trader/search?searchParam=${referralCode}`);
    expect([byName.status, byName.body]).toEqual([200, expected]);
    // The swagger's schema: `result` only, its four keys required, no others, the number a number.
    expect(Object.keys(byName.body)).toEqual(["result"]);
    const result = byName.body.result as Body;
    expect(Object.keys(result).sort()).toEqual(["address", "subaccountId", "subaccountNumber", "username"]);
    expect(
      [result.address, result.subaccountId, result.username].every((v) => typeof v === "string") &&
        typeof result.subaccountNumber === "number",
    ).toBe(true);
  });

  it("answers 404 for an unknown username or an address without a subaccount 0, 400 without searchParam", async () => {
    const name = (referralCode: string) => `/v4/trader/search?searchParam=${referralCode}`;
    expect(await get(name("NobodyAtAll"))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "Subaccount not found:NobodyAtAll" }] },
    });
    expect(await get(name(bob))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `Subaccount not found:${bob}` }] },
    });
    // An exact match only: the username in lower case is another name.
    const { referralCode } = (await getIndexer(chain, `/v4/affiliates/metadata?address=${alice}`))
      .body as Body;
    expect((await get(name(String(referralCode).toLowerCase()))).status).toBe(404);
    expect(await get("/v4/trader/search")).toMatchObject({
      status: 400,
      body: { errors: [{ msg: "searchParam is required", param: "searchParam", location: "query" }] },
    });
  });
});

describe("REST rate limits", () => {
  it("counts a forwarded client's requests by bucket and refuses the 101st in a window with 429", async () => {
    // A window is 10 s from the first request; on a slow machine a run may straddle two windows,
    // so each attempt is a new client IP and a run counts only when all of it fell in one window.
    for (let attempt = 1; ; attempt++) {
      const client = { "x-forwarded-for": `203.0.113.${attempt}, 10.0.0.1` };
      const before = Date.now();
      const first = await get("/v4/height", client);
      const after = Date.now();
      const reset = Number(first.headers.get("ratelimit-reset"));
      expect([first.headers.get("ratelimit-limit"), first.headers.get("ratelimit-remaining")]).toEqual([
        "100",
        "99",
      ]);
      expect(reset - 10_000).toBeGreaterThanOrEqual(before);
      expect(reset - 10_000).toBeLessThanOrEqual(after);
      // 99 more on other routes of the default bucket (a 400 counts: the limit runs first).
      const more = await Promise.all(
        Array.from({ length: 99 }, (_, i) =>
          get(i % 2 === 0 ? "/v4/perpetualMarkets" : "/v4/perpetualMarkets?limit=0", client),
        ),
      );
      const over = await get("/v4/height", client);
      const resets = new Set([...more, over].map((r) => r.headers.get("ratelimit-reset")));
      if (resets.size !== 1 || !resets.has(String(reset))) {
        expect(attempt, "every run straddled two rate-limit windows").toBeLessThan(5);
        continue;
      }
      const remaining = more.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => b - a);
      expect(remaining).toEqual(Array.from({ length: 99 }, (_, i) => 98 - i));
      expect(more.filter((r) => r.status === 400)).toHaveLength(49);
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ errors: [{ msg: "Too many requests" }] });
      expect(over.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(10_000);
      // Other buckets are their own: candles allow 1000, orders by id are never limited.
      const candles = await get("/v4/candles/perpetualMarkets/BTC-USD?resolution=1MIN", client);
      expect([candles.status, candles.headers.get("ratelimit-limit")]).toEqual([200, "1000"]);
      const fills = await get(`/v4/fills?address=${alice}&subaccountNumber=0`, client);
      expect([fills.status, fills.headers.get("ratelimit-remaining")]).toEqual([200, "99"]);
      break;
    }
  });

  it("sends the headers to local clients, which cost no points; orders by id carry none", async () => {
    for (let i = 0; i < 3; i++) {
      const local = await get("/v4/height");
      expect([local.headers.get("ratelimit-limit"), local.headers.get("ratelimit-remaining")]).toEqual([
        "100",
        "100",
      ]);
    }
    await placeShortTerm(chain, 0, { clientId: 2, side: "buy", subticks: 6_000_000_000n });
    const [order] = (await getIndexer(chain, `/v4/orders?address=${alice}&subaccountNumber=0`))
      .body as Body[];
    const byId = await get(`/v4/orders/${order?.id}`, { "x-forwarded-for": "198.51.100.77" });
    expect(byId.status).toBe(200);
    expect(byId.headers.get("ratelimit-limit")).toBeNull();
  });
});
