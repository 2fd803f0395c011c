/**
 * Markets by ticker from the node: `getMarket` joins the perpetual, its clob pair and its oracle
 * price, and the order builders take the market with a human size and price (converted exactly by
 * `@perpx/core`), over a devnet.
 */
import {
  isInvalidAmountError,
  isInvalidArgumentError,
  isInvalidOrderError,
  marketPriceToPrice,
  priceToSubticks,
  quantumsToSize,
  sizeToQuantums,
  subticksToPrice,
} from "@perpx/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Market } from "../src/index.js";
import { orderWireAmounts, placeOrderMsg } from "../src/tx.js";
import { useDevnet } from "./support.js";

const net = useDevnet();
let btc: Market;

beforeAll(async () => {
  btc = await net.client.getMarket({ ticker: "BTC-USD" });
});

describe("getMarket", () => {
  it("joins the perpetual, its clob pair and its oracle price, over gRPC and RPC alike", async () => {
    const perpetual = (await net.client.getPerpetuals()).find((p) => p.params?.ticker === "BTC-USD")!;
    const pair = (await net.client.getClobPairs()).find(
      (p) =>
        p.metadata.case === "perpetualClobMetadata" && p.metadata.value.perpetualId === perpetual.params!.id,
    )!;
    const market = await net.client.getMarket({ ticker: "BTC-USD" });
    const { oracle, oraclePrice, ...fixed } = market;
    expect(fixed).toEqual({
      ticker: "BTC-USD",
      clobPairId: pair.id,
      perpetualId: perpetual.params!.id,
      marketId: perpetual.params!.marketId,
      atomicResolution: perpetual.params!.atomicResolution,
      quantumConversionExponent: pair.quantumConversionExponent,
      stepBaseQuantums: pair.stepBaseQuantums,
      subticksPerTick: BigInt(pair.subticksPerTick),
      status: "ACTIVE",
    });
    // The oracle moves every block: the price is the market's, read in the same call.
    const latest = await net.client.getMarketPrice({ id: perpetual.params!.marketId });
    expect(oracle.exponent).toBe(latest.exponent);
    expect(oracle.price).toBeGreaterThan(0n);
    expect(oraclePrice).toBe(marketPriceToPrice(oracle));
    const overRpc = await net.client.getMarket({ ticker: "BTC-USD", transport: "rpc" });
    expect({ ...overRpc, oraclePrice: "", oracle: undefined }).toEqual({
      ...btc,
      oraclePrice: "",
      oracle: undefined,
    });
    const eth = await net.client.getMarket({ ticker: "ETH-USD" });
    expect(eth.clobPairId).not.toBe(btc.clobPairId);
  });

  it("refuses an unknown ticker, naming the ones the chain has", async () => {
    const error = await net.client.getMarket({ ticker: "DOGE-EUR" }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(error)).toBe(true);
    expect((error as Error).message).toMatch(/DOGE-EUR.*BTC-USD/);
  });
});

describe("orders on a market, in human units", () => {
  it("converts size and price exactly, and refuses what is off the step or tick before signing", () => {
    const step = quantumsToSize(btc.stepBaseQuantums, btc);
    const amounts = orderWireAmounts({
      market: btc,
      size: step,
      price: subticksToPrice(btc.subticksPerTick, btc),
    });
    expect(amounts.clobPairId).toBe(btc.clobPairId);
    expect(amounts.quantums).toBe(btc.stepBaseQuantums);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1_000_000n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (steps, ticks) => {
          const quantums = steps * btc.stepBaseQuantums;
          const subticks = ticks * btc.subticksPerTick;
          const converted = orderWireAmounts({
            market: btc,
            size: quantumsToSize(quantums, btc),
            price: subticksToPrice(subticks, btc),
          });
          return converted.quantums === quantums && converted.subticks === subticks;
        },
      ),
    );
    const offStep = () => placeOrderMsg(baseOrder({ size: `${step}1` }));
    expect(thrown(offStep)).toSatisfy(isInvalidAmountError);
    expect(
      thrown(() => placeOrderMsg({ ...baseOrder({}), market: { ...btc, clobPairId: Number.NaN } })),
    ).toSatisfy(isInvalidOrderError);
  });

  it("places, reads back and cancels a long-term order given as market, size and price", async () => {
    const trader = net.wallets[4]!;
    await net.client.depositToSubaccount({
      signer: trader,
      sender: trader.address,
      recipient: { owner: trader.address, number: 0 },
      quantums: 10_000_000_000n,
    });
    const ticks = priceToSubticks(btc.oraclePrice, btc, { rounding: "down" }) / btc.subticksPerTick / 2n;
    const price = subticksToPrice(ticks * btc.subticksPerTick, btc);
    const size = quantumsToSize(btc.stepBaseQuantums * 3n, btc);
    const { time } = await net.client.getLatestBlock();
    const goodTilBlockTime = Math.floor(time.getTime() / 1000) + 3_600;
    const placed = await net.client.placeOrder({
      signer: trader,
      subaccount: { owner: trader.address, number: 0 },
      clientId: 7,
      side: "BUY",
      market: btc,
      size,
      price,
      kind: "long-term",
      goodTilBlockTime,
    });
    expect(placed.tx?.code).toBe(0);
    const stored = await net.client.getStatefulOrder({
      order: {
        subaccount: { owner: trader.address, number: 0 },
        clientId: 7,
        clobPairId: btc.clobPairId,
        kind: "long-term",
      },
    });
    expect(stored?.orderPlacement?.order?.quantums).toBe(sizeToQuantums(size, btc));
    expect(stored?.orderPlacement?.order?.subticks).toBe(priceToSubticks(price, btc));
    const cancelled = await net.client.cancelOrder({
      signer: trader,
      subaccount: { owner: trader.address, number: 0 },
      clientId: 7,
      market: btc,
      kind: "long-term",
      goodTilBlockTime,
    });
    expect(cancelled.tx?.code).toBe(0);
    expect(
      await net.client.getStatefulOrder({
        order: {
          subaccount: { owner: trader.address, number: 0 },
          clientId: 7,
          clobPairId: btc.clobPairId,
          kind: "long-term",
        },
      }),
    ).toBeUndefined();
  });
});

function baseOrder(patch: { size?: string }) {
  return {
    subaccount: { owner: net.wallets[4]!.address, number: 0 },
    clientId: 1,
    side: "BUY" as const,
    market: btc,
    size: patch.size ?? quantumsToSize(btc.stepBaseQuantums, btc),
    price: subticksToPrice(btc.subticksPerTick * 1_000n, btc),
    kind: "short-term" as const,
    goodTilBlock: 10,
  };
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
