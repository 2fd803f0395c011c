import { describe, expect, it } from "vitest";
import { call, useMcpNet } from "./support.js";

const net = useMcpNet();
const SESSIONS = 20;
const ACCOUNTS = 10;
/**
 * Places per session: two sessions share an account, and the chain's equity tier lets an account
 * of this size hold 10 open stateful orders (clob 10001 beyond), so 4 each stays under it.
 */
const PLACES_PER_SESSION = 4;
/**
 * Rounds per session (two reads each, a place in the first `PLACES_PER_SESSION`): the run is a
 * count of calls, not a stretch of wall time, so a loaded machine does the same work, only slower.
 */
const ROUNDS_PER_SESSION = 10;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

describe("load", () => {
  it("serves 20 concurrent sessions reading and placing orders: no order lost or doubled", async () => {
    const server = await net.startServer({ limits: { maxOpenOrders: 10_000 } });
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => net.account()));
    const clients = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) =>
        net.connect(accounts[i % ACCOUNTS]?.credential ?? "", server),
      ),
    );
    const oracle = Number(
      (await call(clients[0] as never, "get_market", { ticker: "BTC-USD" })).market.oraclePrice,
    );
    const price = String(Math.floor(oracle * 0.96));
    const latencies: Record<"read" | "place", number[]> = { read: [], place: [] };
    const placed = new Map<string, number[]>();
    const timed = async <T>(kind: "read" | "place", run: () => Promise<T>) => {
      const started = performance.now();
      const out = await run();
      latencies[kind].push(performance.now() - started);
      return out;
    };
    await Promise.all(
      clients.map(async (client, i) => {
        const owner = accounts[i % ACCOUNTS]?.owner.address ?? "";
        for (let n = 0; n < ROUNDS_PER_SESSION; n++) {
          await timed("read", () => call(client, "get_orderbook", { ticker: "BTC-USD", depth: 5 }));
          await timed("read", () => call(client, "get_account"));
          if (n >= PLACES_PER_SESSION) continue;
          const clientId = 10_000 * (i + 1) + n;
          const result = await timed("place", () =>
            call(client, "place_order", {
              ticker: "BTC-USD",
              side: "BUY",
              type: "LIMIT",
              size: "0.0001",
              price,
              clientId,
            }),
          );
          expect(result.verification.state).toBe("RESTING");
          placed.set(owner, [...(placed.get(owner) ?? []), clientId]);
        }
      }),
    );
    let total = 0;
    for (const account of accounts) {
      const ids = placed.get(account.owner.address) ?? [];
      total += ids.length;
      expect(new Set(ids).size).toBe(ids.length);
      const { node } = account.client.context;
      const onChain = await Promise.all(
        ids.map((clientId) =>
          node.getStatefulOrder({
            order: {
              subaccount: { owner: account.owner.address, number: 0 },
              clientId,
              clobPairId: 0,
              kind: "long-term",
            },
          }),
        ),
      );
      expect(onChain.every(Boolean), `every order of ${account.owner.address} rests on chain`).toBe(true);
      await expect
        .poll(
          async () => {
            const orders = await account.client.context.indexer?.getOrders({
              owner: account.owner.address,
              number: 0,
              status: ["OPEN"],
              limit: 1000,
            });
            return (orders ?? []).map((o) => Number(o.clientId)).sort((a, b) => a - b);
          },
          { timeout: 10_000, interval: 250 },
        )
        .toEqual([...ids].sort((a, b) => a - b));
    }
    expect(total).toBe(SESSIONS * PLACES_PER_SESSION);
    const figures = Object.fromEntries(
      Object.entries(latencies).map(([kind, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [
          kind,
          {
            calls: sorted.length,
            p50: Math.round(percentile(sorted, 50)),
            p99: Math.round(percentile(sorted, 99)),
          },
        ];
      }),
    );
    // The figures for the closing note: tool latency under 20 concurrent sessions, ms.
    process.stdout.write(`mcp load: ${total} orders, ${JSON.stringify(figures)}\n`);
  }, 180_000);
});
