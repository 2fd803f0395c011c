/**
 * cancelAll while the node drops every broadcast: it rejects with the transport's typed error only
 * once every cancel it sent has settled, and no cancel's failure escapes as an unhandled rejection
 * (which ends a Node process); once the node is back, the next cancelAll removes both orders.
 */
import { isTransportError } from "@perpx/node-client";
import { afterAll, describe, expect, it } from "vitest";
import { type CountingProxy, type ProxiedRequest, startCountingProxy } from "./proxy.js";
import { fundedWallet, reachState, useDevnet } from "./support.js";

const net = useDevnet();
const proxies: CountingProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const isBroadcast = (r: ProxiedRequest) => r.method?.startsWith("broadcast_tx") ?? false;

describe("cancelAll when the node drops its broadcasts", () => {
  it("rejects typed once every cancel settled, leaks no rejection, and the next cancelAll works", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const drop = { on: false };
      const proxy = await startCountingProxy(net.devnet.endpoints.nodeRpc, {
        drop: (r) => drop.on && isBroadcast(r),
      });
      proxies.push(proxy);
      const client = await net.connect({
        wallet: await fundedWallet(net.devnet),
        endpoints: { nodeRpc: proxy.url },
      });
      await client.deposit({ amount: "500" });
      const btc = await client.getMarket({ ticker: "BTC-USD" });
      const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
      const bid = { market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" } as const;
      const longTerm = await client.placeOrder({ ...bid, clientId: 71_001 });
      const shortTerm = await client.placeOrder({ ...bid, clientId: 71_002, goodTil: { blocks: 40 } });
      await reachState(longTerm, "RESTING");
      await reachState(shortTerm, "RESTING");

      drop.on = true;
      const before = proxy.requests.filter(isBroadcast).length;
      const error = await client.cancelAll({ market: "BTC-USD" }).catch((e: unknown) => e);
      expect(isTransportError(error) && error.nothingSent).toBe(false);
      // Both cancels went out (the batch of the short-term order, the long-term order's own) and
      // both had failed by the time cancelAll rejected.
      expect(proxy.requests.filter(isBroadcast).length - before).toBe(2);
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);

      drop.on = false;
      const cancelled = await client.cancelAll({ market: "BTC-USD" });
      expect(cancelled["BTC-USD"]?.toSorted()).toEqual([71_001, 71_002]);
      expect((await longTerm.result({ timeoutMs: 10_000 })).status).toBe("CANCELED");
      expect((await shortTerm.result({ timeoutMs: 10_000 })).status).toBe("CANCELED");
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
