/**
 * A live network whose market ids have a gap (ETH-USD, id 1, delisted: markets 0 and 2 remain)
 * forks with the same ids. The devnet cannot delist a market (no governance message removes a clob
 * pair), so the gapped live network is itself started from a state read off a plain devnet with
 * market 1 left out, and is then reached only through its public endpoints.
 */
import { startDevnet } from "@perpx/devnet";
import { createIndexerConnection } from "@perpx/indexer-client/rest";
import { createNodeClient, marketQueries, type NodeConnection } from "@perpx/node-client";
import { catalogQueries } from "@perpx/node-client/queries";
import { describe, expect, it } from "vitest";
import { readForkState, startFork } from "../src/index.js";

const { getClobPairs, getMarketPrices, getPerpetuals } = marketQueries;

const { getMarketParams } = catalogQueries;

const ids = async (node: NodeConnection) => ({
  perpetuals: (await getPerpetuals(node)).map((p) => [p.params?.id, p.params?.marketId, p.params?.ticker]),
  pairs: (await getClobPairs(node)).map((c) => [
    c.id,
    c.metadata.case === "perpetualClobMetadata" ? c.metadata.value.perpetualId : undefined,
  ]),
  markets: (await getMarketParams(node)).map((m) => [m.id, m.pair]),
  prices: (await getMarketPrices(node)).map((m) => m.id),
});

describe("a fork of a live network with a gap in its market ids", () => {
  it("keeps the live ids, and its markets trade", async () => {
    const plain = await startDevnet({ ports: "free", blockTimeMs: 0 });
    const read = await readForkState({
      node: createNodeClient({ grpc: plain.endpoints.grpc }),
      indexer: createIndexerConnection({ baseUrl: plain.endpoints.indexer }),
      source: "a devnet",
    });
    await plain.stop();
    const live = await startDevnet({
      ports: "free",
      blockTimeMs: 0,
      fork: { ...read, markets: read.markets.filter((m) => m.id !== 1) },
    });
    try {
      const liveNode = createNodeClient({ grpc: live.endpoints.grpc });
      const liveIds = await ids(liveNode);
      expect(liveIds.pairs).toEqual([
        [0, 0],
        [2, 2],
      ]);
      const fork = await startFork({
        from: "local",
        endpoints: live.endpoints,
        ports: "free",
        blockTimeMs: 0,
        shadow: false,
      });
      try {
        expect(fork.state.markets.map((m) => [m.id, m.pair])).toEqual([
          [0, "BTC-USD"],
          [2, "SOL-USD"],
        ]);
        expect(await ids(createNodeClient({ grpc: fork.devnet.endpoints.grpc }))).toEqual(liveIds);
        // The mirror maker rests a book on market 2 (as the shadow does with the live book).
        fork.devnet.mirror?.setBook("SOL-USD", {
          bids: [{ price: "140", size: "1" }],
          asks: [{ price: "160", size: "1" }],
        });
        fork.devnet.mine(1);
        await expect
          .poll(async () => {
            const response = await fetch(
              `${fork.devnet.endpoints.indexer}/v4/orderbooks/perpetualMarket/SOL-USD`,
            );
            const book = (await response.json()) as { bids: Array<{ price: string }> };
            return book.bids[0]?.price;
          })
          .toBe("140");
      } finally {
        await fork.stop();
      }
    } finally {
      await live.stop();
    }
  });
});
