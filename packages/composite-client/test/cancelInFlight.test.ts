/**
 * A cancel still in flight is not a cancel: followed on the node alone, a short-term order's
 * handle reports CANCELED only once the node accepted the cancel, never while it is being sent
 * (a cancel the node never received leaves the order resting, free to fill).
 */
import { afterAll, describe, expect, it } from "vitest";
import { isOrderOutcomeUnknownError, type OrderOutcomeUnknownError } from "../src/index.js";
import { type CountingProxy, type ProxiedRequest, startCountingProxy } from "./proxy.js";
import { fundedWallet, useDevnet } from "./support.js";

const net = useDevnet();
const proxies: CountingProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const isBroadcast = (r: ProxiedRequest) => r.method?.startsWith("broadcast_tx") ?? false;

describe("a short-term order's cancel that never reached the node", () => {
  it("leaves its handle following the order: EXPIRED at its good-til-block, never CANCELED", async () => {
    // Broadcasts are held until `release` resolves, then cut unforwarded while `lose` is on.
    const lose = { on: false, release: Promise.resolve() };
    const proxy = await startCountingProxy(net.devnet.endpoints.nodeRpc, {
      hold: (r) => (lose.on && isBroadcast(r) ? lose.release : undefined),
      drop: (r) => lose.on && isBroadcast(r),
    });
    proxies.push(proxy);
    const client = await net.connect({
      wallet: await fundedWallet(net.devnet),
      endpoints: { nodeRpc: proxy.url },
      liveFeed: false,
    });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price,
      rounding: "down",
      goodTil: { blocks: 12 },
    });
    const states: string[] = [];
    const followed = (async () => {
      for await (const state of handle.updates()) states.push(state.status);
    })();

    // The cancel's bytes are written, held while three blocks pass, then lost.
    const from = client.height();
    lose.on = true;
    lose.release = (async () => {
      let seen = from;
      while (seen < from + 3n) seen = await client.context.height.waitAbove(seen);
    })();
    const error = await client
      .cancelOrder({ market: "BTC-USD", clientId: handle.clientId })
      .catch((e: unknown) => e);
    lose.on = false;
    expect(isOrderOutcomeUnknownError(error), String(error)).toBe(true);
    expect((error as OrderOutcomeUnknownError).operation).toBe("cancel");

    // The node never saw the cancel: the order rested until its good-til-block.
    const end = await handle.result({ timeoutMs: 30_000 });
    await followed;
    expect(states).not.toContain("CANCELED");
    expect([end.status, end.final, end.filledSize]).toEqual(["EXPIRED", true, "0"]);
  }, 120_000);
});
