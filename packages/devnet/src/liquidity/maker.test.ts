import { clob } from "@perpx/proto";
import { afterEach, describe, expect, it } from "vitest";
import { createChainApp } from "../app/app.js";
import type { OrderStreamMessage, PersistentChainApp } from "../app/contract.js";
import { isDevnetError } from "../devnet-error.js";
import { LIQUIDITY_SIGNER_LABEL, type MarketMaker, startMarketMaker } from "./maker.js";
import { devnetSigner } from "./signer.js";

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
let maker: MarketMaker | undefined;

afterEach(() => {
  maker?.stop();
  maker = undefined;
});

function chain(): { app: PersistentChainApp; mine: () => void; stream: OrderStreamMessage[] } {
  const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
  const stream: OrderStreamMessage[] = [];
  app.onOrderStream((messages) => stream.push(...messages));
  const mine = () => {
    app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
  };
  return { app, mine, stream };
}

/** The maker's resting orders per clob pair and side, from the order stream. */
function restingOf(stream: readonly OrderStreamMessage[], owner: string) {
  const live = new Map<string, clob.Order>();
  const key = (id: clob.OrderId | undefined) => `${id?.clobPairId}/${id?.clientId}`;
  for (const m of stream) {
    if (m.kind === "place" && m.order.orderId?.subaccountId?.owner === owner)
      live.set(key(m.order.orderId), m.order);
    if (m.kind === "replace" && m.order.orderId?.subaccountId?.owner === owner)
      live.set(key(m.order.orderId), m.order);
    if (m.kind === "remove") live.delete(key(m.orderId));
  }
  return [...live.values()];
}

describe("the devnet's market maker", () => {
  it("rests a ladder of post-only orders on every market, bids below and asks above the oracle", () => {
    const { app, mine, stream } = chain();
    maker = startMarketMaker(app, app.control, { levels: 3 });
    mine();
    const resting = restingOf(stream, maker.address);
    expect(new Set(resting.map((o) => o.orderId?.clobPairId))).toEqual(new Set([0, 1, 2]));
    expect(resting).toHaveLength(3 * 2 * 3);
    for (const order of resting) {
      expect(order.timeInForce).toBe(clob.Order_TimeInForce.POST_ONLY);
      expect(order.goodTilOneof.case).toBe("goodTilBlock");
    }
    const btc = resting.filter((o) => o.orderId?.clobPairId === 0);
    const bestBid = btc
      .filter((o) => o.side === clob.Order_Side.BUY)
      .map((o) => o.subticks)
      .sort()
      .at(-1);
    const bestAsk = btc
      .filter((o) => o.side === clob.Order_Side.SELL)
      .map((o) => o.subticks)
      .sort()[0];
    expect((bestBid ?? 0n) < (bestAsk ?? 0n)).toBe(true);
  });

  it("follows the oracle price by replacing its orders", () => {
    const { app, mine, stream } = chain();
    app.control.setOracleWalk(false);
    maker = startMarketMaker(app, app.control, { levels: 1, refreshBlocks: 20 });
    mine();
    const before = restingOf(stream, maker.address).filter((o) => o.orderId?.clobPairId === 0);
    app.control.setOraclePrice("BTC-USD", "70000");
    mine();
    const after = restingOf(stream, maker.address).filter((o) => o.orderId?.clobPairId === 0);
    expect(
      stream.some((m) => m.kind === "replace" && m.order.orderId?.subaccountId?.owner === maker?.address),
    ).toBe(true);
    expect(after).toHaveLength(2);
    expect(after.map((o) => o.subticks)).not.toEqual(before.map((o) => o.subticks));
    // Quoted around $70,000: 7_000_000_000 subticks for BTC-USD.
    for (const o of after) {
      const distance =
        o.subticks > 7_000_000_000n ? o.subticks - 7_000_000_000n : 7_000_000_000n - o.subticks;
      expect(distance < 7_000_000_000n / 500n).toBe(true);
    }
  });

  it("keeps the same account across restarts of quoting and refuses a bad shape before anything", () => {
    const { app } = chain();
    expect(() => startMarketMaker(app, app.control, { levels: 0 })).toThrow(
      /liquidity.levels must be an integer from 1 to 50, got 0/,
    );
    let failure: unknown;
    try {
      startMarketMaker(app, app.control, { halfSpreadBps: 5000, levels: 2, levelSpacingBps: 5000 });
    } catch (error) {
      failure = error;
    }
    expect(isDevnetError(failure) && failure.reason).toBe("out-of-range");
    maker = startMarketMaker(app, app.control, {});
    expect(maker.address).toBe(devnetSigner(LIQUIDITY_SIGNER_LABEL).address);
  });
});
