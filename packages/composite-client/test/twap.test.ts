/**
 * TWAP orders, builder codes and order routers through the composite client, against a devnet with
 * a market maker. The devnet's clock is moved with its control API (`advance-time`) once a leg has
 * filled, so each interval passes at once; the tests wait for the handle's states, never for time.
 */
import { Exact, isInvalidOrderError } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import { getBlock, placementIn } from "@perpx/node-client/queries";
import { LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import type { CompositeClient, OrderHandle, OrderResult } from "../src/index.js";
import { fundedWallet, reachState, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();
const TWAP = { durationSeconds: 300, intervalSeconds: 60, priceTolerance: "1%" };

/** Moves the devnet's clock: the next block is that many seconds later. */
async function advance(seconds: number): Promise<void> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/advance-time`, {
    method: "POST",
    body: JSON.stringify({ seconds, mine: false }),
  });
  expect(response.status).toBe(200);
}

/** The block time of a height, unix seconds. */
async function blockTime(client: CompositeClient, height: bigint): Promise<number> {
  const block = await getBlock(client.context.node, { height });
  return Math.floor(block.header.time.getTime() / 1000);
}

/**
 * Follows a TWAP's handle to its end, moving the clock one interval on after each new fill (and
 * after each cancel `onFill` asks for), and returns every state seen.
 */
async function runTwap(handle: OrderHandle, onFill?: (state: OrderResult) => Promise<boolean>) {
  const seen: OrderResult[] = [];
  let filled = "0";
  for await (const state of handle.updates()) {
    seen.push(state);
    if (state.final) break;
    if (state.filledSize !== filled) {
      filled = state.filledSize;
      if (onFill && !(await onFill(state))) continue;
      await advance(TWAP.intervalSeconds);
    }
  }
  return seen;
}

async function registerRouter(address: string): Promise<void> {
  const control = net.devnet.endpoints.devnetControl;
  const { authority } = (await (await fetch(`${control}/devnet/gov/authority`)).json()) as {
    authority: string;
  };
  const proposal = await fetch(`${control}/devnet/gov/proposals`, {
    method: "POST",
    body: JSON.stringify({
      messages: [
        {
          "@type": "/perpx.revshare.v1.MsgSetOrderRouterRevShare",
          authority,
          order_router_rev_share: { address, share_ppm: 100_000 },
        },
      ],
    }),
  });
  expect(((await proposal.json()) as { result?: { status?: string } }).result?.status).toBe("passed");
}

describe("TWAP orders through placeOrder", () => {
  it("runs a market TWAP in human units: one suborder per interval, the handle FILLED by their fills", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "TWAP",
      size: "0.005",
      twap: TWAP,
    });
    expect(handle.kind).toBe("twap");
    expect(handle.orderId.orderFlags).toBe(128);
    const seen = await runTwap(handle);
    const end = seen.at(-1) as OrderResult;
    expect([end.status, end.final, end.filledSize]).toEqual(["FILLED", true, "0.005"]);
    // Five suborders of a fifth each, their fills summing to the filled size.
    expect(end.fills.map((f) => f.size)).toEqual(["0.001", "0.001", "0.001", "0.001", "0.001"]);
    expect(end.fills.reduce((sum, f) => sum.plus(f.size), new Exact(0)).toFixed()).toBe(end.filledSize);
    // The handle reported each leg as it filled.
    expect(seen.filter((s) => s.status === "PARTIALLY_FILLED").map((s) => s.filledSize)).toEqual([
      "0.001",
      "0.002",
      "0.003",
      "0.004",
    ]);
    // On schedule: each leg's fill an interval after the one before (the chain counts whole
    // seconds, so to within one), and no two legs in one interval.
    const times = await Promise.all(end.fills.map((f) => blockTime(client, f.height)));
    for (let i = 1; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(
        TWAP.intervalSeconds - 1,
      );
    }
    // The indexer's fills give each a price within the tolerance of the oracle.
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    expect(end.averagePrice).toBeDefined();
    expect(
      new Exact(end.averagePrice as string).lessThanOrEqualTo(new Exact(btc.oraclePrice).times("1.02")),
    ).toBe(true);
    const account = await client.account();
    expect(account.positions).toEqual([
      expect.objectContaining({ market: "BTC-USD", side: "LONG", size: "0.005" }),
    ]);
  });

  it("cancels a running TWAP: no suborder after the cancel, the handle PARTIALLY_FILLED (user_canceled)", async () => {
    const client = await net.connect({ wallet: await fundedWallet(net.devnet) });
    const handle = await client.placeOrder({
      market: "BTC-USD",
      side: "SELL",
      type: "TWAP",
      size: "0.005",
      twap: TWAP,
    });
    const seen = await runTwap(handle, async () => {
      await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
      return true; // the clock moves on: an interval passes with the TWAP cancelled
    });
    const end = seen.at(-1) as OrderResult;
    expect([end.status, end.final, end.filledSize, end.reason]).toEqual([
      "PARTIALLY_FILLED",
      true,
      "0.001",
      "user_canceled",
    ]);
    // Another interval on, still one leg: the chain placed nothing after the cancel.
    await advance(TWAP.intervalSeconds);
    const height = client.height();
    await client.context.height.waitAbove(height + 2n);
    const account = await client.account();
    expect(account.positions).toEqual([
      expect.objectContaining({ market: "BTC-USD", side: "SHORT", size: "0.001" }),
    ]);
  });

  it("refuses bad TWAP parameters with typed errors naming the field, before anything is signed", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const base = { market: "BTC-USD", side: "BUY", type: "TWAP", size: "0.005" } as const;
    const field = async (order: Parameters<typeof client.placeOrder>[0]) => {
      const error = await client.placeOrder(order).catch((e: unknown) => e);
      return isInvalidOrderError(error) ? error.field : error;
    };
    expect(await field({ ...base, twap: { ...TWAP, intervalSeconds: 20 } })).toBe("twap.intervalSeconds");
    expect(await field({ ...base, twap: { ...TWAP, durationSeconds: 310 } })).toBe("twap.durationSeconds");
    expect(await field({ ...base, twap: { ...TWAP, durationSeconds: 90_000 } })).toBe("twap.durationSeconds");
    expect(await field({ ...base, twap: { ...TWAP, priceTolerance: "100%" } })).toBe("twap.priceTolerance");
    expect(await field({ ...base, twap: { ...TWAP, priceTolerance: "0.5" } })).toBe("twap.priceTolerance");
    expect(await field({ ...base })).toBe("twap");
    // Five legs need five steps (0.0001 BTC each).
    expect(await field({ ...base, size: "0.0004", twap: TWAP })).toBe("quantums");
    expect(await field({ ...base, twap: TWAP, timeInForce: "IOC" })).toBe("timeInForce");
    expect(await field({ ...base, twap: TWAP, slippage: "1%" })).toBe("slippage");
    expect(await field({ ...base, twap: TWAP, goodTil: { blocks: 10 } })).toBe("goodTil");
    expect(await field({ ...base, type: "LIMIT", price: "30000", twap: TWAP })).toBe("twap");
    const builderCode = { builderAddress: signer.address, feePpm: 10_001 };
    expect(await field({ ...base, twap: TWAP, builderCode })).toBe("builderCode.feePpm");
    const badRouter = await client
      .placeOrder({ ...base, twap: TWAP, orderRouterAddress: "perpx1router" })
      .catch((e: unknown) => e);
    expect(isPerpxError(badRouter) && badRouter.name).toBe("InvalidAddressError");
    expect(signed).toEqual([]);
  });

  it("sends builderCode and orderRouterAddress to the chain, on a limit order and on a TWAP", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    const builder = LocalWallet.generate().address;
    const router = LocalWallet.generate().address;
    await registerRouter(router);
    const extras = { builderCode: { builderAddress: builder, feePpm: 250 }, orderRouterAddress: router };
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const far = new Exact(btc.oraclePrice).dividedBy(2, { scale: 0, rounding: "floor" }).toFixed();
    const limit = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: far,
      ...extras,
    });
    await reachState(limit, "RESTING");
    const stored = await client.context.node.getStatefulOrder({
      order: {
        subaccount: { owner: wallet.address, number: 0 },
        clientId: limit.clientId,
        clobPairId: 0,
        kind: "long-term",
      },
    });
    const resting = stored?.orderPlacement?.order;
    expect([resting?.builderCodeParameters?.builderAddress, resting?.builderCodeParameters?.feePpm]).toEqual([
      builder,
      250,
    ]);
    expect(resting?.orderRouterAddress).toBe(router);
    await client.cancelOrder({ market: "BTC-USD", clientId: limit.clientId });

    // The chain keeps no query of a TWAP: its placement is read back from the block that took it.
    const twap = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "TWAP",
      size: "0.005",
      twap: TWAP,
      ...extras,
    });
    await reachState(twap, "PARTIALLY_FILLED");
    let placed: ReturnType<typeof placementIn>;
    for (let height = client.height(); placed === undefined; height--) {
      placed = placementIn(await getBlock(client.context.node, { height }), twap.orderId);
    }
    expect(placed.order.twapParameters?.interval).toBe(60);
    expect(placed.order.builderCodeParameters?.builderAddress).toBe(builder);
    expect(placed.order.orderRouterAddress).toBe(router);
    await client.cancelOrder({ market: "BTC-USD", clientId: twap.clientId });
    const end = await reachState(twap, "CANCELED");
    expect([end.status, end.final, end.reason]).toEqual(["PARTIALLY_FILLED", true, "user_canceled"]);
  });
});
