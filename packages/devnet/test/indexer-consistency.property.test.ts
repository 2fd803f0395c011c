/**
 * The indexer's consistency rules (issue 10, point 5) as a property: after any random flow of
 * signed short-term orders (every time in force), cancels, transfers between subaccounts, oracle
 * moves and blocks, the REST order book equals the chain's memclob, a client that applied every
 * order book update to its snapshot equals both, and each subaccount's REST equity, free
 * collateral and position sizes equal the chain's own valuation at the oracle price. The chain
 * side is read from the application's internals, in this test only.
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { queryContext } from "../src/app/kernel/chain-core.js";
import { PrefixStore } from "../src/app/kernel/store-views.js";
import { OrderBook } from "../src/app/modules/clob/book.js";
import type { MarginTotals } from "../src/app/modules/subaccounts/margin.js";
import type { ChannelMessage } from "../src/indexer/feed.js";
import { scaled, usdc } from "../src/indexer/format.js";
import { committedBlocks, startIndexer } from "../src/indexer/indexer.js";
import { startIndexerRestServer } from "../src/indexer/rest/server.js";
import { placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";
import type { Loose } from "./support/loose.js";

type Msg = { schema: DescMessage; value: MessageShape<DescMessage> };

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const TICK = 100_000n;
const STEP = 1_000_000n;
let traders: TestSigner[];

beforeAll(async () => {
  traders = await Promise.all(GENESIS_ACCOUNTS.slice(0, 3).map((a, i) => testSigner(a.mnemonic, i)));
});

type Action =
  | {
      kind: "order";
      who: number;
      buy: boolean;
      ticks: number;
      steps: number;
      tif: "GTT" | "IOC" | "POST_ONLY";
    }
  | { kind: "cancel"; who: number; back: number }
  | { kind: "transfer"; from: number; to: number; dollars: number }
  | { kind: "price"; dollars: number }
  | { kind: "mine" };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("order" as const),
      who: fc.integer({ min: 0, max: 2 }),
      buy: fc.boolean(),
      ticks: fc.integer({ min: -2, max: 2 }),
      steps: fc.integer({ min: 1, max: 40 }),
      tif: fc.constantFrom("GTT" as const, "IOC" as const, "POST_ONLY" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("cancel" as const),
      who: fc.integer({ min: 0, max: 2 }),
      back: fc.nat(5),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      from: fc.integer({ min: 0, max: 2 }),
      to: fc.integer({ min: 0, max: 2 }),
      dollars: fc.integer({ min: 1, max: 500 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("price" as const),
      dollars: fc.integer({ min: -800, max: 800 }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: "mine" as const }) },
);

/** A fresh chain with an indexer and its REST server, each trader funded with $10,000. */
async function setup() {
  const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
  app.control.setOracleWalk(false);
  app.control.setOraclePrice("BTC-USD", "65000");
  const { indexer, stop } = startIndexer(app, committedBlocks(app));
  const feed: ChannelMessage[] = [];
  indexer.onMessages((messages) => feed.push(...messages));
  const rest = await startIndexerRestServer({ indexer, host: "127.0.0.1", port: 0 });
  const sequences = traders.map(() => 0n);
  const mine = () => app.produceBlock(new Date(app.latestBlock().time.getTime() + 1000));
  const stateful = async (who: number, msgs: Msg[]) => {
    const bytes = await signMsgs(
      traders[who] as TestSigner,
      app.info.chainId,
      sequences[who] as bigint,
      msgs,
      50_000n,
    );
    if (app.checkTx(bytes).code === 0) sequences[who] = (sequences[who] as bigint) + 1n;
  };
  for (let who = 0; who < traders.length; who++) {
    const owner = (traders[who] as TestSigner).address;
    await stateful(who, [
      {
        schema: sending.MsgDepositToSubaccountSchema,
        value: create(sending.MsgDepositToSubaccountSchema, {
          sender: owner,
          recipient: { owner, number: 0 },
          assetId: 0,
          quantums: 10_000_000_000n,
        }),
      } as Msg,
    ]);
  }
  mine();
  // A resting ask and a taker crossing it: every flow starts with one fill queued for its next block.
  const height = Number(app.latestBlock().height);
  for (const [who, side, tif] of [
    [2, "sell", clob.Order_TimeInForce.UNSPECIFIED],
    [0, "buy", clob.Order_TimeInForce.IOC],
  ] as const) {
    const order = placeMsg({
      owner: (traders[who] as TestSigner).address,
      clientId: 1_000_000 + who,
      side,
      quantums: 10n * STEP,
      subticks: 6_500_000_000n,
      goodTilBlock: height + 20,
      timeInForce: tif,
    });
    app.checkTx(await signMsgs(traders[who] as TestSigner, app.info.chainId, 0n, [order], 0n));
  }
  return {
    app,
    indexer,
    rest,
    feed,
    stateful,
    mine,
    close: async () => {
      stop();
      await rest.close();
    },
  };
}

/** The chain's memclob levels of BTC-USD as REST prints them. */
function chainBook(app: PersistentChainApp) {
  const book = new OrderBook(new PrefixStore((app as Loose).core.root, "clob/"));
  const level = (l: { subticks: bigint; quantums: bigint }) => ({
    price: scaled(l.subticks, -5),
    size: scaled(l.quantums, -10),
  });
  return { bids: book.levels(0, "buy").map(level), asks: book.levels(0, "sell").map(level) };
}

/** The book a client builds from the first snapshot and every update since. */
function clientBook(feed: readonly ChannelMessage[]) {
  const sides = { bids: new Map<string, string>(), asks: new Map<string, string>() };
  for (const m of feed) {
    if (m.channel !== "v4_orderbook" || m.id !== "BTC-USD") continue;
    for (const side of ["bids", "asks"] as const) {
      for (const [price, size] of (m.contents as Record<string, [string, string][]>)[side] ?? []) {
        if (size === "0") sides[side].delete(price);
        else sides[side].set(price, size);
      }
    }
  }
  const sorted = (side: "bids" | "asks") =>
    [...sides[side]]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) =>
        side === "bids" ? Number(b.price) - Number(a.price) : Number(a.price) - Number(b.price),
      );
  return { bids: sorted("bids"), asks: sorted("asks") };
}

async function get(base: string, path: string): Promise<Loose> {
  return (await fetch(`${base}${path}`)).json();
}

describe("indexer consistency", () => {
  it("keeps REST and the feed equal to the chain's memclob and subaccounts over random flows", async () => {
    let trades = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 20 }), async (actions) => {
        const chain = await setup();
        const clientIds = traders.map(() => [] as number[]);
        let nextClientId = 1;
        let price = 65_000;
        try {
          for (const a of [...actions, { kind: "mine" as const }]) {
            const height = Number(chain.app.latestBlock().height);
            if (a.kind === "order") {
              const owner = (traders[a.who] as TestSigner).address;
              const clientId = nextClientId++;
              clientIds[a.who]?.push(clientId);
              const tif = {
                GTT: clob.Order_TimeInForce.UNSPECIFIED,
                IOC: clob.Order_TimeInForce.IOC,
                POST_ONLY: clob.Order_TimeInForce.POST_ONLY,
              }[a.tif];
              const msg = placeMsg({
                owner,
                clientId,
                side: a.buy ? "buy" : "sell",
                quantums: BigInt(a.steps) * STEP,
                subticks: 6_500_000_000n + BigInt(a.ticks) * TICK,
                goodTilBlock: height + 20,
                timeInForce: tif,
              });
              chain.app.checkTx(
                await signMsgs(traders[a.who] as TestSigner, chain.app.info.chainId, 0n, [msg], 0n),
              );
            } else if (a.kind === "cancel") {
              const ids = clientIds[a.who] ?? [];
              const clientId = ids[ids.length - 1 - (a.back % Math.max(ids.length, 1))];
              if (clientId === undefined) continue;
              const owner = (traders[a.who] as TestSigner).address;
              const cancel = {
                schema: clob.MsgCancelOrderSchema,
                value: create(clob.MsgCancelOrderSchema, {
                  orderId: { subaccountId: { owner, number: 0 }, clientId, orderFlags: 0, clobPairId: 0 },
                  goodTilOneof: { case: "goodTilBlock", value: height + 5 },
                }),
              } as Msg;
              chain.app.checkTx(
                await signMsgs(traders[a.who] as TestSigner, chain.app.info.chainId, 0n, [cancel], 0n),
              );
            } else if (a.kind === "transfer") {
              const sender = (traders[a.from] as TestSigner).address;
              const recipient = (traders[a.to] as TestSigner).address;
              await chain.stateful(a.from, [
                {
                  schema: sending.MsgCreateTransferSchema,
                  value: create(sending.MsgCreateTransferSchema, {
                    transfer: {
                      sender: { owner: sender, number: 0 },
                      recipient: { owner: recipient, number: 0 },
                      assetId: 0,
                      amount: BigInt(a.dollars) * 1_000_000n,
                    },
                  }),
                } as Msg,
              ]);
            } else if (a.kind === "price") {
              price = Math.max(1_000, price + a.dollars);
              chain.app.control.setOraclePrice("BTC-USD", String(price));
            } else {
              chain.mine();
            }
            const rest = await get(chain.rest.url, "/v4/orderbooks/perpetualMarket/BTC-USD");
            const memclob = chainBook(chain.app);
            expect(rest).toEqual(memclob);
            expect(clientBook(chain.feed)).toEqual(memclob);
            if (a.kind !== "mine") continue;
            const core = (chain.app as Loose).core;
            for (const trader of traders) {
              const body = await get(chain.rest.url, `/v4/addresses/${trader.address}/subaccountNumber/0`);
              const ref = { owner: trader.address, number: 0 };
              const risk: MarginTotals = core.set.keepers.subaccounts.risk(queryContext(core), ref);
              expect(body.subaccount.equity).toBe(usdc(risk.netCollateral));
              expect(body.subaccount.freeCollateral).toBe(usdc(risk.netCollateral - risk.initial));
              const view = core.set.keepers.subaccounts.get(queryContext(core), ref);
              const chainSizes = Object.fromEntries(
                view.perpetualPositions.map((p: { quantums: bigint }) => [
                  "BTC-USD",
                  scaled(p.quantums, -10),
                ]),
              );
              const restSizes = Object.fromEntries(
                Object.entries(
                  body.subaccount.openPerpetualPositions as Record<string, { size: string }>,
                ).map(([t, p]) => [t, p.size]),
              );
              expect(restSizes).toEqual(chainSizes);
            }
          }
          trades += chain.indexer.tradesOf("BTC-USD")?.length ?? 0;
        } finally {
          await chain.close();
        }
      }),
      { numRuns: 12 },
    );
    // Every flow trades (at least its first fill settles), so the subaccount checks see positions.
    expect(trades).toBeGreaterThanOrEqual(12);
  }, 240_000);
});
