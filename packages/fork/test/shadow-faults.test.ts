/**
 * The shadow against a live indexer that misbehaves: one that refuses a subscription (an `error`
 * frame, as an indexer answers when it cannot read a snapshot), one that answers frames whose
 * contents break the channel's contract, and a live network with more markets than one indexer
 * connection may subscribe to. The fork must keep following once the live indexer answers well again,
 * and must never say `following` while its prices are not the live ones.
 */
import { type Devnet, startDevnet } from "@perpx/devnet";
import { createNodeClient, marketQueries, type NodeConnection } from "@perpx/node-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Fork, startFork } from "../src/index.js";
import { type LiveFrame, Tamper, TamperWebSocket } from "./support/tamper-socket.js";

const { getMarketPrice } = marketQueries;

let live: Devnet;
let liveNode: NodeConnection;

beforeAll(async () => {
  live = await startDevnet({ ports: "free", blockTimeMs: 0 });
  liveNode = createNodeClient({ grpc: live.endpoints.grpc });
});

afterAll(async () => {
  await live?.stop();
});

afterEach(() => {
  Tamper.rewrite = () => undefined;
  Tamper.answer = () => undefined;
});

const forkOf = (devnet: Devnet) =>
  startFork({
    from: "local",
    endpoints: devnet.endpoints,
    ports: "free",
    blockTimeMs: 0,
    WebSocket: TamperWebSocket,
  });

/** Sets a live price and mines it, so the live indexer's v4_markets reports it. */
const setLivePrice = (market: string, price: string) => {
  live.app.control.setOraclePrice(market, price);
  live.mine(1);
};

const followsLive = async (fork: Fork, id: number) => {
  const forkNode = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
  await expect
    .poll(async () => (await getMarketPrice(forkNode, { id })).price)
    .toBe((await getMarketPrice(liveNode, { id })).price);
};

describe("the shadow against a misbehaving live indexer", () => {
  it("subscribes again to a channel the live indexer refused, and follows it", async () => {
    // The live indexer cannot read the v4_markets snapshot for the first subscribe (it answers an
    // error naming the subscription and holds none); it can for the next one.
    let refusals = 0;
    Tamper.answer = (message) => {
      if (message.type !== "subscribe" || message.channel !== "v4_markets" || refusals > 0) return undefined;
      refusals++;
      return {
        type: "error",
        message: "Internal error, could not fetch data for subscription: v4_markets.",
        connection_id: "tampered",
        channel: "v4_markets",
      };
    };
    const fork = await forkOf(live);
    try {
      expect(refusals).toBe(1);
      await expect.poll(() => fork.shadow?.status().state).toBe("following");
      setLivePrice("BTC-USD", "61111");
      await followsLive(fork, 0);
    } finally {
      await fork.stop();
    }
  });

  it("is paused, not following, while the live indexer's frames break the contract", async () => {
    const fork = await forkOf(live);
    try {
      expect(fork.shadow?.status().state).toBe("following");
      // Every v4_markets frame from now on: the snapshot's and updates' contents are garbage.
      Tamper.rewrite = (frame): LiveFrame | undefined =>
        frame.channel === "v4_markets" && frame.contents !== undefined
          ? { ...frame, contents: { markets: 5, oraclePrices: 5 } }
          : undefined;
      setLivePrice("BTC-USD", "62222");
      await expect.poll(() => fork.shadow?.status().state).toBe("paused");
      expect(fork.shadow?.status().reason).toMatch(/v4_markets/);
      // The live indexer answers well again: a fresh snapshot, and the fork follows.
      Tamper.rewrite = () => undefined;
      await expect.poll(() => fork.shadow?.status().state).toBe("following");
      await followsLive(fork, 0);
    } finally {
      await fork.stop();
    }
  });
});

describe("the shadow of a live network with more markets than one connection may subscribe to", () => {
  it("follows every market's oracle and book", async () => {
    // 40 markets: over the 32 v4_orderbook (and v4_trades) subscriptions one connection may hold.
    const wide = await startDevnet({ ports: "free", blockTimeMs: 0, markets: 40, liquidity: true });
    try {
      const fork = await forkOf(wide);
      try {
        expect(fork.state.markets.length).toBe(40);
        expect(fork.shadow?.status().state).toBe("following");
        const last = fork.state.markets.at(-1)!;
        const wideNode = createNodeClient({ grpc: wide.endpoints.grpc });
        const forkNode = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
        const price = (await getMarketPrice(wideNode, { id: last.id })).price;
        wide.app.control.setOraclePrice(last.pair, "7.5");
        wide.mine(1);
        await expect
          .poll(async () => (await getMarketPrice(forkNode, { id: last.id })).price)
          .not.toBe(price);
        expect((await getMarketPrice(forkNode, { id: last.id })).price).toBe(
          (await getMarketPrice(wideNode, { id: last.id })).price,
        );
        // The live maker quotes every market after a block: the fork's mirror rests the last one's.
        await expect.poll(() => fork.devnet.mirror?.resting(last.pair).bids.length ?? 0).toBeGreaterThan(0);
      } finally {
        await fork.stop();
      }
    } finally {
      await wide.stop();
    }
  });
});
