/**
 * The block-event stream the chain application emits for the indexer: genesis as the first
 * block's events, a deposit's subaccount update and transfer, a fill with both orders in the
 * block's proposed operations, and the events surviving the block log's encoding.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import type { IndexerEvent } from "../src/app/indexer-output/indexer-events.js";
import { decodeBlock, encodeBlock } from "../src/app/lib/block-codec.js";
import { BinaryReader } from "../src/app/lib/codec.js";
import { locateBlockEvents } from "../src/indexer/block-events.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  type IndexedChain,
  placeShortTerm,
  startIndexedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;

beforeAll(async () => {
  chain = await startIndexedChain();
  return () => chain.devnet.stop();
});

const kinds = (events: readonly IndexerEvent[]) => events.map((e) => e.kind);

describe("block-event stream", () => {
  it("carries genesis in the first block: tiers, markets and prices, perpetuals, clob pairs", () => {
    const first = chain.devnet.app.block(1n);
    const events = first?.indexerEvents?.beginBlock ?? [];
    expect(kinds(events).filter((k) => k === "liquidity_tier")).toHaveLength(
      perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers.length,
    );
    expect(
      events.filter((e) => e.kind === "market_create").map((e) => e.kind === "market_create" && e.pair),
    ).toEqual(["BTC-USD", "ETH-USD", "SOL-USD"]);
    expect(events).toContainEqual({ kind: "oracle_price", marketId: 0, price: 6_500_000_000n });
    expect(events).toContainEqual({
      kind: "perpetual",
      perpetualId: 0,
      ticker: "BTC-USD",
      marketId: 0,
      atomicResolution: -10,
      defaultFundingPpm: 100,
      liquidityTier: 0,
      marketType: "CROSS",
    });
    expect(events).toContainEqual({
      kind: "clob_pair",
      clobPairId: 0,
      perpetualId: 0,
      stepBaseQuantums: 1_000_000n,
      subticksPerTick: 100_000,
      quantumConversionExponent: -9,
      status: "ACTIVE",
    });
  });

  it("puts a deposit's transfer and subaccount update on its tx, located by hash and index", async () => {
    const alice = chain.signers[0]?.address as string;
    const result = await deliver(chain, 0, [depositMsg(alice, 7_000_000n)]);
    expect(result.indexerEvents).toEqual([
      { kind: "subaccount_update", owner: alice, number: 0, usdc: 7_000_000n, perpetualPositions: [] },
      {
        kind: "transfer",
        sender: { owner: alice },
        recipient: { owner: alice, number: 0 },
        assetId: 0,
        quantums: 7_000_000n,
      },
    ]);
    const block = chain.devnet.app.latestBlock();
    const located = locateBlockEvents(block).filter((e) => e.event.kind === "transfer");
    expect(located).toHaveLength(1);
    expect(located[0]).toMatchObject({
      height: block.height,
      time: block.time,
      txIndex: block.txs.length - 1,
    });
    expect(located[0]?.txHash).toMatch(/^[0-9A-F]{64}$/);
  });

  it("emits a fill with both orders when the block's proposed operations settle it", async () => {
    await deliver(chain, 1, [depositMsg(chain.signers[1]?.address as string, 10_000_000_000n)]);
    await placeShortTerm(chain, 1, {
      clientId: 3,
      side: "sell",
      quantums: 2_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    await placeShortTerm(chain, 0, {
      clientId: 4,
      side: "buy",
      quantums: 1_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    const [block] = chain.devnet.mine(1);
    const proposed = block?.txResults[0]?.indexerEvents ?? [];
    const fill = proposed.find((e) => e.kind === "order_fill");
    expect(fill).toMatchObject({
      clobPairId: 0,
      quantums: 1_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
      quoteQuantums: 6_500_000n,
      takerTotalFilled: 1_000_000n,
      makerTotalFilled: 1_000_000n,
    });
    if (fill?.kind !== "order_fill") throw new Error("no fill");
    expect(fill.taker.orderId?.clientId).toBe(4);
    expect(fill.maker.orderId?.clientId).toBe(3);
    expect(kinds(proposed).filter((k) => k === "subaccount_update")).toHaveLength(2);
    // The block log keeps them: encoded and decoded, the record carries the same events.
    const decoded = decodeBlock(new BinaryReader(encodeBlock(block as NonNullable<typeof block>)));
    expect(decoded.txResults[0]?.indexerEvents).toEqual(proposed);
    expect(decoded.indexerEvents).toEqual(block?.indexerEvents);
  });

  it("emits oracle moves at the start of a block, and every perpetual's funding sample at a funding-sample epoch", async () => {
    chain.devnet.app.control.setOraclePrice("ETH-USD", "3300");
    const [block] = chain.devnet.mine(1);
    expect(block?.indexerEvents?.beginBlock).toContainEqual({
      kind: "oracle_price",
      marketId: 1,
      price: 3_300_000_000n,
    });
    const samples = (events: readonly IndexerEvent[] | undefined) =>
      (events ?? []).flatMap((e) => (e.kind === "funding" && e.phase === "sample" ? [e] : []));
    // A two-sided BTC-USD book around the oracle (the ask left at the oracle by the fill above,
    // and a bid under it): the index is inside the spread, so the premium votes are 0.
    await placeShortTerm(chain, 1, { clientId: 5, side: "sell", subticks: 6_600_000_000n });
    await placeShortTerm(chain, 0, { clientId: 6, side: "buy", subticks: 6_450_000_000n });
    const moved = await fetch(`${chain.devnet.endpoints.devnetControl}/devnet/advance-epoch`, {
      method: "POST",
      body: JSON.stringify({ epoch: "funding-sample", mine: false }),
    });
    expect(moved.status).toBe(200);
    const [epoch] = chain.devnet.mine(1);
    expect(
      epoch?.finalizeBlockEvents.find(
        (e) =>
          e.type === "new_epoch" &&
          e.attributes.some((a) => a.key === "epoch_info_name" && a.value === "funding-sample"),
      ),
    ).toBeDefined();
    const sent = samples(epoch?.indexerEvents?.endBlock);
    expect(sent.map((e) => e.perpetualId)).toEqual([0, 1, 2]);
    // Each is the epoch's sample, zero too (the default funding is the indexer's to add).
    for (const sample of sent) expect(sample).toMatchObject({ ratePpm: 0n, fundingIndex: 0n });
    expect(sent[1]?.oracleSubticks).toBeGreaterThan(0n);
  });
});
